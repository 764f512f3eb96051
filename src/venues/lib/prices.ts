/**
 * USD prices come only from the caller's context (never guessed), except for the dollar stablecoins,
 * which are priced at $1 unless the context says otherwise. A 1:1 wrapper (WETH, wSOL) borrows its
 * underlying's price because it is redeemable at par by anyone.
 */
import { isRecord, lookupCI, num } from "./util";

const PRICE_TABLES = ["prices", "mids", "allMids", "marks", "markPrices", "oraclePrices", "price_usd", "usdPrices"];
const STABLES = new Set(["USDC", "USDT", "DAI", "USDC.E", "USDBC", "USDT0", "USD"]);
const PAR_WRAPPERS: Record<string, string> = { WETH: "ETH", WSOL: "SOL", WHYPE: "HYPE", WPOL: "POL", WMATIC: "MATIC", WBNB: "BNB", WAVAX: "AVAX" };

function fromEntry(v: unknown): number | null {
  const n = num(v);
  if (n !== null) return n > 0 ? n : null;
  if (isRecord(v)) {
    for (const k of ["usd", "price", "mid", "mark", "markPx", "midPx", "oraclePx", "value"]) {
      const m = num(v[k]);
      if (m !== null && m > 0) return m;
    }
  }
  return null;
}

/** Canonical symbol for price and allowlist comparisons: upper-case, annotation stripped ("USDC (Base)" -> "USDC"). */
export function canonSymbol(symbol: string): string {
  const m = /^[^\s(]+/.exec(symbol.trim());
  return (m ? m[0] : symbol.trim()).toUpperCase();
}

/** Prices older than this, against the context's own clock, are not a fact about now. */
const STALE_MS = 60 * 60 * 1000;

/** False when the context dates its prices (prices_as_of) and its clock (now) and they are over an hour apart. */
export function pricesFresh(ctx: Record<string, unknown>): boolean {
  const asOf = ctx.prices_as_of ?? ctx.pricesAsOf ?? ctx.as_of;
  const now = ctx.now;
  if (typeof asOf !== "string" || typeof now !== "string") return true;
  const a = Date.parse(asOf);
  const n = Date.parse(now);
  return !Number.isFinite(a) || !Number.isFinite(n) || n - a <= STALE_MS;
}

/** A stale table prices nothing: a dollar figure computed from it would be a guess about now. */
export function contextPrice(symbol: string, ctx: unknown): number | null {
  if (!isRecord(ctx) || !pricesFresh(ctx)) return null;
  for (const table of PRICE_TABLES) {
    const t = ctx[table];
    if (!isRecord(t)) continue;
    const p = fromEntry(lookupCI(t, symbol));
    if (p !== null) return p;
  }
  return null;
}

export function priceOf(symbol: string | null | undefined, ctx: unknown): number | null {
  if (!symbol) return null;
  const s = canonSymbol(symbol);
  const direct = contextPrice(s, ctx) ?? (s !== symbol ? contextPrice(symbol, ctx) : null);
  if (direct !== null) return direct;
  const under = PAR_WRAPPERS[s];
  if (under) {
    const p = contextPrice(under, ctx);
    if (p !== null) return p;
  }
  if (s === "ETH") {
    const p = contextPrice("WETH", ctx);
    if (p !== null) return p;
  }
  if (STABLES.has(s)) return 1;
  return null;
}

export const isStable = (symbol: string): boolean => STABLES.has(canonSymbol(symbol));
