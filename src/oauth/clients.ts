/**
 * Dynamic client registration (RFC 7591) for public clients: no client secret is ever issued
 * (`token_endpoint_auth_method: "none"`); PKCE S256 binds each code to the client instance that asked.
 *
 * What a client says about itself (its name, its URI) is unverified: the consent page shows it as the
 * client's own claim, next to where the owner will be sent back. Registration is unauthenticated, so it
 * is rate-limited per client address, and registrations never used for 7 days are deleted.
 */
import { z } from "zod";
import { prefixedId } from "../lib/ids";
import type { Throttle } from "../rate-limits/throttle";
import { OAuthError } from "./errors";
import { parseScope, scopeString, type OAuthDeps } from "./model";
import { validateRedirectUris } from "./redirect";

export const REGISTRATIONS_PER_IP = 20;
const UNUSED_CLIENT_TTL_MS = 7 * 24 * 3600_000;

const printable = (max: number) =>
  z
    .string()
    .max(max)
    .transform((s) => s.replace(/[\p{Cc}\p{Cf}]/gu, "").trim());

const RegistrationRequest = z.looseObject({
  redirect_uris: z.unknown(),
  client_name: printable(100).optional(),
  client_uri: z.string().max(2000).optional(),
  token_endpoint_auth_method: z.string().optional(),
  grant_types: z.array(z.string()).max(10).optional(),
  response_types: z.array(z.string()).max(10).optional(),
  scope: z.string().max(200).optional(),
  software_id: printable(200).optional(),
  software_version: printable(100).optional(),
});

export interface RegisteredClient {
  client_id: string;
  client_id_issued_at: number;
  client_name: string;
  redirect_uris: string[];
  token_endpoint_auth_method: "none";
  grant_types: string[];
  response_types: string[];
  scope: string;
  client_uri?: string;
  software_id?: string;
  software_version?: string;
}

const meta = (d: string) => new OAuthError("invalid_client_metadata", d);

export async function registerClient(deps: OAuthDeps, throttle: Throttle, body: unknown, ip: string): Promise<RegisteredClient> {
  const parsed = RegistrationRequest.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw meta(`${issue.path.join(".") || "body"}: ${issue.message}`);
  }
  const r = parsed.data;
  const redirectUris = validateRedirectUris(r.redirect_uris);
  // RFC 7591 2: the server may replace requested metadata. Every client is registered public
  // (`token_endpoint_auth_method: "none"`, no secret) whatever it asked for, and the reply says so.
  const requestedGrants = r.grant_types ?? ["authorization_code", "refresh_token"];
  if (!requestedGrants.includes("authorization_code")) throw meta("grant_types must include authorization_code");
  const grantTypes = ["authorization_code", "refresh_token"];
  const responseTypes = r.response_types ?? ["code"];
  if (!responseTypes.includes("code")) throw meta('response_types must include "code"');
  let clientUri: string | undefined;
  if (r.client_uri) {
    const ok = URL.canParse(r.client_uri) && new URL(r.client_uri).protocol === "https:";
    if (!ok) throw meta("client_uri must be an https URL");
    clientUri = r.client_uri;
  }
  let scope: string;
  try {
    scope = scopeString(parseScope(r.scope ?? "mcp wallet"));
  } catch (e) {
    throw meta((e as OAuthError).description);
  }

  const bucket = `oauth-register:ip:${ip}`;
  if (await throttle.exceeded([{ bucket, limit: REGISTRATIONS_PER_IP }])) {
    throw new OAuthError("temporarily_unavailable", "too many client registrations from this address; wait 15 minutes", 429);
  }
  await throttle.record(bucket);

  const now = deps.clock.now();
  const id = prefixedId("cli", 16);
  const name = r.client_name || "Unnamed MCP client";
  await deps.db
    .insertInto("oauth_clients")
    .values({
      id,
      client_name: name,
      redirect_uris: JSON.stringify(redirectUris),
      client_uri: clientUri ?? null,
      software_id: r.software_id || null,
      software_version: r.software_version || null,
      scope,
      created_at: now,
    })
    .execute();
  await deleteUnusedClients(deps, now);
  deps.logger.info({ clientId: id, clientName: name, redirectUris }, "oauth client registered");
  return {
    client_id: id,
    client_id_issued_at: Math.floor(now.getTime() / 1000),
    client_name: name,
    redirect_uris: redirectUris,
    token_endpoint_auth_method: "none",
    grant_types: grantTypes,
    response_types: ["code"],
    scope,
    ...(clientUri ? { client_uri: clientUri } : {}),
    ...(r.software_id ? { software_id: r.software_id } : {}),
    ...(r.software_version ? { software_version: r.software_version } : {}),
  };
}

export async function findClient(deps: OAuthDeps, clientId: string) {
  if (!/^cli_[a-z0-9]{16}$/.test(clientId)) return undefined;
  const row = await deps.db.selectFrom("oauth_clients").selectAll().where("id", "=", clientId).executeTakeFirst();
  return row ? { ...row, redirect_uris: row.redirect_uris as unknown as string[] } : undefined;
}
export type ClientRow = NonNullable<Awaited<ReturnType<typeof findClient>>>;

/** Registrations that never led to a code within 7 days are garbage: registration is open to anyone. */
async function deleteUnusedClients(deps: OAuthDeps, now: Date): Promise<void> {
  const before = new Date(now.getTime() - UNUSED_CLIENT_TTL_MS);
  await deps.db
    .deleteFrom("oauth_clients")
    .where("created_at", "<", before)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom("oauth_codes").select("oauth_codes.id").whereRef("oauth_codes.client_id", "=", "oauth_clients.id"))))
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom("oauth_grants").select("oauth_grants.id").whereRef("oauth_grants.client_id", "=", "oauth_clients.id"))))
    .execute();
}
