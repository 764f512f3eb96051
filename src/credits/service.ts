import type { Database } from "../db/client";
import type { Principal } from "../accounts/principal";
import { PRICE_USD_PER_CREDIT } from "../lib/money";
import { notFound, ServiceError } from "../lib/errors";
import { applyCreditChange, getBalance } from "./ledger";

export interface CreditsDeps {
  db: Database;
  /** Top-up terms for an account, or null while top-ups are not enabled on this deployment. */
  topupTerms?: (accountId: string) => Promise<Record<string, unknown> | null>;
}

export function createCreditsService(deps: CreditsDeps) {
  const { db } = deps;
  return {
    /** GET /api/v1/credits (SPEC 2.3). */
    async get(principal: Principal) {
      const balance = await getBalance(db, principal.accountId);
      if (balance === null) throw notFound();
      const topup = (await deps.topupTerms?.(principal.accountId)) ?? null;
      return { creditsRemaining: balance, priceUsdPerCredit: PRICE_USD_PER_CREDIT, ...(topup ? { topup } : {}) };
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
