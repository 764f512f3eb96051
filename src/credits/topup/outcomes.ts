/**
 * What a top-up attempt returns to a transport, as data: a credited receipt (SPEC 2.4) with the x402
 * SettleResponse, or "payment required" (SPEC 4.4 402 body + fresh PaymentRequired, and the failed
 * SettleResponse when a settlement failed). Transport failures are thrown ServiceErrors instead.
 */
import { getAddress } from "viem";
import { X402_VERSION, type PaymentRequired, type SettleResponse } from "../../x402";
import type { Claim } from "./claims";
import { paymentRequiredFor, type TopupSettings } from "./terms";
import { CREDITS_PER_USD, USD_MAX, USD_MIN, type Quote } from "./quote";

/** SPEC 2.4. */
export interface TopupReceipt {
  credited: number;
  usd: string;
  creditsRemaining?: number;
  txHash: string | null;
  payer: string;
  replayed: boolean;
}

export interface PaymentRequiredBody {
  error: string;
  message: string;
  x402Version: number;
  credits: number;
  usd: string;
  code?: string;
}

export type PurchaseOutcome =
  | { kind: "credited"; receipt: TopupReceipt; settlement: SettleResponse; claimId: string }
  | { kind: "payment_required"; body: PaymentRequiredBody; paymentRequired: PaymentRequired; settlement?: SettleResponse };

/** SPEC 4.4: the 402 variant for the legacy header. */
export const V1_NOT_SUPPORTED = "x402 v1 payments are not supported: use x402 v2 (send the payment in the PAYMENT-SIGNATURE header)";
/** SPEC 4.4: the 402 variant for a smart or EIP-7702-delegated payer whose signature was rejected. */
export const WALLET_UNSUPPORTED =
  "this wallet cannot complete the payment: it is a smart-contract or EIP-7702-delegated account whose signature USDC rejects; pay from a plain wallet (EOA)";

export function receiptOf(claim: Claim, opts: { replayed: boolean; balance?: number }): TopupReceipt {
  return {
    credited: claim.credits,
    usd: claim.usd,
    ...(opts.balance !== undefined ? { creditsRemaining: opts.balance } : {}),
    txHash: claim.txHash,
    payer: getAddress(claim.payer),
    replayed: opts.replayed,
  };
}

/** The SettleResponse of a credited claim (stored; rebuilt for rows credited without one). */
export function settlementOf(claim: Claim): SettleResponse {
  return claim.settleResponse ?? { success: true, transaction: claim.txHash ?? "", network: claim.network as SettleResponse["network"], payer: getAddress(claim.payer) };
}

const amountHelp = (s: TopupSettings) =>
  `Choose the amount with ?credits=N (${s.minCredits} to ${s.maxCredits}) or ?usd=N (whole dollars, ${USD_MIN} to ${USD_MAX}; ${CREDITS_PER_USD} credits per dollar).`;

export function paymentRequired(
  s: TopupSettings,
  quote: Quote,
  resourceUrl: string,
  o: { error?: string; message?: string; code?: string; settlement?: SettleResponse } = {},
): PurchaseOutcome {
  const error = o.error ?? "payment_required";
  const defaultNote = quote.basis === "default" ? ` No amount was given, so this is the minimum: ${quote.credits} credits ($${quote.usd}). ${amountHelp(s)}` : "";
  const message =
    o.message ??
    `Pay $${quote.usd} in USDC on Base for ${quote.credits} credits: sign the x402 v2 terms in the PAYMENT-REQUIRED header (scheme exact, EIP-3009) and repeat this request with a PAYMENT-SIGNATURE header.${defaultNote}`;
  return {
    kind: "payment_required",
    body: { error, message, x402Version: X402_VERSION, credits: quote.credits, usd: quote.usd, ...(o.code ? { code: o.code } : {}) },
    paymentRequired: paymentRequiredFor(s, quote, resourceUrl, o.code ?? error),
    ...(o.settlement ? { settlement: o.settlement } : {}),
  };
}

/** A failed payment: still `payment_required` (fresh terms attached), with the reason in `code`. */
export function paymentFailed(s: TopupSettings, quote: Quote, resourceUrl: string, code: string, detail: string, settlement?: SettleResponse): PurchaseOutcome {
  return paymentRequired(s, quote, resourceUrl, {
    code,
    message: `The payment was not accepted: ${detail}. Nothing was charged for it. Sign a new authorization for the terms in PAYMENT-REQUIRED and retry.`,
    settlement,
  });
}

/** Words for the facilitator's reasons (x402 exact-EVM codes). */
export function describeReason(reason: string | undefined, quote: Quote): string {
  switch (reason) {
    case "invalid_exact_evm_insufficient_balance":
      return `the paying wallet holds less than ${quote.usd} USDC`;
    case "invalid_exact_evm_payload_authorization_valid_before":
      return "the authorization has expired (validBefore has passed)";
    case "invalid_exact_evm_payload_authorization_valid_after":
      return "the authorization is not valid yet (validAfter is in the future)";
    case "invalid_exact_evm_signature":
      return "the signature does not verify for the payer";
    case "invalid_exact_evm_recipient_mismatch":
    case "invalid_exact_evm_payload_authorization_value_mismatch":
    case "invalid_exact_evm_network_mismatch":
      return "the authorization does not match the terms (recipient, amount or network)";
    case "invalid_exact_evm_nonce_already_used":
      return "the authorization was already used";
    case "invalid_exact_evm_token_name_mismatch":
    case "invalid_exact_evm_token_version_mismatch":
      return 'the authorization was signed for another token domain (expected "USD Coin", version "2")';
    case "invalid_exact_evm_transaction_failed":
      return "the settlement transaction failed on chain";
    default:
      return `the facilitator rejected it (${reason ?? "no reason given"})`;
  }
}
