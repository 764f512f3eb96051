/**
 * The authorization endpoint's rules (OAuth 2.1 4.1.1, RFC 7636, RFC 8707, RFC 9207), shared by the
 * consent page's GET (show) and POST (decide), which re-validates everything the form carried.
 *
 * - An unknown client, or a redirect URI that is missing or does not match a registered one, is shown to
 *   the owner and never redirected to (that would be an open redirector).
 * - Every other problem is sent back to the client's redirect URI as `error=...` with `state` and `iss`.
 * - Only `response_type=code` with PKCE `S256`; `plain` and missing challenges are refused.
 * - `resource`, when sent, must be this server's MCP endpoint; when absent the code is bound to it anyway.
 */
import { prefixedId } from "../lib/ids";
import type { Scope } from "../accounts/principal";
import { findClient, type ClientRow } from "./clients";
import { OAuthError, type OAuthErrorCode } from "./errors";
import { CHALLENGE_RE, CODE_PREFIX, newSecret, parseScope, scopeString, secondsFrom, type OAuthDeps } from "./model";
import { matchRedirectUri } from "./redirect";

export const AUTHORIZE_PARAMS = ["response_type", "client_id", "redirect_uri", "state", "scope", "code_challenge", "code_challenge_method", "resource"] as const;
export type AuthorizeParams = Partial<Record<(typeof AUTHORIZE_PARAMS)[number], string>>;

export interface AuthorizationRequest {
  client: ClientRow;
  /** Exactly as the client sent it: the token request must repeat it. */
  redirectUri: string;
  state: string | null;
  codeChallenge: string;
  /** What the client asked for (always including mcp); the owner may grant less. */
  requestedScope: Scope[];
  resource: string;
}

export type AuthorizeCheck =
  | { ok: true; request: AuthorizationRequest }
  /** Shown to the owner; nothing is sent to the client. */
  | { ok: false; redirect: null; message: string }
  /** Sent back to the client. */
  | { ok: false; redirect: string; message: string };

/** `redirect_uri` plus the response parameters, keeping any query the registered URI has. */
export function redirectWith(redirectUri: string, params: Record<string, string | null | undefined>): string {
  const u = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined) u.searchParams.set(k, v);
  return u.toString();
}

export async function checkAuthorizationRequest(deps: OAuthDeps, p: AuthorizeParams, duplicated: string[] = []): Promise<AuthorizeCheck> {
  const client = p.client_id ? await findClient(deps, p.client_id) : undefined;
  if (!client) return { ok: false, redirect: null, message: "This application is not registered with Arbiter (unknown client_id). Nothing was shared." };
  if (!p.redirect_uri) return { ok: false, redirect: null, message: "The application did not say where to return (no redirect_uri). Nothing was shared." };
  const redirectUri = matchRedirectUri(client.redirect_uris, p.redirect_uri);
  if (!redirectUri || duplicated.includes("redirect_uri") || duplicated.includes("client_id")) {
    return { ok: false, redirect: null, message: "The return address this request names is not one the application registered. Nothing was shared; do not retry this link." };
  }
  const state = p.state ?? null;
  const fail = (error: OAuthErrorCode, description: string): AuthorizeCheck => ({
    ok: false,
    message: description,
    redirect: redirectWith(redirectUri, { error, error_description: description, state, iss: deps.publicUrl }),
  });
  if (duplicated.length) return fail("invalid_request", `parameters sent more than once: ${duplicated.join(", ")}`);
  if (p.response_type !== "code") return fail("unsupported_response_type", "only response_type=code is supported");
  if (!p.code_challenge) return fail("invalid_request", "PKCE is required: send code_challenge with code_challenge_method=S256");
  if (p.code_challenge_method !== "S256") return fail("invalid_request", "only code_challenge_method=S256 is supported");
  if (!CHALLENGE_RE.test(p.code_challenge)) return fail("invalid_request", "code_challenge must be the 43-character base64url SHA-256 of the verifier");
  if (state !== null && state.length > 1000) return fail("invalid_request", "state is limited to 1000 characters");
  let requestedScope: Scope[];
  try {
    requestedScope = parseScope(p.scope);
  } catch (e) {
    return fail("invalid_scope", (e as OAuthError).description);
  }
  const resource = deps.mcpResource;
  if (p.resource !== undefined && p.resource !== resource) return fail("invalid_target", `the only resource this server issues tokens for is ${resource}`);
  return { ok: true, request: { client, redirectUri, state, codeChallenge: p.code_challenge, requestedScope, resource } };
}

/** After consent: a single-use 60-second code bound to everything the token request must repeat. */
export async function issueCode(deps: OAuthDeps, req: AuthorizationRequest, granted: Scope[], owner: { accountId: string; userId: string }): Promise<string> {
  const now = deps.clock.now();
  const code = newSecret(CODE_PREFIX);
  await deps.db
    .insertInto("oauth_codes")
    .values({
      id: prefixedId("code"),
      code_hash: code.hash,
      client_id: req.client.id,
      account_id: owner.accountId,
      user_id: owner.userId,
      redirect_uri: req.redirectUri,
      code_challenge: req.codeChallenge,
      resource: req.resource,
      scope: scopeString(granted),
      expires_at: secondsFrom(now, deps.lifetimes.codeTtlSeconds),
      used_at: null,
      grant_id: null,
      created_at: now,
    })
    .execute();
  // Old codes are useless after a minute; trimming here needs no background job.
  await deps.db.deleteFrom("oauth_codes").where("expires_at", "<", new Date(now.getTime() - 24 * 3600_000)).where("grant_id", "is", null).execute();
  deps.logger.info({ clientId: req.client.id, accountId: owner.accountId, scope: scopeString(granted) }, "oauth authorization code issued");
  return redirectWith(req.redirectUri, { code: code.secret, state: req.state, iss: deps.publicUrl });
}

export function denied(deps: OAuthDeps, req: AuthorizationRequest): string {
  return redirectWith(req.redirectUri, { error: "access_denied", error_description: "the owner did not allow access", state: req.state, iss: deps.publicUrl });
}
