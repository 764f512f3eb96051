/** Shared building of perp OrderFacts for JSON-order venues (dYdX, Paradex, Drift). */
import type { OrderFact } from "../types";
import { dec, mul, toNum, type Dec } from "./decimal";
import { facts, fmt, fmtUsd, type FactsInit } from "./facts";
import { priceOf } from "./prices";

export interface PerpOrderInput {
  venue: string;
  chain: string;
  actionType: string;
  asset: string | null; // base symbol, upper-case
  side: "buy" | "sell" | null;
  size: Dec | null;
  price: Dec | null; // limit price
  orderType: OrderFact["orderType"];
  tif: string | null;
  reduceOnly: boolean;
  triggerPx: number | null;
}

export function perpOrderFacts(o: PerpOrderInput, ctx: unknown, warnings: string[]): FactsInit {
  const asset = o.asset ?? "UNKNOWN";
  if (!o.asset) warnings.push("market not identified");
  if (!o.side) warnings.push("order side missing or not recognised");
  if (!o.size) warnings.push("order size missing or not a number");
  const mark = o.asset ? priceOf(o.asset, ctx) : null;
  const limit = o.price ? toNum(o.price) : null;
  // a sell fills at or above its limit: use the mark when it is higher, as for Hyperliquid
  let px: Dec | null = o.orderType === "market" || o.orderType === "trigger" || !o.price ? null : o.price;
  let basis = px ? "limit" : null;
  const markDec = mark !== null ? dec(mark) : null;
  if (markDec && (!px || (o.side === "sell" && mark !== null && limit !== null && mark > limit))) {
    px = markDec;
    basis = "mark";
  }
  if (!px && o.triggerPx !== null) {
    px = dec(o.triggerPx);
    basis = "trigger";
  }
  const notionalUsd = o.size && px ? Math.abs(toNum(mul(o.size, px))) : null;
  if (notionalUsd === null) warnings.push(`no price for ${asset}: notional unknown (add context.prices)`);
  const order: OrderFact = {
    asset,
    market: "perp",
    side: o.side ?? "buy",
    size: o.size ? toNum(o.size) : null,
    price: limit,
    notionalUsd,
    reduceOnly: o.reduceOnly,
    orderType: o.orderType,
    tif: o.tif,
    trigger: o.triggerPx !== null ? { kind: null, triggerPx: o.triggerPx, isMarket: o.orderType !== "limit" } : null,
    priceBasis: basis,
  };
  const f = facts(o.venue, "order", o.actionType, o.chain);
  f.orders = [order];
  f.assets = [asset];
  f.summary = `${o.venue}: ${order.side === "buy" ? "Buy" : "Sell"} ${fmt(order.size)} ${asset} perp ${order.orderType ?? ""}${limit !== null ? ` at ${fmt(limit)}` : ""}${o.tif ? ` (${o.tif})` : ""}${o.reduceOnly ? " reduce-only" : ""}, ${fmtUsd(notionalUsd)}`;
  return f;
}

/** "BTC-USD", "BTC-USD-PERP", "SOL-PERP", "ETH/USD" -> "BTC" / "SOL" / "ETH". */
export function baseOfMarket(m: string | null): string | null {
  if (!m) return null;
  const s = m.trim().toUpperCase();
  const base = s.split(/[-/_]/)[0];
  return /^[A-Z0-9]{1,20}$/.test(base) ? base : null;
}
