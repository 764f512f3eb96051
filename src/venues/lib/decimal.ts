/**
 * Exact decimal arithmetic for notional and USD figures. Floats turn 97050 x 0.02 into 1941.0000000000002,
 * which would push an order sitting exactly at a cap over it; multiplying scaled bigints keeps the product
 * exact and converts to a number only at the end.
 */
import { formatUnits } from "../../lib/money";

export interface Dec {
  n: bigint; // value = n / 10^s
  s: number;
}

const DEC_RE = /^(-)?(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i;

export function dec(v: unknown): Dec | null {
  let text: string;
  if (typeof v === "number") {
    if (!Number.isFinite(v)) return null;
    text = String(v);
  } else if (typeof v === "string") {
    text = v.trim();
    if (text.length === 0 || text.length > 80) return null;
  } else if (typeof v === "bigint") {
    return { n: v, s: 0 };
  } else return null;
  const m = DEC_RE.exec(text);
  if (!m || (m[2] === "" && (m[3] ?? "") === "")) return null;
  const frac = m[3] ?? "";
  let n = BigInt((m[2] || "0") + frac);
  let s = frac.length;
  const exp = m[4] ? Number(m[4]) : 0;
  if (Math.abs(exp) > 400) return null;
  if (exp > 0) {
    if (exp >= s) {
      n *= 10n ** BigInt(exp - s);
      s = 0;
    } else s -= exp;
  } else s -= exp;
  if (m[1]) n = -n;
  return { n, s };
}

export const fromBase = (amount: bigint, decimals: number): Dec => ({ n: amount, s: decimals });

export const mul = (a: Dec, b: Dec): Dec => ({ n: a.n * b.n, s: a.s + b.s });

export function add(a: Dec, b: Dec): Dec {
  if (a.s === b.s) return { n: a.n + b.n, s: a.s };
  if (a.s > b.s) return { n: a.n + b.n * 10n ** BigInt(a.s - b.s), s: a.s };
  return { n: a.n * 10n ** BigInt(b.s - a.s) + b.n, s: b.s };
}

export const toStr = (d: Dec): string => formatUnits(d.n, d.s);

export const toNum = (d: Dec): number => Number(toStr(d));

/** Whole-unit string of a base-unit amount, e.g. (5000000n, 6) -> "5". */
export const wholeUnits = (amount: bigint, decimals: number): string => formatUnits(amount, decimals);

/** amount (whole units) x price, or null when either is missing. */
export function usdOf(amount: Dec | null, price: number | null): number | null {
  if (!amount || price === null) return null;
  const p = dec(price);
  return p ? toNum(mul(amount, p)) : null;
}

/** Ratio a/b as a number (for implied prices); null on zero or missing input. */
export function ratio(a: bigint | null, b: bigint | null, scaleDiff = 0): number | null {
  if (a === null || b === null || b === 0n) return null;
  const r = Number(a) / Number(b);
  return Number.isFinite(r) ? r * 10 ** scaleDiff : null;
}
