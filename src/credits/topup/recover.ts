/**
 * Recover-from-chain: the authorization is already used on chain (a settlement whose crediting was cut
 * short by a crash, a timeout, or a facilitator that answered too late). The chain, read over our own RPC,
 * decides: the transaction that used (payer, nonce) must also carry USDC Transfer(payer -> payTo, value);
 * then the claim's account is credited, once. Also the periodic sweep over claims nobody holds any more.
 */
import type { Address, Hex } from "viem";
import { FacilitatorUnavailableError, getEip3009Authorization, type Eip3009Authorization, type PaymentPayload } from "../../x402";
import { USDC_EIP712_NAME, USDC_EIP712_VERSION } from "../../sandbox/addresses";
import type { HeldClaim } from "./claims";
import type { TopupContext } from "./context";
import { creditClaim } from "./credit";
import type { PurchaseOutcome } from "./outcomes";

export type RecoveryResult = { kind: "credited"; outcome: PurchaseOutcome } | { kind: "refused"; code: string; detail: string };

/** How far before the earliest possible signing time the log search looks (clock skew, slow clients). */
const SEARCH_MARGIN_SECONDS = 3600;

export async function recoverFromChain(
  ctx: TopupContext,
  held: HeldClaim,
  auth: { authorization: Eip3009Authorization; signature: Hex },
  opts: { withBalance: boolean },
): Promise<RecoveryResult> {
  const c = held.claim;
  const a = auth.authorization;
  const notBefore = c.settleStartedAt
    ? Math.floor(c.settleStartedAt.getTime() / 1000) - 600
    : Number(a.validBefore) - ctx.settings.maxTimeoutSeconds - SEARCH_MARGIN_SECONDS;
  const evidence = await ctx.evidence.findSettlement({
    asset: c.asset as Address,
    authorizer: a.from,
    nonce: a.nonce,
    payTo: c.payTo as Address,
    value: c.amountAtomic,
    notBefore,
  });

  if (evidence.kind === "found") {
    // A claim we never started settling: someone settled it. Credit only our facilitator's own settlements
    // (a crash lost our record of it); an authorization settled elsewhere is the payer's own transfer.
    if (!c.settleStartedAt) {
      const signers = await ctx.facilitatorSigners();
      if (!signers.has(evidence.sender.toLowerCase())) {
        await ctx.claims.release(held);
        return { kind: "refused", code: "settled_elsewhere", detail: `this authorization was already settled on chain by ${evidence.sender}, not by Arbiter's facilitator, so it cannot buy credits` };
      }
      const chainId = Number(ctx.settings.network.split(":")[1]);
      const domain = { name: USDC_EIP712_NAME, version: USDC_EIP712_VERSION, chainId, verifyingContract: c.asset as Address };
      if (!(await ctx.evidence.signatureValid(domain, a, auth.signature))) {
        await ctx.claims.release(held);
        return { kind: "refused", code: "invalid_exact_evm_signature", detail: "the signature does not verify for the payer" };
      }
    }
    const response = { success: true, transaction: evidence.txHash, network: c.network as `${string}:${string}`, payer: a.from };
    ctx.logger.warn({ claim: c.id, txHash: evidence.txHash }, "top-up recovered from on-chain settlement");
    return { kind: "credited", outcome: await creditClaim(ctx, held, { txHash: evidence.txHash, response }, opts) };
  }

  if (evidence.kind === "mismatch") {
    await ctx.claims.release(held);
    return {
      kind: "refused",
      code: "authorization_used",
      detail: `this authorization was used on chain (transaction ${evidence.txHash}) without paying ${c.usd} USDC to ${c.payTo}`,
    };
  }

  const nowSec = Math.floor(ctx.clock.now().getTime() / 1000);
  if (c.settleStartedAt && nowSec < Number(a.validBefore) + SEARCH_MARGIN_SECONDS) {
    // We asked for this settlement and the authorization is spent: the transaction is ours but not visible
    // to our RPC yet. Keep the claim; the retry (or the sweep) finds it.
    await ctx.claims.yieldLease(held);
    throw new FacilitatorUnavailableError("settle", "the settlement is not visible on chain yet; retry with the same PAYMENT-SIGNATURE", {});
  }
  await ctx.claims.release(held);
  return { kind: "refused", code: "authorization_used", detail: "this authorization was already used or canceled on chain" };
}

/**
 * The sweep: pending claims whose lease expired (their request died). Used on chain -> recover and credit.
 * Not used and expired -> release (it can never settle). Otherwise leave it for the payer's retry.
 */
export async function sweepStaleClaims(ctx: TopupContext, limit = 25): Promise<{ credited: number; released: number }> {
  let credited = 0;
  let released = 0;
  for (const stale of await ctx.claims.stale(limit)) {
    const held = await ctx.claims.takeOver(stale.id);
    if (!held) continue;
    try {
      const auth = getEip3009Authorization(held.claim.payload as PaymentPayload);
      if (!auth) {
        await ctx.claims.release(held);
        released++;
        continue;
      }
      const used = await ctx.evidence.isAuthorizationUsed(held.claim.asset as Address, auth.authorization.from, auth.authorization.nonce);
      if (used) {
        const r = await recoverFromChain(ctx, held, auth, { withBalance: false });
        if (r.kind === "credited") credited++;
        else released++;
        continue;
      }
      const nowSec = Math.floor(ctx.clock.now().getTime() / 1000);
      if (Number(auth.authorization.validBefore) < nowSec - 60) {
        await ctx.claims.release(held);
        released++;
      } else {
        await ctx.claims.yieldLease(held);
      }
    } catch (err) {
      ctx.logger.warn({ err, claim: held.claim.id }, "top-up sweep: claim left for later");
      await ctx.claims.yieldLease(held).catch(() => {});
    }
  }
  return { credited, released };
}
