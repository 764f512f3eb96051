/**
 * dYdX v4: the client's placeOrder arguments {market: "BTC-USD", side, type, size, price, timeInForce,
 * reduceOnly, postOnly}, and Cosmos messages {typeUrl: "/dydxprotocol...", value}: MsgPlaceOrder (sizes in
 * quantums/subticks, which need market parameters, so notional stays unknown), MsgCancelOrder,
 * MsgWithdrawFromSubaccount and MsgCreateTransfer (USDC, assetId 0, 6 decimals).
 */
import type { Facts, OrderFact, VenueAdapter } from "../types";
import { dec, fromBase, toNum, wholeUnits } from "../lib/decimal";
import { facts, finish, fmt } from "../lib/facts";
import { baseOfMarket, perpOrderFacts } from "../lib/perp-order";
import { bigInt, bool, isRecord, num, str } from "../lib/util";

type R = Record<string, unknown>;
type Ctx = Record<string, unknown> | null | undefined;

const TICKER = /^[A-Z0-9]{1,20}-USD$/i;

function marketOf(a: R): string | null {
  const m = str(a.market) ?? str(a.marketId) ?? str(a.ticker);
  return m && TICKER.test(m) ? m : null;
}

function isClientOrder(a: unknown): a is R {
  return isRecord(a) && marketOf(a) !== null && typeof a.side === "string" && a.size !== undefined && (a.type !== undefined || a.timeInForce !== undefined || a.clientId !== undefined || a.subaccountNumber !== undefined);
}

function isMsg(a: unknown): a is R {
  return isRecord(a) && typeof a.typeUrl === "string" && a.typeUrl.startsWith("/dydxprotocol.");
}

function clientOrder(a: R, ctx: Ctx): Facts {
  const w: string[] = [];
  const type = (str(a.type) ?? "LIMIT").toUpperCase();
  const orderType: OrderFact["orderType"] = type.includes("STOP") || type.includes("TAKE_PROFIT") ? "trigger" : type === "MARKET" ? "market" : "limit";
  const side = (str(a.side) ?? "").toUpperCase();
  const f = perpOrderFacts(
    {
      venue: "dydx",
      chain: "dydx",
      actionType: "placeOrder",
      asset: baseOfMarket(marketOf(a)),
      side: side === "BUY" ? "buy" : side === "SELL" ? "sell" : null,
      size: dec(a.size),
      price: dec(a.price),
      orderType,
      tif: str(a.timeInForce)?.toUpperCase() ?? null,
      reduceOnly: bool(a.reduceOnly) === true,
      triggerPx: num(a.triggerPrice),
    },
    ctx,
    w,
  );
  f.details = { market: marketOf(a), postOnly: bool(a.postOnly), subaccountNumber: num(a.subaccountNumber), clientId: a.clientId ?? null };
  f.warnings = w;
  return finish(f);
}

function message(m: R): Facts {
  const w: string[] = [];
  const kind = (m.typeUrl as string).split(".").pop() ?? "";
  const v = isRecord(m.value) ? m.value : {};
  if (kind === "MsgWithdrawFromSubaccount" || kind === "MsgCreateTransfer") {
    const t = kind === "MsgCreateTransfer" && isRecord(v.transfer) ? v.transfer : v;
    const q = bigInt(t.quantums ?? t.amount);
    const asset = (num(t.assetId) ?? 0) === 0 ? "USDC" : `asset#${String(t.assetId)}`;
    const amount = q !== null && asset === "USDC" ? wholeUnits(q, 6) : null;
    const recipient = isRecord(t.recipient) ? str(t.recipient.owner) : str(t.recipient);
    const f = facts("dydx", kind === "MsgWithdrawFromSubaccount" ? "withdrawal" : "transfer", kind, "dydx");
    f.transfers = [{ asset, amount, amountBase: q?.toString() ?? null, decimals: asset === "USDC" ? 6 : null, usd: amount !== null ? toNum(fromBase(q as bigint, 6)) : null, to: recipient }];
    f.assets = [asset];
    f.summary = `dYdX ${kind}: ${fmt(amount)} ${asset} to ${recipient ?? "?"}`;
    f.warnings = w;
    return finish(f);
  }
  const o = isRecord(v.order) ? v.order : {};
  const f = facts("dydx", kind.includes("Order") ? "order" : "unknown", kind, "dydx");
  const id = isRecord(o.orderId) ? o.orderId : isRecord(v.orderId) ? v.orderId : {};
  f.details = { clobPairId: num(id.clobPairId), quantums: str(o.quantums) ?? num(o.quantums), subticks: str(o.subticks) ?? num(o.subticks), side: o.side ?? null, reduceOnly: bool(o.reduceOnly), timeInForce: o.timeInForce ?? null };
  if (kind === "MsgPlaceOrder") w.push("MsgPlaceOrder sizes are quantums/subticks: size and notional need the market's parameters");
  f.summary = `dYdX ${kind} on clob pair ${String(id.clobPairId ?? "?")}`;
  f.warnings = w;
  return finish(f);
}

function describe(action: unknown, ctx?: Ctx): Facts | null {
  if (isClientOrder(action)) return clientOrder(action, ctx);
  if (isMsg(action)) return message(action);
  return null;
}

export const dydx: VenueAdapter = { id: "dydx", aliases: ["dydxv4", "dydxchain", "dydxexchange"], matches: (a) => isClientOrder(a) || isMsg(a), describe };
