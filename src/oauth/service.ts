/**
 * The OAuth 2.1 authorization server's verbs (docs/oauth.md), for the HTTP endpoints (routes.ts) and the
 * dashboard's consent and connected-clients pages. Access tokens live in `oauth_tokens` and are checked
 * by `accounts.authenticateOAuthToken` with the MCP resource, so MCP authentication stays one lookup.
 */
import { sql } from "kysely";
import { ServiceError } from "../lib/errors";
import type { Scope } from "../accounts/principal";
import { createThrottle } from "../rate-limits/throttle";
import { checkAuthorizationRequest, denied, issueCode, type AuthorizationRequest, type AuthorizeParams } from "./authorize";
import { registerClient } from "./clients";
import { authorizationServerMetadata } from "./metadata";
import { DEFAULT_LIFETIMES, type OAuthDeps, type OAuthLifetimes } from "./model";
import { exchangeCode, refreshTokens, revokeGrantTx, revokeToken, type CodeGrantParams, type RefreshGrantParams } from "./tokens";

export interface ConnectedClient {
  grantId: string;
  clientId: string;
  clientName: string;
  clientUri: string | null;
  redirectHost: string | null;
  scope: string;
  connectedAt: Date;
  refreshedAt: Date | null;
  revokedAt: Date | null;
  revokedReason: string | null;
  /** Latest access token expiry; the connection stays usable while a refresh token is valid. */
  accessExpiresAt: Date | null;
}

export function createOAuthService(o: Omit<OAuthDeps, "lifetimes"> & { lifetimes?: Partial<OAuthLifetimes> }) {
  const deps: OAuthDeps = { ...o, lifetimes: { ...DEFAULT_LIFETIMES, ...o.lifetimes } };
  const throttle = createThrottle({ db: deps.db, clock: deps.clock });
  return {
    lifetimes: deps.lifetimes,
    resource: deps.mcpResource,
    metadata: () => authorizationServerMetadata(deps.publicUrl),
    register: (body: unknown, ip: string) => registerClient(deps, throttle, body, ip),
    checkAuthorization: (p: AuthorizeParams, duplicated?: string[]) => checkAuthorizationRequest(deps, p, duplicated),
    /** The owner allowed `granted` (a subset of what was asked): the redirect back with a code. */
    approve: (req: AuthorizationRequest, granted: Scope[], owner: { accountId: string; userId: string }) => issueCode(deps, req, granted, owner),
    deny: (req: AuthorizationRequest) => denied(deps, req),
    exchangeCode: (p: CodeGrantParams) => exchangeCode(deps, p),
    refresh: (p: RefreshGrantParams) => refreshTokens(deps, p),
    revoke: (p: { token?: string; client_id?: string }) => revokeToken(deps, p),

    /** Every client the owner connected, live ones first (dashboard). */
    async listConnected(accountId: string): Promise<ConnectedClient[]> {
      const rows = await deps.db
        .selectFrom("oauth_grants as g")
        .innerJoin("oauth_clients as c", "c.id", "g.client_id")
        .select(["g.id", "g.client_id", "c.client_name", "c.client_uri", "c.redirect_uris", "g.scope", "g.created_at", "g.refreshed_at", "g.revoked_at", "g.revoked_reason"])
        .select((eb) => eb.selectFrom("oauth_tokens as t").whereRef("t.grant_id", "=", "g.id").where("t.revoked_at", "is", null).select(sql<Date | null>`max(t.expires_at)`.as("x")).as("access_expires_at"))
        .where("g.account_id", "=", accountId)
        .orderBy(sql`g.revoked_at is not null`)
        .orderBy("g.created_at", "desc")
        .limit(200)
        .execute();
      return rows.map((r) => {
        const uris = r.redirect_uris as unknown as string[];
        return {
          grantId: r.id,
          clientId: r.client_id,
          clientName: r.client_name,
          clientUri: r.client_uri,
          redirectHost: uris.length ? new URL(uris[0]).host : null,
          scope: r.scope,
          connectedAt: r.created_at,
          refreshedAt: r.refreshed_at,
          revokedAt: r.revoked_at,
          revokedReason: r.revoked_reason,
          accessExpiresAt: r.access_expires_at ? new Date(r.access_expires_at) : null,
        };
      });
    },

    /** The owner disconnects a client: its tokens stop working on the next request. */
    async revokeGrant(accountId: string, grantId: string): Promise<void> {
      await deps.db.transaction().execute(async (tx) => {
        const g = await tx.selectFrom("oauth_grants").select("id").where("id", "=", grantId).where("account_id", "=", accountId).forUpdate().executeTakeFirst();
        if (!g) throw new ServiceError("not_found", "not_found", "no such connected client on this account");
        await revokeGrantTx(tx, g.id, deps.clock.now(), "revoked by the owner in the dashboard");
      });
      deps.logger.info({ grantId, accountId }, "oauth: connection revoked by the owner");
    },
  };
}
export type OAuthService = ReturnType<typeof createOAuthService>;
