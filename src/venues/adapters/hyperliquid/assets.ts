/**
 * Hyperliquid identifies markets by integer index. The index -> symbol table comes only from the caller's
 * context (context.assets as {"0": "BTC"} or {"BTC": 0} or an array, or the /info meta universe); an
 * unknown index stays a placeholder such as "#4" so it can never satisfy an asset allowlist by accident.
 */
import { isRecord, num, own, str } from "../../lib/util";

export interface HlAsset {
  symbol: string; // upper-case symbol, or "#<index>" when unknown
  market: "perp" | "spot";
  known: boolean;
  index: number | null;
}

const SPOT_OFFSET = 10_000;

function fromTable(table: unknown, index: number): string | null {
  if (Array.isArray(table)) {
    const e = table[index];
    if (typeof e === "string") return e;
    if (isRecord(e)) return str(e.name) ?? str(e.symbol) ?? str(e.coin);
    return null;
  }
  if (!isRecord(table)) return null;
  const direct = own(table, String(index));
  if (typeof direct === "string") return direct;
  if (isRecord(direct)) return str(direct.name) ?? str(direct.symbol) ?? str(direct.coin);
  // inverse form {"BTC": 0}
  for (const k of Object.keys(table)) if (num(table[k]) === index && !/^\d+$/.test(k)) return k;
  return null;
}

function universe(ctx: unknown, key: "meta" | "spotMeta"): unknown {
  const m = isRecord(ctx) ? ctx[key] : undefined;
  return isRecord(m) ? m.universe : undefined;
}

export function resolveAsset(raw: unknown, ctx: unknown): HlAsset {
  const index = num(raw);
  if (index === null || !Number.isInteger(index) || index < 0) {
    const s = typeof raw === "string" && raw.trim() ? raw.trim() : null;
    // some SDK payloads carry the coin name instead of the index
    if (s && /^[A-Za-z][A-Za-z0-9/:@-]{0,30}$/.test(s)) return { symbol: s.toUpperCase(), market: "perp", known: true, index: null };
    return { symbol: "#?", market: "perp", known: false, index: null };
  }
  const c = isRecord(ctx) ? ctx : {};
  const spot = index >= SPOT_OFFSET && index < 100_000;
  const name =
    fromTable(c.assets, index) ??
    fromTable(c.assetIndex, index) ??
    (spot ? fromTable(c.spotAssets, index) ?? fromTable(c.spotAssets, index - SPOT_OFFSET) : null) ??
    (spot ? fromTable(universe(c, "spotMeta"), index - SPOT_OFFSET) : fromTable(universe(c, "meta") ?? c.universe, index));
  if (name) return { symbol: spotBase(name).toUpperCase(), market: spot ? "spot" : "perp", known: true, index };
  return { symbol: spot ? `@${index - SPOT_OFFSET}` : `#${index}`, market: spot ? "spot" : "perp", known: false, index };
}

/** "PURR/USDC" -> "PURR"; spot pairs are quoted in USDC, the base is what is bought or sold. */
function spotBase(name: string): string {
  const i = name.indexOf("/");
  return i > 0 ? name.slice(0, i) : name;
}

/** spotSend token "PURR:0xc4bf..." -> "PURR". */
export function tokenName(token: unknown): string | null {
  const s = str(token);
  if (!s) return null;
  const i = s.indexOf(":");
  return (i > 0 ? s.slice(0, i) : s).toUpperCase();
}
