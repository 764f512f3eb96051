/**
 * The amount of a top-up: `usd` (whole dollars) or `credits`, never both, else the default (the minimum).
 * Money stays in bigint atomic USDC units (6 decimals); the wire gets decimal strings.
 */
import { ServiceError } from "../../lib/errors";
import { USDC_UNITS_PER_CREDIT } from "../../lib/money";

/** SPEC 4.4 / 8: `usd` is a whole number of dollars from 1 to 2000, whatever the credit limits are. */
export const USD_MIN = 1;
export const USD_MAX = 2000;
/** 1 USD = 20 credits at 0.05 USD per credit. */
export const CREDITS_PER_USD = 20;

export interface CreditLimits {
  minCredits: number;
  maxCredits: number;
}

export interface Quote {
  credits: number;
  /** Atomic USDC units (6 decimals). */
  amountAtomic: bigint;
  /** Decimal string with two places, e.g. "1.00". */
  usd: string;
  /** How the amount was chosen. */
  basis: "credits" | "usd" | "default";
}

/** 1_000_000n -> "1.00" (USDC atomic units to dollars, two places; top-up amounts are whole cents). */
export function usdString(amountAtomic: bigint): string {
  const cents = amountAtomic / 10_000n;
  return `${cents / 100n}.${(cents % 100n).toString().padStart(2, "0")}`;
}

export function quoteForCredits(credits: number, basis: Quote["basis"] = "credits"): Quote {
  const amountAtomic = BigInt(credits) * USDC_UNITS_PER_CREDIT;
  return { credits, amountAtomic, usd: usdString(amountAtomic), basis };
}

const WHOLE = /^[0-9]{1,9}$/;

/**
 * Parses the `usd` / `credits` query parameters (strings as they arrive; undefined when absent).
 * Throws 400 ServiceErrors: `invalid_credits`, `invalid_usd`, or `invalid_amount` when both are sent.
 */
export function parseQuote(input: { usd?: string | null; credits?: string | null }, limits: CreditLimits): Quote {
  const usd = input.usd ?? undefined;
  const credits = input.credits ?? undefined;
  if (usd !== undefined && credits !== undefined) {
    throw new ServiceError("invalid_input", "invalid_amount", "send either usd or credits, not both");
  }
  if (credits !== undefined) {
    const n = WHOLE.test(credits.trim()) ? Number(credits.trim()) : NaN;
    if (!Number.isSafeInteger(n) || n < limits.minCredits || n > limits.maxCredits) {
      throw new ServiceError("invalid_input", "invalid_credits", `credits must be a whole number from ${limits.minCredits} to ${limits.maxCredits}`);
    }
    return quoteForCredits(n, "credits");
  }
  if (usd !== undefined) {
    const n = WHOLE.test(usd.trim()) ? Number(usd.trim()) : NaN;
    if (!Number.isSafeInteger(n) || n < USD_MIN || n > USD_MAX) {
      throw new ServiceError("invalid_input", "invalid_usd", `usd must be a whole number of US dollars from ${USD_MIN} to ${USD_MAX}`);
    }
    return quoteForCredits(n * CREDITS_PER_USD, "usd");
  }
  return quoteForCredits(limits.minCredits, "default");
}
