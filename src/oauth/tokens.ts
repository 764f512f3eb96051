/**
 * The token endpoint's grants and revocation (OAuth 2.1 4.1.3 and 4.3, RFC 7009, RFC 8707).
 *
 * - authorization_code: the code must be unexpired, unused, issued to this client for this redirect_uri,
 *   and the PKCE verifier must hash to its challenge. Redeeming creates a grant (the "connected client")
 *   and issues an access token and a refresh token. A code presented a second time is refused and revokes
 *   everything issued from it (the first redemption may have been an attacker's).
 * - refresh_token: rotating. The presented token is marked used and a new one is issued in the same grant.
 *   A used or revoked refresh token presented again means two parties hold it: the whole grant is revoked.
 *   The scope may be narrowed, never widened; the resource cannot change.
 * - Every check runs inside one transaction holding the code or refresh-token row lock, so two concurrent
 *   redemptions of one code (or one refresh token) cannot both succeed.
 * - Revocation (RFC 7009) of either token revokes its grant: access token, refresh tokens, connection.
 */
import type { Transaction } from "kysely";
import type { DB } from "../db/schema";
import { prefixedId } from "../lib/ids";
import type { Scope } from "../accounts/principal";
import { findClient } from "./clients";
import { invalidClient, invalidGrant, invalidRequest, OAuthError } from "./errors";
import { ACCESS_TOKEN_PREFIX, hashOf, newSecret, parseScope, pkceMatches, REFRESH_TOKEN_PREFIX, scopeString, secondsFrom, type OAuthDeps } from "./model";

export interface TokenResponse {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  refresh_token: string;
  scope: string;
}

type Tx = Transaction<DB>;

async function requireClient(deps: OAuthDeps, clientId: string | undefined) {
  if (!clientId) throw invalidClient("client_id is required (public clients authenticate by client_id and PKCE)");
  const client = await findClient(deps, clientId);
  if (!client) throw invalidClient("unknown client_id; register the client again");
  return client;
}

/** Access + refresh token for a grant, inside the caller's transaction. */
async function issuePair(deps: OAuthDeps, tx: Tx, g: { grantId: string; accountId: string; clientId: string; scope: string; resource: string }, now: Date): Promise<TokenResponse> {
  const access = newSecret(ACCESS_TOKEN_PREFIX);
  const refresh = newSecret(REFRESH_TOKEN_PREFIX);
  const { accessTtlSeconds, refreshTtlSeconds } = deps.lifetimes;
  await tx
    .insertInto("oauth_tokens")
    .values({
      id: prefixedId("tok"),
      account_id: g.accountId,
      token_hash: access.hash,
      scope: g.scope,
      client_id: g.clientId,
      grant_id: g.grantId,
      resource: g.resource,
      expires_at: secondsFrom(now, accessTtlSeconds),
      revoked_at: null,
      created_at: now,
    })
    .execute();
  await tx
    .insertInto("oauth_refresh_tokens")
    .values({ id: prefixedId("rtk"), grant_id: g.grantId, token_hash: refresh.hash, expires_at: secondsFrom(now, refreshTtlSeconds), used_at: null, revoked_at: null, created_at: now })
    .execute();
  return { access_token: access.secret, token_type: "Bearer", expires_in: accessTtlSeconds, refresh_token: refresh.secret, scope: g.scope };
}

/** Revokes a grant and every token issued under it (idempotent). */
export async function revokeGrantTx(tx: Tx, grantId: string, now: Date, reason: string): Promise<void> {
  await tx.updateTable("oauth_grants").set({ revoked_at: now, revoked_reason: reason }).where("id", "=", grantId).where("revoked_at", "is", null).execute();
  await tx.updateTable("oauth_tokens").set({ revoked_at: now }).where("grant_id", "=", grantId).where("revoked_at", "is", null).execute();
  await tx.updateTable("oauth_refresh_tokens").set({ revoked_at: now }).where("grant_id", "=", grantId).where("revoked_at", "is", null).execute();
}

export interface CodeGrantParams {
  code?: string;
  redirect_uri?: string;
  code_verifier?: string;
  client_id?: string;
  resource?: string;
}

export async function exchangeCode(deps: OAuthDeps, p: CodeGrantParams): Promise<TokenResponse> {
  const client = await requireClient(deps, p.client_id);
  if (!p.code) throw invalidRequest("code is required");
  if (!p.redirect_uri) throw invalidRequest("redirect_uri is required and must repeat the one sent to the authorization endpoint");
  if (!p.code_verifier) throw invalidRequest("code_verifier is required (PKCE)");
  const { db, clock, logger } = deps;
  // Failures that must leave a trace (a reused code revokes tokens) commit before the error is thrown.
  const outcome = await db.transaction().execute(async (tx): Promise<TokenResponse | OAuthError> => {
    const code = await tx.selectFrom("oauth_codes").selectAll().where("code_hash", "=", hashOf(p.code!)).forUpdate().executeTakeFirst();
    if (!code || code.client_id !== client.id) return invalidGrant("the authorization code is invalid, or was issued to another client");
    const now = clock.now();
    if (code.used_at) {
      if (code.grant_id) await revokeGrantTx(tx, code.grant_id, now, "authorization code reused");
      logger.warn({ clientId: client.id, grantId: code.grant_id }, "oauth: authorization code reused; tokens issued from it revoked");
      return invalidGrant("the authorization code was already used; every token issued from it has been revoked");
    }
    if (code.expires_at.getTime() <= now.getTime()) return invalidGrant("the authorization code expired (codes live 60 seconds); authorize again");
    if (code.redirect_uri !== p.redirect_uri) return invalidGrant("redirect_uri does not match the one the code was issued for");
    if (p.resource !== undefined && p.resource !== code.resource) return new OAuthError("invalid_target", `the code was issued for ${code.resource}`);
    if (!pkceMatches(p.code_verifier!, code.code_challenge)) return invalidGrant("PKCE verification failed: code_verifier does not match the code_challenge");
    const grantId = prefixedId("grant");
    await tx
      .insertInto("oauth_grants")
      .values({ id: grantId, client_id: client.id, account_id: code.account_id, user_id: code.user_id, scope: code.scope, resource: code.resource, created_at: now, refreshed_at: null, revoked_at: null, revoked_reason: null })
      .execute();
    await tx.updateTable("oauth_codes").set({ used_at: now, grant_id: grantId }).where("id", "=", code.id).execute();
    logger.info({ clientId: client.id, grantId, accountId: code.account_id, scope: code.scope }, "oauth: code redeemed; client connected");
    return issuePair(deps, tx, { grantId, accountId: code.account_id, clientId: client.id, scope: code.scope, resource: code.resource }, now);
  });
  if (outcome instanceof OAuthError) throw outcome;
  return outcome;
}

export interface RefreshGrantParams {
  refresh_token?: string;
  client_id?: string;
  scope?: string;
  resource?: string;
}

export async function refreshTokens(deps: OAuthDeps, p: RefreshGrantParams): Promise<TokenResponse> {
  const client = await requireClient(deps, p.client_id);
  if (!p.refresh_token) throw invalidRequest("refresh_token is required");
  const narrowed: Scope[] | null = p.scope !== undefined ? parseScope(p.scope) : null;
  const { db, clock, logger } = deps;
  const outcome = await db.transaction().execute(async (tx): Promise<TokenResponse | OAuthError> => {
    const rt = await tx.selectFrom("oauth_refresh_tokens").selectAll().where("token_hash", "=", hashOf(p.refresh_token!)).forUpdate().executeTakeFirst();
    if (!rt) return invalidGrant("the refresh token is invalid");
    const grant = await tx.selectFrom("oauth_grants").selectAll().where("id", "=", rt.grant_id).forUpdate().executeTakeFirstOrThrow();
    const now = clock.now();
    if (grant.client_id !== client.id) {
      await revokeGrantTx(tx, grant.id, now, "refresh token presented by another client");
      logger.warn({ grantId: grant.id, clientId: client.id }, "oauth: refresh token presented by another client; grant revoked");
      return invalidGrant("the refresh token was issued to another client; the connection has been revoked");
    }
    if (grant.revoked_at) return invalidGrant("this connection was revoked; authorize again");
    if (rt.used_at || rt.revoked_at) {
      await revokeGrantTx(tx, grant.id, now, "rotated refresh token reused");
      logger.warn({ grantId: grant.id, clientId: client.id }, "oauth: rotated refresh token reused; grant revoked");
      return invalidGrant("the refresh token was already used; the connection has been revoked, authorize again");
    }
    if (rt.expires_at.getTime() <= now.getTime()) return invalidGrant("the refresh token expired; authorize again");
    if (p.resource !== undefined && p.resource !== grant.resource) return new OAuthError("invalid_target", `this connection's tokens are for ${grant.resource}`);
    const granted = parseScope(grant.scope);
    if (narrowed && narrowed.some((s) => !granted.includes(s))) return new OAuthError("invalid_scope", "a refresh cannot widen the granted scope; authorize again to add wallet access");
    await tx.updateTable("oauth_refresh_tokens").set({ used_at: now }).where("id", "=", rt.id).execute();
    await tx.updateTable("oauth_grants").set({ refreshed_at: now }).where("id", "=", grant.id).execute();
    const scope = scopeString(narrowed ?? granted);
    return issuePair(deps, tx, { grantId: grant.id, accountId: grant.account_id, clientId: client.id, scope, resource: grant.resource }, now);
  });
  if (outcome instanceof OAuthError) throw outcome;
  return outcome;
}

/**
 * RFC 7009. Unknown tokens and tokens of other clients answer 200 as well (2.2: the client cannot act on
 * the difference, and the answer must not tell a guesser anything); only the owning client revokes.
 */
export async function revokeToken(deps: OAuthDeps, p: { token?: string; client_id?: string }): Promise<void> {
  const client = await requireClient(deps, p.client_id);
  if (!p.token) throw invalidRequest("token is required");
  const hash = hashOf(p.token);
  await deps.db.transaction().execute(async (tx) => {
    const access = await tx.selectFrom("oauth_tokens").select(["grant_id", "client_id"]).where("token_hash", "=", hash).executeTakeFirst();
    const refresh = access ? undefined : await tx.selectFrom("oauth_refresh_tokens").select("grant_id").where("token_hash", "=", hash).executeTakeFirst();
    const grantId = access?.grant_id ?? refresh?.grant_id ?? null;
    if (!grantId) return;
    const grant = await tx.selectFrom("oauth_grants").select(["id", "client_id"]).where("id", "=", grantId).forUpdate().executeTakeFirst();
    if (!grant || grant.client_id !== client.id) return;
    await revokeGrantTx(tx, grant.id, deps.clock.now(), "revoked by the client");
    deps.logger.info({ grantId: grant.id, clientId: client.id }, "oauth: connection revoked by the client");
  });
}
