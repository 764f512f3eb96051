/**
 * Reading the caller's CONTEXT: prices, counters (spent today, staked), address lists named by the rules
 * ("context.suppliers"), address-book aliases (a wallet's token accounts) and current leverage. Context is
 * caller-supplied data, not authority: it can supply facts (a price, a counter), never permission.
 */
import { USD_STABLES } from "./vocab";
import { pricesFresh } from "../../venues/lib/prices";

type Ctx = Record<string, unknown> | null;

/** A plain object (not an array): a map the context keeps by key. */
export const isRec = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export function num(v: unknown): number | null {
  if (typeof v === "number" && Number.isFinite(v)) return v;
  if (typeof v === "string" && /^-?\d+(?:\.\d+)?(?:e[+-]?\d+)?$/i.test(v.trim())) return Number(v);
  return null;
}

/** Canonical comparison form of an address: hex lower-cased without leading zeros; base58 as is. */
export function normAddr(a: string): string {
  const t = a.trim();
  if (/^0x[0-9a-fA-F]+$/.test(t)) return "0x" + t.slice(2).toLowerCase().replace(/^0+(?=.)/, "");
  return t;
}

export const looksLikeAddress = (s: string): boolean => /^0x[0-9a-fA-F]{6,64}$/.test(s) || /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(s);

/** Canonical token symbol: "USDC (Base)" -> "USDC". */
export function canonSym(s: string | null | undefined): string | null {
  if (!s) return null;
  const m = /^[^\s(]+/.exec(s.trim());
  return (m ? m[0] : s.trim()).toUpperCase();
}

function lookupCI(t: Record<string, unknown>, key: string): unknown {
  if (key in t) return t[key];
  const k = key.toLowerCase();
  for (const [kk, v] of Object.entries(t)) if (kk.toLowerCase() === k) return v;
  return undefined;
}

const PRICE_TABLES = ["prices", "mids", "allMids", "marks", "markPrices", "oraclePrices", "price_usd", "usdPrices", "prices_usd"];
const PAR: Record<string, string> = { WETH: "ETH", WSOL: "SOL", WHYPE: "HYPE", WBTC: "BTC", CBBTC: "BTC" };

function entryPrice(v: unknown): number | null {
  const n = num(v);
  if (n !== null) return n > 0 ? n : null;
  if (isRec(v)) for (const k of ["usd", "price", "mid", "mark", "markPx", "midPx", "oraclePx"]) {
    const m = num(v[k]);
    if (m !== null && m > 0) return m;
  }
  return null;
}

/** USD price of a symbol from context; dollar stablecoins are $1 when the context does not say. */
export function priceOf(symbol: string | null, ctx: Ctx): number | null {
  const s = canonSym(symbol);
  if (!s) return null;
  if (isRec(ctx) && !pricesFresh(ctx)) return USD_STABLES.has(s) ? 1 : null;
  if (isRec(ctx)) {
    for (const table of PRICE_TABLES) {
      const t = ctx[table];
      if (!isRec(t)) continue;
      const p = entryPrice(lookupCI(t, s)) ?? (PAR[s] ? entryPrice(lookupCI(t, PAR[s])) : null);
      if (p !== null) return p;
    }
  }
  return USD_STABLES.has(s) ? 1 : null;
}

/** Value at a dotted context path ("context.suppliers" or "suppliers"). */
export function atPath(ctx: Ctx, path: string): unknown {
  let cur: unknown = ctx;
  for (const part of path.replace(/^context\./, "").split(".")) {
    if (!isRec(cur)) return undefined;
    cur = lookupCI(cur, part);
  }
  return cur;
}

/**
 * The one context figure a rule names in words ("40% of the collateral value"): a path written "~collateral" is the
 * only number in the context whose key holds that word, in dollars when the key says a unit. Two candidates, or
 * none, and it is not guessed (null: the limit cannot be computed).
 */
export function describedPath(ctx: Ctx, path: string): string | null {
  if (!path.startsWith("~")) return path;
  const word = path.slice(1).toLowerCase();
  const found: string[] = [];
  const walk = (v: unknown, at: string, depth: number): void => {
    if (!isRec(v) || depth > 3) return;
    for (const [k, x] of Object.entries(v)) {
      const here = `${at}.${k}`;
      if (num(x) !== null && k.toLowerCase().includes(word) && (!/_(?:eth|btc|sol|[a-z]{3,5})$/i.test(k) || /_usdc?$|_value$/i.test(k))) found.push(here);
      else walk(x, here, depth + 1);
    }
  };
  walk(ctx, "context", 0);
  return found.length === 1 ? found[0] : null;
}

/** Every address-like string in a value: object keys, array items, nested values. */
export function addressesIn(v: unknown, depth = 0): string[] {
  if (depth > 3) return [];
  if (typeof v === "string") return looksLikeAddress(v.trim()) ? [v.trim()] : [];
  if (Array.isArray(v)) return v.flatMap((x) => addressesIn(x, depth + 1));
  if (isRec(v)) return [...Object.keys(v).filter(looksLikeAddress), ...Object.values(v).flatMap((x) => addressesIn(x, depth + 1))];
  return [];
}

/**
 * Aliases of an allowed address found in the context: an address-book entry keyed by it lists the same
 * owner's token accounts ({"<wallet>": {"usdc_token_account": "<ata>"}}).
 */
export function aliasesOf(addr: string, ctx: Ctx): string[] {
  const out: string[] = [];
  const target = normAddr(addr);
  const visit = (v: unknown, depth: number): void => {
    if (!isRec(v) || depth > 3) return;
    for (const [k, val] of Object.entries(v)) {
      if (normAddr(k) === target && isRec(val)) out.push(...addressesIn(val));
      else visit(val, depth + 1);
    }
  };
  visit(ctx, 0);
  return out;
}

/** All numeric leaves with their dotted paths. */
export function numericLeaves(v: unknown, path = "", depth = 0): Array<{ path: string; value: number }> {
  if (depth > 4) return [];
  const n = num(v);
  if (n !== null && path) return [{ path, value: n }];
  if (isRec(v)) return Object.entries(v).flatMap(([k, x]) => numericLeaves(x, path ? `${path}.${k}` : k, depth + 1));
  return [];
}

/** Find a counter in context whose path matches every pattern and none of the exclusions. */
export function findCounter(ctx: Ctx, must: RegExp[], not: RegExp[] = []): { path: string; value: number } | null {
  const hits = numericLeaves(ctx).filter((l) => !/^reference\b/.test(l.path) && must.every((r) => r.test(l.path)) && !not.some((r) => r.test(l.path)));
  return hits.length === 1 ? hits[0] : (hits.sort((a, b) => a.path.length - b.path.length)[0] ?? null);
}

/** Current leverage of an asset from context (account.leverage[asset] or positions[asset].leverage). */
export function currentLeverage(asset: string, ctx: Ctx): number | null {
  const cands = [atPath(ctx, `account.leverage.${asset}`), atPath(ctx, `leverage.${asset}`), atPath(ctx, `positions.${asset}.leverage`)];
  for (const c of cands) {
    const n = num(c) ?? (isRec(c) ? num(c.value) : null);
    if (n !== null) return n;
  }
  return null;
}

/** Signed position size (coins) of an asset from context.positions, when given. */
export function positionSize(asset: string, ctx: Ctx): number | null {
  const p = atPath(ctx, `positions.${asset}`);
  if (num(p) !== null) return num(p);
  if (!isRec(p)) return null;
  for (const k of ["szi", "size", "sz", "shares", "amount", "qty"]) {
    const n = num(p[k]);
    if (n !== null) return n;
  }
  return null;
}
