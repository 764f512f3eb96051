/**
 * The purchase verb, shared by POST /api/v1/credits/topup and the MCP tool `topup_credits`:
 *
 *   no payment         -> payment required (fresh terms)
 *   payment attached   -> local checks (v2, EIP-3009, matches the terms) -> already claimed? (replay / 409)
 *                      -> claim (INSERT on the unique (payer, nonce) key) -> chain: already used? (recover)
 *                      -> facilitator verify -> settle -> check the receipt on chain -> credit, once
 *
 * The claim is taken before settlement, so an authorization is bound to one account before money moves;
 * a verify failure releases it (a corrected retry can succeed); a facilitator outage keeps it (the retry
 * with the same PAYMENT-SIGNATURE continues, and finds the settlement on chain if it happened).
 */
import { isPaymentPayloadV2 } from "@x402/core/schemas";
import { getAddress, type Address } from "viem";
import { ServiceError } from "../../lib/errors";
import { findMatchingRequirements, getEip3009Authorization, type PaymentPayload, type PaymentRequirements } from "../../x402";
import type { Claim, HeldClaim } from "./claims";
import type { TopupContext } from "./context";
import { creditClaim, replayOf } from "./credit";
import { describeReason, paymentFailed, paymentRequired, V1_NOT_SUPPORTED, WALLET_UNSUPPORTED, type PurchaseOutcome } from "./outcomes";
import type { Quote } from "./quote";
import { recoverFromChain } from "./recover";
import { requirementsFor } from "./terms";

export type PaymentInput =
  | { kind: "none" }
  /** The legacy `X-PAYMENT` header (x402 v1). */
  | { kind: "v1" }
  /** A PaymentPayload as received (decoded header or MCP `_meta`); null when it could not be decoded. */
  | { kind: "v2"; payload: unknown };

export interface PurchaseRequest {
  accountId: string;
  /** Show `creditsRemaining`: the caller authenticated as the account (API key, MCP credential). */
  withBalance: boolean;
  quote: Quote;
  /** The URL the payer retries (PaymentRequired.resource.url). */
  resourceUrl: string;
  payment: PaymentInput;
  source: "http" | "mcp";
}

/** Accepted lead time: the x402 client signs validBefore = now + maxTimeoutSeconds; allow clock skew. */
const CLOCK_SKEW_SECONDS = 120;

export const paymentClaimed = () =>
  new ServiceError("conflict", "payment_claimed", "this payment authorization was already submitted for a different account; sign a new one to pay for this account");

const claimBusy = () =>
  new ServiceError("upstream_failed", "facilitator_unavailable", "this authorization is being settled by another request; retry with the same PAYMENT-SIGNATURE", {
    headers: { "Retry-After": "2" },
  });

export async function purchase(ctx: TopupContext, req: PurchaseRequest): Promise<PurchaseOutcome> {
  const s = ctx.settings;
  const { quote, resourceUrl } = req;
  const failed = (code: string, detail: string) => paymentFailed(s, quote, resourceUrl, code, detail);

  if (req.payment.kind === "none") return paymentRequired(s, quote, resourceUrl);
  if (req.payment.kind === "v1") return paymentRequired(s, quote, resourceUrl, { error: V1_NOT_SUPPORTED, message: V1_NOT_SUPPORTED, code: "x402_v1_unsupported" });

  const raw = req.payment.payload;
  if (!isPaymentPayloadV2(raw)) return failed("invalid_payload", "the payment is not a base64-encoded x402 v2 PaymentPayload");
  const payload = raw as PaymentPayload;
  const auth = getEip3009Authorization(payload);
  if (!auth) return failed("unsupported_payload", "only EIP-3009 USDC authorizations (x402 scheme exact on Base) are accepted");
  const a = auth.authorization;

  // Known authorization: the original result for its account, 409 for any other.
  const known = await ctx.claims.find(a.from, a.nonce);
  if (known) {
    if (known.accountId !== req.accountId) throw paymentClaimed();
    if (known.status === "credited") return replayOf(ctx, known, req.withBalance);
  }

  const requirements = requirementsFor(s, quote);
  const mismatch = termsMismatch(payload, requirements, a);
  if (mismatch) return failed("terms_mismatch", `${mismatch}; the terms for ${quote.credits} credits are ${requirements.amount} atomic USDC (${quote.usd} USD) to ${requirements.payTo}`);
  const nowSec = Math.floor(ctx.clock.now().getTime() / 1000);
  if (Number(a.validBefore) > nowSec + s.maxTimeoutSeconds + CLOCK_SKEW_SECONDS) {
    return failed("authorization_window_too_long", `validBefore may be at most ${s.maxTimeoutSeconds} seconds ahead (maxTimeoutSeconds)`);
  }

  const held = await acquire(ctx, req, payload, requirements);
  if ("kind" in held) return held;
  return settleHeld(ctx, held, req, payload, requirements);
}

function termsMismatch(payload: PaymentPayload, r: PaymentRequirements, a: { to: Address; value: string }): string | null {
  if (!findMatchingRequirements(payload, [r])) {
    const acc = payload.accepted;
    if (acc.scheme !== r.scheme || acc.network !== r.network) return `the payment is for ${acc.scheme} on ${acc.network}, not exact on ${r.network}`;
    if (String(acc.amount) !== r.amount) return `the payment is for ${acc.amount} atomic USDC`;
    return "the payment names another asset or recipient";
  }
  if (getAddress(a.to) !== getAddress(r.payTo)) return `the authorization pays ${a.to}`;
  if (BigInt(a.value) !== BigInt(r.amount)) return `the authorization is for ${a.value} atomic USDC`;
  return null;
}

/**
 * Take the claim, or wait for the request that holds it: its outcome (credited -> replay; released ->
 * claim again) or its expired lease (take over).
 */
async function acquire(ctx: TopupContext, req: PurchaseRequest, payload: PaymentPayload, r: PaymentRequirements): Promise<HeldClaim | PurchaseOutcome> {
  const a = getEip3009Authorization(payload)!.authorization;
  const deadline = Date.now() + ctx.waitForClaimMs;
  for (;;) {
    const attempt = await ctx.claims.claim({
      accountId: req.accountId,
      payer: a.from,
      nonce: a.nonce,
      credits: req.quote.credits,
      usd: req.quote.usd,
      amountAtomic: req.quote.amountAtomic,
      network: r.network,
      asset: r.asset,
      payTo: r.payTo,
      payload,
      source: req.source,
    });
    if (attempt.won) return attempt.held;
    let other: Claim | null = attempt.existing;
    while (other) {
      if (other.accountId !== req.accountId) throw paymentClaimed();
      if (other.status === "credited") return replayOf(ctx, other, req.withBalance);
      if (!other.leaseUntil || other.leaseUntil.getTime() <= ctx.clock.now().getTime()) {
        const taken = await ctx.claims.takeOver(other.id);
        if (taken) return taken;
      }
      if (Date.now() >= deadline) throw claimBusy();
      await new Promise((res) => setTimeout(res, ctx.pollMs));
      other = await ctx.claims.get(other.id);
    }
    // Released by its holder (verification failed): try to claim it ourselves.
  }
}

async function settleHeld(ctx: TopupContext, held: HeldClaim, req: PurchaseRequest, payload: PaymentPayload, requirements: PaymentRequirements): Promise<PurchaseOutcome> {
  const s = ctx.settings;
  const { quote, resourceUrl } = req;
  const auth = getEip3009Authorization(payload)!;
  const a = auth.authorization;
  const asset = requirements.asset as Address;
  const opts = { withBalance: req.withBalance };
  const fromChain = async (): Promise<PurchaseOutcome> => {
    const r = await recoverFromChain(ctx, held, auth, opts);
    return r.kind === "credited" ? r.outcome : paymentFailed(s, quote, resourceUrl, r.code, r.detail);
  };

  try {
    // 1. Already settled (a crash after settlement, or a lost facilitator answer)?
    if (await ctx.evidence.isAuthorizationUsed(asset, a.from, a.nonce)) return await fromChain();

    // 2. Verify: amount, payTo, asset, network, time window, signature, payer balance.
    const verdict = await ctx.facilitator.verify(payload, requirements);
    if (!verdict.isValid) {
      if (verdict.invalidReason === "invalid_exact_evm_nonce_already_used") return await fromChain();
      await ctx.claims.release(held);
      if (verdict.invalidReason === "invalid_exact_evm_signature" && (await ctx.evidence.hasCode(a.from))) {
        return paymentRequired(s, quote, resourceUrl, { error: WALLET_UNSUPPORTED, message: WALLET_UNSUPPORTED, code: "wallet_unsupported" });
      }
      return paymentFailed(s, quote, resourceUrl, verdict.invalidReason ?? "invalid_payment", describeReason(verdict.invalidReason, quote));
    }

    // 3. Settle. From here on money may move: the claim is only released when the chain says it did not.
    await ctx.claims.markSettling(held);
    const settlement = await ctx.facilitator.settle(payload, requirements);
    if (settlement.success && settlement.transaction) {
      const evidence = await ctx.evidence.checkTransaction(settlement.transaction as `0x${string}`, {
        asset,
        authorizer: a.from,
        nonce: a.nonce,
        payTo: requirements.payTo as Address,
        value: BigInt(requirements.amount),
        notBefore: 0,
      });
      if (evidence.kind === "found") {
        return await creditClaim(ctx, held, { txHash: evidence.txHash, response: { ...settlement, payer: settlement.payer ?? a.from } }, opts);
      }
      ctx.logger.error({ claim: held.claim.id, settlement, evidence }, "facilitator reported a settlement the chain does not show");
      return await fromChain();
    }
    if (await ctx.evidence.isAuthorizationUsed(asset, a.from, a.nonce)) return await fromChain();
    await ctx.claims.release(held);
    return paymentFailed(s, quote, resourceUrl, settlement.errorReason ?? "settle_failed", `settlement failed: ${describeReason(settlement.errorReason, quote)}`, settlement);
  } catch (err) {
    // Facilitator or RPC outage (or a bug): keep the claim, hand it straight to the retry or the sweep.
    await ctx.claims.yieldLease(held).catch(() => {});
    throw err;
  }
}
