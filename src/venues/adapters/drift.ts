/**
 * Drift (Solana perps): the SDK's OrderParams as JSON {orderType, marketType, marketIndex, direction,
 * baseAssetAmount (1e9), price (1e6), reduceOnly, postOnly, triggerPrice}, alone or under
 * placePerpOrder / orderParams. Enums arrive as {long: {}} objects or strings. The market index maps to a
 * symbol only through context (context.markets or context.assets), never a built-in table.
 */
import type { Facts, OrderFact, VenueAdapter } from "../types";
import { fromBase } from "../lib/decimal";
import { finish } from "../lib/facts";
import { perpOrderFacts } from "../lib/perp-order";
import { bigInt, bool, isRecord, num, own, str } from "../lib/util";

type R = Record<string, unknown>;

function variant(v: unknown): string | null {
  if (typeof v === "string") return v.toLowerCase();
  if (isRecord(v)) {
    const k = Object.keys(v)[0];
    return k ? k.toLowerCase() : null;
  }
  return null;
}

function paramsOf(a: unknown): R | null {
  if (!isRecord(a)) return null;
  for (const k of ["placePerpOrder", "placeOrder", "orderParams", "params"]) if (isRecord(a[k]) && isParams(a[k])) return a[k] as R;
  return isParams(a) ? a : null;
}

function isParams(p: unknown): p is R {
  return isRecord(p) && p.baseAssetAmount !== undefined && p.marketIndex !== undefined && p.direction !== undefined;
}

function marketSymbol(index: number | null, spot: boolean, ctx: unknown): string | null {
  if (index === null || !isRecord(ctx)) return null;
  for (const t of spot ? ["spotMarkets", "markets"] : ["perpMarkets", "markets", "assets"]) {
    const e = own(ctx[t], String(index));
    const s = typeof e === "string" ? e : isRecord(e) ? (str(e.symbol) ?? str(e.name)) : null;
    if (s) return s.toUpperCase().replace(/-PERP$/, "");
  }
  return null;
}

function describe(action: unknown, ctx?: Record<string, unknown> | null): Facts | null {
  const p = paramsOf(action);
  if (!p) return null;
  const w: string[] = [];
  const spot = variant(p.marketType) === "spot";
  const index = num(p.marketIndex);
  const symbol = marketSymbol(index, spot, ctx);
  if (!symbol) w.push(`unknown Drift ${spot ? "spot" : "perp"} market index ${index} (add context.markets)`);
  const base = bigInt(p.baseAssetAmount);
  const price = bigInt(p.price);
  const trigger = bigInt(p.triggerPrice);
  const ot = variant(p.orderType) ?? "limit";
  const orderType: OrderFact["orderType"] = ot.startsWith("trigger") ? "trigger" : ot === "market" || ot === "oracle" ? "market" : "limit";
  const f = perpOrderFacts(
    {
      venue: "drift",
      chain: "solana",
      actionType: "placePerpOrder",
      asset: symbol ?? (index === null ? null : `#${index}`),
      side: variant(p.direction) === "long" ? "buy" : variant(p.direction) === "short" ? "sell" : null,
      size: base === null ? null : fromBase(base, 9),
      price: price === null || price === 0n ? null : fromBase(price, 6),
      orderType,
      tif: bool(p.immediateOrCancel) ? "IOC" : variant(p.postOnly) && variant(p.postOnly) !== "none" ? "POST_ONLY" : null,
      reduceOnly: bool(p.reduceOnly) === true,
      triggerPx: trigger !== null && trigger > 0n ? Number(trigger) / 1e6 : null,
    },
    ctx,
    w,
  );
  if (f.orders?.[0]) f.orders[0].market = spot ? "spot" : "perp";
  if (spot) f.actionType = "placeSpotOrder";
  f.details = { marketIndex: index, marketType: spot ? "spot" : "perp", auctionDuration: num(p.auctionDuration), oraclePriceOffset: num(p.oraclePriceOffset) };
  f.warnings = [...(f.warnings ?? []), ...w];
  return finish(f);
}

export const drift: VenueAdapter = { id: "drift", aliases: ["driftprotocol", "driftv2", "driftperps"], matches: (a) => paramsOf(a) !== null, describe };
