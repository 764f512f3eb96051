/**
 * Hyperliquid order-family actions: order (limit, trigger TP/SL, grouped brackets), modify, batchModify,
 * twapOrder and the cancels. Sizes are coins; notional is size x price with exact decimals.
 *
 * Price basis: a buy fills at or below its limit, so size x limit bounds it; a sell fills at or above its
 * limit, so when the mark (context price) is higher the mark is used, otherwise an aggressive sell at a
 * token limit price would look tiny. Market triggers have no meaningful limit: the larger of mark and
 * trigger price is used.
 */
import type { OrderFact } from "../../types";
import { dec, mul, toNum, type Dec } from "../../lib/decimal";
import { facts, fmt, fmtUsd, type FactsInit } from "../../lib/facts";
import { priceOf } from "../../lib/prices";
import { bool, isRecord, MAX_ITEMS, num, str } from "../../lib/util";
import { resolveAsset } from "./assets";

type Ctx = Record<string, unknown> | null | undefined;

const TIFS: Record<string, string> = { gtc: "Gtc", ioc: "Ioc", alo: "Alo", fok: "FOK" };

function notional(size: Dec | null, price: number | null): number | null {
  if (!size || price === null) return null;
  const p = dec(price);
  if (!p) return null;
  const v = toNum(mul(size, p));
  return Math.abs(v);
}

export function orderFact(o: unknown, ctx: Ctx, warnings: string[]): OrderFact | null {
  if (!isRecord(o)) {
    warnings.push("malformed order entry skipped");
    return null;
  }
  const asset = resolveAsset(o.a ?? o.asset ?? o.coin, ctx);
  if (!asset.known) warnings.push(`unknown Hyperliquid asset index ${asset.index ?? String(o.a)}: add it to context.assets`);
  const isBuy = bool(o.b ?? o.isBuy);
  if (isBuy === null) warnings.push("order side (b) missing or not a boolean");
  const sizeDec = dec(o.s ?? o.sz);
  const size = sizeDec ? toNum(sizeDec) : null;
  if (size === null) warnings.push("order size (s) missing or not a number");
  const limit = num(o.p ?? o.limitPx);
  const mark = asset.known ? priceOf(asset.symbol, ctx) : null;
  const t = isRecord(o.t) ? o.t : isRecord(o.orderType) ? o.orderType : {};
  let orderType: OrderFact["orderType"] = null;
  let tif: string | null = null;
  let trigger: OrderFact["trigger"] = null;
  let px: number | null;
  let basis: string | null;
  if (isRecord(t.limit)) {
    orderType = "limit";
    const raw = str(t.limit.tif);
    tif = raw ? (TIFS[raw.toLowerCase()] ?? raw) : null;
    px = limit;
    basis = "limit";
    if (isBuy === false && mark !== null && (limit === null || mark > limit)) {
      px = mark;
      basis = "mark";
    }
  } else if (isRecord(t.trigger)) {
    orderType = "trigger";
    const isMarket = bool(t.trigger.isMarket) ?? false;
    const triggerPx = num(t.trigger.triggerPx);
    const kind = str(t.trigger.tpsl);
    trigger = { kind: kind === "tp" || kind === "sl" ? kind : null, triggerPx, isMarket };
    if (isMarket) {
      const cands = [mark, triggerPx].filter((x): x is number => x !== null);
      px = cands.length ? Math.max(...cands) : null;
      basis = mark !== null && px === mark ? "mark" : "trigger";
    } else {
      px = isBuy === false && mark !== null && (limit === null || mark > limit) ? mark : limit;
      basis = px === limit ? "limit" : "mark";
    }
  } else {
    warnings.push("order type (t) missing: neither limit nor trigger");
    px = limit;
    basis = "limit";
  }
  if (limit !== null && mark !== null && mark > 0 && Math.abs(limit - mark) / mark > 0.2) {
    warnings.push(`${asset.symbol} limit price ${fmt(limit)} is more than 20% away from the context price ${fmt(mark)}`);
  }
  const fact: OrderFact = {
    asset: asset.symbol,
    market: asset.market,
    side: isBuy === false ? "sell" : "buy",
    size,
    price: limit,
    notionalUsd: notional(sizeDec, px),
    reduceOnly: bool(o.r ?? o.reduceOnly) ?? false,
    orderType,
    tif,
    trigger,
    priceBasis: px === null ? null : basis,
  };
  if (fact.notionalUsd === null && size !== null) warnings.push(`no price for ${asset.symbol}: notional unknown (add context.prices)`);
  return fact;
}

function describeOrder(o: OrderFact): string {
  const kind =
    o.orderType === "trigger"
      ? `${o.trigger?.kind ?? "trigger"} trigger at ${fmt(o.trigger?.triggerPx)}${o.trigger?.isMarket ? " (market)" : ` limit ${fmt(o.price)}`}`
      : o.orderType === "twap"
        ? "TWAP"
        : `at ${fmt(o.price)} (limit ${o.tif ?? "?"})`;
  return `${o.side === "buy" ? "Buy" : "Sell"} ${fmt(o.size)} ${o.asset} ${o.market ?? ""} ${kind}${o.reduceOnly ? " reduce-only" : ""}, ${fmtUsd(o.notionalUsd)}`.replace(/\s+/g, " ");
}

function ordersFacts(type: string, list: unknown[], ctx: Ctx, warnings: string[], extra: string): FactsInit {
  if (list.length > MAX_ITEMS) warnings.push(`only the first ${MAX_ITEMS} of ${list.length} orders were examined`);
  const orders = list
    .slice(0, MAX_ITEMS)
    .map((o) => orderFact(o, ctx, warnings))
    .filter((x): x is OrderFact => x !== null);
  if (orders.length === 0) warnings.push("no valid orders in the action");
  const f = facts("hyperliquid", "order", type, "hyperliquid");
  f.orders = orders;
  f.assets = orders.map((o) => o.asset);
  f.summary = orders.length ? orders.map(describeOrder).join("; ") + extra : `Hyperliquid ${type} with no valid orders`;
  return f;
}

export function describeOrderAction(a: Record<string, unknown>, ctx: Ctx, warnings: string[]): FactsInit {
  const list = Array.isArray(a.orders) ? a.orders : [];
  if (!Array.isArray(a.orders)) warnings.push("order action without an orders array");
  const grouping = str(a.grouping);
  const f = ordersFacts("order", list, ctx, warnings, grouping && grouping !== "na" ? ` [grouping ${grouping}]` : "");
  f.details = { grouping: grouping ?? null };
  if (isRecord(a.builder)) {
    const b = str(a.builder.b);
    const fee = num(a.builder.f);
    f.details.builder = { address: b, feeTenthsBps: fee };
    warnings.push(`order pays a builder fee (${fee ?? "?"} tenths of a bp) to ${b ?? "unknown"}`);
  }
  return f;
}

export function describeModify(a: Record<string, unknown>, ctx: Ctx, warnings: string[], batch: boolean): FactsInit {
  const mods = batch ? (Array.isArray(a.modifies) ? a.modifies : []) : [a];
  const list = mods.map((m) => (isRecord(m) ? m.order : undefined));
  const f = ordersFacts(batch ? "batchModify" : "modify", list, ctx, warnings, "");
  f.summary = `Modify: ${f.summary}`;
  f.details = { oids: mods.map((m) => (isRecord(m) ? (m.oid ?? null) : null)).slice(0, MAX_ITEMS) };
  return f;
}

export function describeTwap(a: Record<string, unknown>, ctx: Ctx, warnings: string[]): FactsInit {
  const t = isRecord(a.twap) ? a.twap : a;
  const asset = resolveAsset(t.a ?? t.asset, ctx);
  if (!asset.known) warnings.push(`unknown Hyperliquid asset index ${asset.index ?? String(t.a)}: add it to context.assets`);
  const sizeDec = dec(t.s);
  const mark = asset.known ? priceOf(asset.symbol, ctx) : null;
  const minutes = num(t.m);
  const order: OrderFact = {
    asset: asset.symbol,
    market: asset.market,
    side: bool(t.b) === false ? "sell" : "buy",
    size: sizeDec ? toNum(sizeDec) : null,
    price: null,
    notionalUsd: notional(sizeDec, mark),
    reduceOnly: bool(t.r) ?? false,
    orderType: "twap",
    tif: null,
    priceBasis: mark === null ? null : "mark",
  };
  if (order.notionalUsd === null) warnings.push(`no context price for ${asset.symbol}: TWAP notional unknown`);
  const f = facts("hyperliquid", "order", "twapOrder", "hyperliquid");
  f.orders = [order];
  f.assets = [asset.symbol];
  f.details = { minutes, randomize: bool(t.t) };
  f.summary = `${describeOrder(order)} over ${fmt(minutes)} minutes`;
  return f;
}

export function describeCancel(type: string, a: Record<string, unknown>, ctx: Ctx, warnings: string[]): FactsInit {
  const f = facts("hyperliquid", "order", type, "hyperliquid");
  if (type === "scheduleCancel") {
    f.summary = a.time === undefined || a.time === null ? "Clear the scheduled cancel-all" : `Schedule cancel-all at ${String(a.time)}`;
    f.details = { time: num(a.time) };
    return f;
  }
  const list = type === "twapCancel" ? [a] : Array.isArray(a.cancels) ? a.cancels : [];
  const assets = list
    .slice(0, MAX_ITEMS)
    .map((c) => (isRecord(c) ? resolveAsset(c.a ?? c.asset, ctx).symbol : null))
    .filter((s): s is string => !!s);
  f.assets = assets;
  f.details = { count: list.length };
  f.summary = `Cancel ${list.length} ${type === "twapCancel" ? "TWAP" : "order"}${list.length === 1 ? "" : "s"} on ${[...new Set(assets)].join(", ") || "?"}`;
  if (list.length === 0) warnings.push("cancel with no cancels listed");
  return f;
}
