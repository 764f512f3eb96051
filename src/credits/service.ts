import type { Database } from "../db/client";
import type { Principal } from "../accounts/principal";
import { PRICE_USD_PER_CREDIT } from "../lib/money";
import { notFound, ServiceError } from "../lib/errors";
import { applyCreditChange, getBalance } from "./ledger";
import { offlineChangeFeed, type ChangeFeed } from "../db/change-feed";
import { InvalidatingCache } from "../lib/invalidating-cache";

export interface CreditsDeps {
  db: Database;
  /** Top-up terms for an account's public top-up code, or null while top-ups are not enabled here. */
  topupTermsForCode?: (topupCode: string) => Record<string, unknown> | null;
  /** Committed-change notifications; without them every read goes to the database. */
  changes?: ChangeFeed;
}

export function createCreditsService(deps: CreditsDeps) {
  const { db } = deps;
  // account id -> balance and top-up code. Every balance change goes through src/credits/ledger.ts, which
  // announces it before it writes; the commit's notification (migration 007) clears the announcement
  // (src/lib/invalidating-cache.ts states the invariants). A read therefore never returns a balance older
  // than a change this process committed, nor one older than the notification latency for other processes.
  const accounts = new InvalidatingCache<{ credits_remaining: number; topup_code: string }>(deps.changes ?? offlineChangeFeed(), "balance");
  return {
    /** How balance reads were answered (metrics: arbiter_cache_reads_total{cache="balance"}). */
    cacheReads: accounts.reads,
    /** GET /api/v1/credits (SPEC 2.3). */
    async get(principal: Principal) {
      const row = await accounts.get(principal.accountId, () =>
        db.selectFrom("accounts").select(["credits_remaining", "topup_code"]).where("id", "=", principal.accountId).executeTakeFirst(),
      );
      if (!row) throw notFound();
      const topup = deps.topupTermsForCode?.(row.topup_code) ?? null;
      return { creditsRemaining: row.credits_remaining, priceUsdPerCredit: PRICE_USD_PER_CREDIT, ...(topup ? { topup } : {}) };
    },

    /** Operator grant or correction: a ledger entry like every other change. */
    async adjust(accountId: string, credits: number, reason: string) {
      const bal = await applyCreditChange(db, { accountId, delta: credits, reason: `admin:${reason}`, ref: null });
      if (bal === null) {
        const exists = await getBalance(db, accountId);
        if (exists === null) throw notFound("not_found", "no such account");
        throw new ServiceError("conflict", "insufficient_credits", `the account has ${exists} credits; cannot remove ${-credits}`);
      }
      return { creditsRemaining: bal };
    },

    async ledger(principal: Principal, limit = 100) {
      return db
        .selectFrom("credit_entries")
        .select(["id", "delta", "balance_after", "reason", "ref", "created_at"])
        .where("account_id", "=", principal.accountId)
        .orderBy("id", "desc")
        .limit(limit)
        .execute();
    },
  };
}
export type CreditsService = ReturnType<typeof createCreditsService>;
