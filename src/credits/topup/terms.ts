/**
 * The terms of a top-up: what the deployment accepts (settings), the x402 v2 `accepts` entry for a quote,
 * the PaymentRequired document, and the SPEC 2.3 `topup` object shown on GET /api/v1/credits and on
 * out_of_credits.
 */
import type { Address } from "viem";
import { buildPaymentRequired, buildUsdcPaymentRequirements, X402_VERSION, type Network, type PaymentRequired, type PaymentRequirements } from "../../x402";
import { USDC_EIP712_NAME, USDC_EIP712_VERSION } from "../../sandbox/addresses";
import { CREDITS_PER_USD, USD_MAX, USD_MIN, type CreditLimits, type Quote } from "./quote";

export const TOPUP_PATH = "/api/v1/credits/topup";
export const TOPUP_GUIDE_PATH = "/api/v1/credits/topup/guide";

export interface TopupSettings extends CreditLimits {
  publicUrl: string;
  network: Network;
  /** USDC contract (EIP-3009). */
  asset: Address;
  payTo: Address;
  /** How long a signed authorization may stay valid (x402 `maxTimeoutSeconds`). */
  maxTimeoutSeconds: number;
  /** True on the sandbox chain (the guide says how to get test USDC). */
  sandbox: boolean;
}

export const topupUrl = (s: TopupSettings, q: Record<string, string | number>): string => {
  const qs = new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)])).toString();
  return `${s.publicUrl}${TOPUP_PATH}${qs ? `?${qs}` : ""}`;
};
export const guideUrl = (s: TopupSettings): string => `${s.publicUrl}${TOPUP_GUIDE_PATH}`;

/** The one `accepts` entry for a quote: exact USDC on Base to payTo. */
export function requirementsFor(s: TopupSettings, quote: Quote): PaymentRequirements {
  return buildUsdcPaymentRequirements({
    amount: quote.amountAtomic,
    payTo: s.payTo,
    asset: s.asset,
    network: s.network,
    maxTimeoutSeconds: s.maxTimeoutSeconds,
    eip712: { name: USDC_EIP712_NAME, version: USDC_EIP712_VERSION },
  });
}

/** The PAYMENT-REQUIRED document for a quote. `resourceUrl` is the URL the payer retries. */
export function paymentRequiredFor(s: TopupSettings, quote: Quote, resourceUrl: string, error?: string): PaymentRequired {
  return buildPaymentRequired({
    accepts: [requirementsFor(s, quote)],
    resource: { url: resourceUrl, description: `${quote.credits} Arbiter credits ($${quote.usd} USDC)`, mimeType: "application/json" },
    error,
  });
}

/** SPEC 2.3 `topup`, for one account (its public top-up code). */
export function accountTerms(s: TopupSettings, accountCode: string): Record<string, unknown> {
  return {
    available: true,
    protocol: "x402",
    x402Version: X402_VERSION,
    method: "POST",
    url: topupUrl(s, { credits: s.minCredits }),
    accountCode,
    network: s.network,
    asset: s.asset,
    payTo: s.payTo,
    minCredits: s.minCredits,
    maxCredits: s.maxCredits,
    guideUrl: guideUrl(s),
    note:
      `One credit costs 0.05 USD, paid in USDC on Base over x402 v2 (scheme exact, EIP-3009). POST the url with ?credits=N ` +
      `(${s.minCredits} to ${s.maxCredits}) or ?usd=N (whole dollars, ${USD_MIN} to ${USD_MAX}; ${CREDITS_PER_USD} credits per dollar) and an API key, ` +
      `or add &account=${accountCode} to pay without a key; answer the 402 with a PAYMENT-SIGNATURE header. ` +
      `A plain USDC transfer to payTo credits nothing. Guide: ${guideUrl(s)}`,
  };
}
