/**
 * Polymarket CLOB orders: the client's user order args ({tokenID, price, size, side}), market order args
 * ({tokenID, amount, side, orderType: FOK|FAK}), signed orders ({makerAmount, takerAmount, side, tokenId})
 * alone or in the POST /order body ({order, owner, orderType}), and batches of those. Amounts in signed
 * orders are 6-decimal base units on both legs (USDC and outcome shares).
 */
import type { Facts, OrderFact, VenueAdapter } from "../types";
import { dec, fromBase, mul, toNum } from "../lib/decimal";
import { facts, finish, fmt, fmtUsd } from "../lib/facts";
import { bigInt, isRecord, lower, lookupCI, MAX_ITEMS, num, str } from "../lib/util";

type Ctx = Record<string, unknown> | null | undefined;
type R = Record<string, unknown>;

const TIF = new Set(["GTC", "GTD", "FOK", "FAK"]);

function tokenIdOf(o: R): string | null {
  const t = o.tokenID ?? o.tokenId ?? o.token_id ?? o.asset_id;
  if (typeof t === "string" && /^\d{1,90}$/.test(t.trim())) return t.trim();
  if (typeof t === "number" && Number.isSafeInteger(t)) return String(t);
  return null;
}

function sideOf(v: unknown): "buy" | "sell" | null {
  if (v === 0 || v === "0") return "buy";
  if (v === 1 || v === "1") return "sell";
  const s = str(v)?.toUpperCase();
  return s === "BUY" ? "buy" : s === "SELL" ? "sell" : null;
}

function marketInfo(tokenId: string, ctx: Ctx): { question: string | null; outcome: string | null } {
  const c = isRecord(ctx) ? ctx : {};
  for (const table of ["markets", "tokens", "polymarket"]) {
    const e = lookupCI(c[table], tokenId);
    if (isRecord(e)) return { question: str(e.question) ?? str(e.market) ?? str(e.title), outcome: str(e.outcome) };
    if (typeof e === "string") return { question: e, outcome: null };
  }
  return { question: null, outcome: null };
}

function isSigned(o: R): boolean {
  return o.makerAmount !== undefined && o.takerAmount !== undefined;
}

function isOrderLike(o: unknown): o is R {
  if (!isRecord(o) || tokenIdOf(o) === null || o.side === undefined) return false;
  return o.price !== undefined || o.size !== undefined || o.amount !== undefined || isSigned(o);
}

/** The order objects inside one payload (single, {order}, or a batch), or null when none. */
function collect(action: unknown): { order: R; orderType: string | null; owner: string | null }[] | null {
  const items = Array.isArray(action) ? action : isRecord(action) && Array.isArray(action.orders) ? action.orders : [action];
  const out: { order: R; orderType: string | null; owner: string | null }[] = [];
  for (const it of items.slice(0, MAX_ITEMS)) {
    if (!isRecord(it)) continue;
    if (isOrderLike(it.order)) out.push({ order: it.order, orderType: str(it.orderType), owner: str(it.owner) });
    else if (isOrderLike(it)) out.push({ order: it, orderType: str(it.orderType), owner: null });
  }
  return out.length ? out : null;
}

function fact(order: R, orderType: string | null, ctx: Ctx, warnings: string[]): OrderFact {
  const tokenId = tokenIdOf(order) as string;
  const side = sideOf(order.side);
  if (!side) warnings.push(`unrecognised order side ${JSON.stringify(order.side)?.slice(0, 20)}`);
  const { question, outcome } = marketInfo(tokenId, ctx);
  if (!question) warnings.push(`unknown Polymarket token id ${tokenId.slice(0, 12)}...: market not identified (add context.markets)`);
  const tifRaw = (orderType ?? str(order.orderType) ?? "").toUpperCase();
  const tif = TIF.has(tifRaw) ? tifRaw : null;
  let size: number | null = null;
  let price: number | null = null;
  let notionalUsd: number | null = null;
  let kind: OrderFact["orderType"] = tif === "FOK" || tif === "FAK" ? "market" : "limit";
  if (isSigned(order)) {
    const maker = bigInt(order.makerAmount);
    const taker = bigInt(order.takerAmount);
    const usdcBase = side === "sell" ? taker : maker;
    const sharesBase = side === "sell" ? maker : taker;
    if (usdcBase !== null) notionalUsd = toNum(fromBase(usdcBase, 6));
    if (sharesBase !== null) size = toNum(fromBase(sharesBase, 6));
    if (usdcBase !== null && sharesBase !== null && sharesBase > 0n) price = Math.round((Number(usdcBase) / Number(sharesBase)) * 1e6) / 1e6;
    if (maker === null || taker === null) warnings.push("signed order without integer makerAmount/takerAmount");
  } else if (order.size !== undefined || order.price !== undefined) {
    const s = dec(order.size);
    const p = dec(order.price);
    size = s ? toNum(s) : null;
    price = p ? toNum(p) : null;
    notionalUsd = s && p ? toNum(mul(s, p)) : null;
    if (price !== null && (price <= 0 || price >= 1)) warnings.push(`price ${price} is outside Polymarket's (0, 1) range`);
  } else if (order.amount !== undefined) {
    // market order args: BUY amount is USDC to spend, SELL amount is shares
    kind = "market";
    const amt = dec(order.amount);
    const p = dec(order.price);
    price = p ? toNum(p) : null;
    if (side === "sell") {
      size = amt ? toNum(amt) : null;
      notionalUsd = amt && p ? toNum(mul(amt, p)) : null;
    } else {
      notionalUsd = amt ? toNum(amt) : null;
      size = amt && p && price ? Math.round((toNum(amt) / price) * 1e6) / 1e6 : null;
    }
  }
  if (notionalUsd === null) warnings.push("order notional unknown");
  const expiration = num(order.expiration);
  return {
    asset: tokenId,
    market: "prediction",
    side: side ?? "buy",
    size,
    price,
    notionalUsd: notionalUsd === null ? null : Math.abs(notionalUsd),
    reduceOnly: false,
    orderType: kind,
    tif: tif ?? (expiration && expiration > 0 ? "GTD" : null),
    tokenId,
    marketLabel: question,
    outcome,
  };
}

function matches(action: unknown): boolean {
  return collect(action) !== null;
}

function describe(action: unknown, ctx?: Ctx): Facts | null {
  const items = collect(action);
  if (!items) return null;
  const warnings: string[] = [];
  const orders = items.map((i) => fact(i.order, i.orderType, ctx, warnings));
  const f = facts("polymarket", "order", "order", "polygon");
  f.chainId = 137;
  f.orders = orders;
  f.assets = orders.map((o) => o.tokenId ?? o.asset);
  const first = items[0].order;
  const maker = str(first.maker);
  f.details = {
    maker: maker ? lower(maker) : null,
    signer: str(first.signer) ? lower(str(first.signer) as string) : null,
    taker: str(first.taker),
    feeRateBps: num(first.feeRateBps),
    expiration: str(first.expiration) ?? num(first.expiration),
    signatureType: num(first.signatureType),
    owner: items[0].owner,
    markets: orders.map((o) => ({ tokenId: o.tokenId, question: o.marketLabel, outcome: o.outcome })),
  };
  const taker = str(first.taker);
  if (taker && !/^0x0{40}$/i.test(taker)) warnings.push(`order is private to taker ${taker}`);
  f.summary = orders
    .map(
      (o) =>
        `${o.side === "buy" ? "Buy" : "Sell"} ${fmt(o.size)} "${o.outcome ?? "?"}" shares on "${o.marketLabel ?? `token ${o.asset.slice(0, 10)}...`}" at ${fmt(o.price)} (${o.orderType} ${o.tif ?? ""}), ${fmtUsd(o.notionalUsd)}`,
    )
    .join("; ");
  f.warnings = warnings;
  return finish(f);
}

export const polymarket: VenueAdapter = { id: "polymarket", aliases: ["poly", "pm", "polymarketclob", "clob"], matches, describe };
