/**
 * The last step of every successful path (fresh settlement, crash recovery, sweep): flip the claim to
 * credited and add the credits in one transaction, then count them. A claim credited meanwhile by another
 * request is answered as a replay.
 */
import type { SettleResponse } from "../../x402";
import type { Claim, HeldClaim } from "./claims";
import type { TopupContext } from "./context";
import { receiptOf, settlementOf, type PurchaseOutcome } from "./outcomes";

export async function creditClaim(
  ctx: TopupContext,
  held: HeldClaim,
  settlement: { txHash: string; response: SettleResponse },
  opts: { withBalance: boolean },
): Promise<PurchaseOutcome> {
  const done = await ctx.claims.credit(held.claim.id, settlement);
  if (done) {
    ctx.metrics.creditsToppedUp.inc(done.claim.credits);
    ctx.logger.info({ claim: done.claim.id, account: done.claim.accountId, credits: done.claim.credits, txHash: settlement.txHash }, "top-up credited");
    return {
      kind: "credited",
      claimId: done.claim.id,
      receipt: receiptOf(done.claim, { replayed: false, balance: opts.withBalance ? done.balance : undefined }),
      settlement: settlementOf(done.claim),
    };
  }
  const now = await ctx.claims.get(held.claim.id);
  if (!now || now.status !== "credited") throw new Error(`claim ${held.claim.id} vanished while crediting`);
  return replayOf(ctx, now, opts.withBalance);
}

/** The original result of a credited claim, marked `replayed` (SPEC 4.4 step 3). */
export async function replayOf(ctx: TopupContext, claim: Claim, withBalance: boolean): Promise<PurchaseOutcome> {
  const balance = withBalance ? await ctx.balanceOf(claim.accountId) : undefined;
  return { kind: "credited", claimId: claim.id, receipt: receiptOf(claim, { replayed: true, balance }), settlement: settlementOf(claim) };
}
