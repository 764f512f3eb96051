import type { Database } from "../db/client";
import { notFound, ServiceError } from "../lib/errors";
import { prefixedId, secretToken } from "../lib/ids";
import type { Clock } from "../lib/clock";
import { applyCreditChange } from "../credits/ledger";
import { generateApiKey, hashSecret } from "./api-keys";
import { ALL_SCOPES, type Principal, type Scope } from "./principal";
import { announceCommitted, offlineChangeFeed, type ChangeFeed } from "../db/change-feed";
import { InvalidatingCache } from "../lib/invalidating-cache";

export interface AccountsDeps {
  db: Database;
  clock: Clock;
  /** Committed-change notifications; without them API keys are read from the database on every request. */
  changes?: ChangeFeed;
}

interface KeyRow {
  id: string;
  account_id: string;
  revoked_at: Date | null;
  last_used_at: Date | null;
}

export const TOPUP_CODE_PREFIX = "svc_topup_";

export function createAccountsService({ db, clock, changes }: AccountsDeps) {
  // key hash -> its row, revoked ones included (so a revoked key costs no query either). Revocation stays
  // immediate: revokeKey drops the entry when its UPDATE returns, and every other process drops it on the
  // commit notification (migration 007); see docs/performance.md.
  const keys = new InvalidatingCache<KeyRow>(changes ?? offlineChangeFeed(), "api_key");
  return {
    /** How API-key reads were answered (metrics: arbiter_cache_reads_total{cache="api_key"}). */
    cacheReads: keys.reads,
    /** Creates an account with its first API key and, optionally, opening credits (a ledger entry). */
    async createAccount(input: { name: string; credits?: number }) {
      const accountId = prefixedId("acct");
      const topupCode = `${TOPUP_CODE_PREFIX}${secretToken(96)}`;
      const key = generateApiKey();
      const keyId = prefixedId("key");
      const credits = input.credits ?? 0;
      await db.transaction().execute(async (tx) => {
        await tx.insertInto("accounts").values({ id: accountId, name: input.name, credits_remaining: 0, topup_code: topupCode }).execute();
        await tx.insertInto("api_keys").values({ id: keyId, account_id: accountId, key_hash: key.hash, prefix: key.prefix, last_used_at: null, revoked_at: null }).execute();
        if (credits > 0) await applyCreditChange(tx, { accountId, delta: credits, reason: "grant:opening", ref: null });
      });
      return { accountId, apiKey: key.apiKey, keyId, topupCode, creditsRemaining: credits };
    },

    /**
     * An account with no API key and no credits, inside the caller's transaction (dashboard sign-up creates
     * the account and its owner together; keys are then created in the dashboard).
     */
    async openAccount(tx: Database, input: { name: string }) {
      const accountId = prefixedId("acct");
      const topupCode = `${TOPUP_CODE_PREFIX}${secretToken(96)}`;
      await tx.insertInto("accounts").values({ id: accountId, name: input.name, credits_remaining: 0, topup_code: topupCode }).execute();
      return { accountId, topupCode };
    },

    async createKey(accountId: string) {
      const account = await db.selectFrom("accounts").select("id").where("id", "=", accountId).executeTakeFirst();
      if (!account) throw notFound("not_found", "no such account");
      const key = generateApiKey();
      const keyId = prefixedId("key");
      await db.insertInto("api_keys").values({ id: keyId, account_id: accountId, key_hash: key.hash, prefix: key.prefix, last_used_at: null, revoked_at: null }).execute();
      return { keyId, apiKey: key.apiKey, prefix: key.prefix };
    },

    /** Revocation is immediate: the next request with the key is refused, in this process and in others. */
    async revokeKey(keyId: string, accountId?: string) {
      let q = db.updateTable("api_keys").set({ revoked_at: clock.now() }).where("id", "=", keyId).where("revoked_at", "is", null);
      if (accountId) q = q.where("account_id", "=", accountId);
      const revoked = await q.returning("key_hash").execute();
      for (const r of revoked) announceCommitted("api_key", r.key_hash);
      if (revoked.length === 0) {
        let existing = db.selectFrom("api_keys").select("id").where("id", "=", keyId);
        if (accountId) existing = existing.where("account_id", "=", accountId);
        if (!(await existing.executeTakeFirst())) throw notFound("not_found", "no such key");
      }
    },

    async listKeys(accountId: string) {
      return db
        .selectFrom("api_keys")
        .select(["id", "prefix", "created_at", "last_used_at", "revoked_at"])
        .where("account_id", "=", accountId)
        .orderBy("created_at", "desc")
        .execute();
    },

    async authenticateApiKey(apiKey: string): Promise<Principal | null> {
      const hash = hashSecret(apiKey);
      const row = await keys.get(hash, () => db.selectFrom("api_keys").select(["id", "account_id", "revoked_at", "last_used_at"]).where("key_hash", "=", hash).executeTakeFirst());
      if (!row || row.revoked_at) return null;
      const now = clock.now();
      // last_used_at is informational; write it at most once a minute to keep reads cheap.
      if (!row.last_used_at || now.getTime() - new Date(row.last_used_at).getTime() > 60_000) {
        keys.touch(hash, (r) => ({ ...r, last_used_at: now }));
        await db.updateTable("api_keys").set({ last_used_at: now }).where("id", "=", row.id).execute();
      }
      return { accountId: row.account_id, authMethod: "api_key", scopes: ALL_SCOPES, credentialId: row.id };
    },

    async issueOAuthToken(accountId: string, scope: Scope[], ttlSeconds: number, clientId: string | null = null) {
      const account = await db.selectFrom("accounts").select("id").where("id", "=", accountId).executeTakeFirst();
      if (!account) throw notFound("not_found", "no such account");
      const accessToken = `svc_at_${secretToken(256)}`;
      const id = prefixedId("tok");
      await db
        .insertInto("oauth_tokens")
        .values({ id, account_id: accountId, token_hash: hashSecret(accessToken), scope: scope.join(" "), client_id: clientId, expires_at: new Date(clock.now().getTime() + ttlSeconds * 1000), revoked_at: null })
        .execute();
      return { accessToken, tokenId: id, expiresIn: ttlSeconds, scope: scope.join(" ") };
    },

    /**
     * `resource` (RFC 8707): the resource being accessed. A token the authorization server bound to another
     * resource is refused there; operator-issued tokens (admin API) carry no resource and pass.
     */
    async authenticateOAuthToken(token: string, opts: { resource?: string } = {}): Promise<Principal | null> {
      const row = await db
        .selectFrom("oauth_tokens")
        .select(["id", "account_id", "scope", "expires_at", "revoked_at", "resource"])
        .where("token_hash", "=", hashSecret(token))
        .executeTakeFirst();
      if (!row || row.revoked_at || new Date(row.expires_at).getTime() <= clock.now().getTime()) return null;
      if (opts.resource !== undefined && row.resource !== null && row.resource !== opts.resource) return null;
      const scopes = new Set(row.scope.split(" ").filter((s): s is Scope => s === "mcp" || s === "wallet"));
      return { accountId: row.account_id, authMethod: "oauth", scopes, credentialId: row.id };
    },

    async revokeOAuthToken(tokenId: string) {
      await db.updateTable("oauth_tokens").set({ revoked_at: clock.now() }).where("id", "=", tokenId).execute();
    },

    async findByTopupCode(code: string) {
      return db.selectFrom("accounts").select(["id", "name"]).where("topup_code", "=", code).executeTakeFirst();
    },

    async get(accountId: string) {
      const row = await db.selectFrom("accounts").selectAll().where("id", "=", accountId).executeTakeFirst();
      if (!row) throw new ServiceError("not_found", "not_found", "no such account");
      return row;
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
