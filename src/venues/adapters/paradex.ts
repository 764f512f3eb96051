/**
 * Paradex (perp DEX on a Starknet appchain): REST order bodies {market: "BTC-USD-PERP", side, type, size,
 * price, instruction: GTC|IOC|POST_ONLY|RPI, flags: ["REDUCE_ONLY"], trigger_price}. Sizes are base-asset
 * units and prices USD, both decimal strings.
 */
import type { Facts, OrderFact, VenueAdapter } from "../types";
import { dec } from "../lib/decimal";
import { finish } from "../lib/facts";
import { baseOfMarket, perpOrderFacts } from "../lib/perp-order";
import { bool, isRecord, num, str } from "../lib/util";

type R = Record<string, unknown>;

const MARKET_RE = /^[A-Z0-9]+-[A-Z]+-(PERP|\d+-[CP])$|-PERP$/i;

function isParadex(a: unknown): a is R {
  return isRecord(a) && typeof a.market === "string" && MARKET_RE.test(a.market) && typeof a.side === "string" && a.size !== undefined;
}

function describe(action: unknown, ctx?: Record<string, unknown> | null): Facts | null {
  if (!isParadex(action)) return null;
  const w: string[] = [];
  const type = (str(action.type) ?? "LIMIT").toUpperCase();
  const orderType: OrderFact["orderType"] = type.startsWith("STOP") || type.startsWith("TAKE_PROFIT") ? "trigger" : type === "MARKET" ? "market" : "limit";
  const flags = Array.isArray(action.flags) ? action.flags.map(String) : [];
  const side = (str(action.side) ?? "").toUpperCase();
  const f = perpOrderFacts(
    {
      venue: "paradex",
      chain: "paradex",
      actionType: "order",
      asset: baseOfMarket(action.market as string),
      side: side === "BUY" ? "buy" : side === "SELL" ? "sell" : null,
      size: dec(action.size),
      price: dec(action.price),
      orderType,
      tif: str(action.instruction)?.toUpperCase() ?? (orderType === "market" ? "IOC" : "GTC"),
      reduceOnly: flags.includes("REDUCE_ONLY") || bool(action.reduce_only) === true,
      triggerPx: num(action.trigger_price),
    },
    ctx,
    w,
  );
  f.details = { market: action.market, clientId: str(action.client_id), flags };
  if (String(action.market).split("-").length > 3) w.push("Paradex option market");
  f.warnings = w;
  return finish(f);
}

export const paradex: VenueAdapter = { id: "paradex", aliases: ["prdx", "paradexperps"], matches: isParadex, describe };
