/**
 * Money helpers. Amounts are bigint base units in code and decimal strings on the wire; USD figures are
 * plain numbers only at the edges (limits, prices, reports).
 */
export const PRICE_USD_PER_CREDIT = 0.05;
/** USDC has 6 decimals: one credit costs 50_000 base units. */
export const USDC_UNITS_PER_CREDIT = 50_000n;

const DECIMAL_RE = /^(?:0|[1-9]\d*)(?:\.\d+)?$/;

/** Parse a plain positive-or-zero decimal string (no sign, no exponent) into base units; throws on excess precision. */
export function parseUnitsStrict(value: string, decimals: number): bigint {
  if (!DECIMAL_RE.test(value)) throw new RangeError(`not a plain decimal number: ${value}`);
  const [whole, frac = ""] = value.split(".");
  if (frac.length > decimals) throw new RangeError(`more than ${decimals} decimal places: ${value}`);
  return BigInt(whole) * 10n ** BigInt(decimals) + BigInt(frac.padEnd(decimals, "0") || "0");
}

export function formatUnits(amount: bigint, decimals: number): string {
  const neg = amount < 0n;
  const abs = neg ? -amount : amount;
  const base = 10n ** BigInt(decimals);
  const whole = abs / base;
  const frac = (abs % base).toString().padStart(decimals, "0").replace(/0+$/, "");
  return `${neg ? "-" : ""}${whole}${frac ? `.${frac}` : ""}`;
}

export const isPlainDecimal = (s: string): boolean => DECIMAL_RE.test(s);

/** Credits -> USD string with two decimals, e.g. 20 -> "1.00". */
export const creditsToUsd = (credits: number): string => (Math.round(credits * PRICE_USD_PER_CREDIT * 100) / 100).toFixed(2);
export const creditsToUsdcUnits = (credits: number): bigint => BigInt(credits) * USDC_UNITS_PER_CREDIT;
