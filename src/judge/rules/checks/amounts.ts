/**
 * Numeric checks: per-action caps (USD or token units), cumulative budgets backed by context counters,
 * "needs a human above X" thresholds, slippage and leverage. An amount exactly at an inclusive cap is inside
 * it. A figure that cannot be computed (no price, no counter) is a missing fact.
 */
import { sizeIn } from "./approval-bounds";
import { OPEN_UNIT, OWN_UNIT, type Activity, type ActionView, type CapScope, type Constraint, type Finding, type Quantity } from "../types";
import { pricesFresh } from "../../../venues/lib/prices";
import { addressesIn, aliasesOf, atPath, currentLeverage, describedPath, findCounter, normAddr, num, positionSize, priceOf } from "../context";
import { qty } from "../text";
import { USD_STABLES } from "../vocab";
import { otherSide, unattributed } from "./alternatives";
import { capByReadings, isOpen, lineByReadings } from "./readings";

type Ctx = Record<string, unknown> | null;
type Cap = Extract<Constraint, { kind: "cap" }>;

const SCOPE_ACTS: Record<CapScope, Activity[] | null> = {
  order: ["order", "swap"],
  margin: ["margin"],
  swap: ["swap", "wrap", "unwrap"],
  transfer: ["transfer", "payment", "withdrawal", "bridge", "vault_deposit", "supply", "stake", "delegate", "internal_transfer"],
  any: null,
};

// An unstake that pays its lamports to an address (Solana's stake Withdraw) moves value out like a withdrawal, so
// per-transfer caps and "above X needs a human" count it; one with no destination only changes the stake's state.
const paysOut = (view: ActionView): boolean => view.activities.includes("unstake") && view.moves.some((m) => m.to !== null && m.amount !== null);

export const inScope = (scope: CapScope, view: ActionView): boolean => {
  const acts = SCOPE_ACTS[scope];
  return acts === null || view.activities.some((a) => acts.includes(a)) || (scope === "transfer" && paysOut(view));
};

export interface Item {
  what: string;
  /** The token whose price a USD figure needs, for saying what is missing. */
  asset?: string | null;
  value: number | null;
  /** The value assumes a fill at the mark; a market order may fill worse. */
  atMark: boolean;
}

/** The figures of the action a cap in `unit` measures. */
export function measure(view: ActionView, unit: string, ctx: Ctx): Item[] {
  const items: Item[] = [];
  // A figure with several readings is measured reading by reading (checks/readings.ts); measured as itself it has
  // no value, so a reader that forgets its readings holds the action rather than passing it.
  if (unit === OPEN_UNIT || unit === OWN_UNIT) return [{ what: "the amount this action moves", value: null, atMark: false }];
  const isUsd = unit === "USD";
  const stableUnit = USD_STABLES.has(unit);
  for (const o of view.orders) {
    if (unit === "SHARES") {
      if (o.marketType === "prediction") items.push({ what: "the order's shares", value: o.size === null ? null : Math.abs(o.size), atMark: false });
      continue;
    }
    if (isUsd || (stableUnit && (o.marketType === "prediction" || o.asset !== unit))) {
      items.push({ what: `the ${o.asset ?? ""} order's notional`.replace("the  ", "the "), value: o.notionalUsd, atMark: o.notionalAtMark, asset: o.asset });
    } else if (o.asset === unit) items.push({ what: `the ${unit} order size`, value: o.size === null ? null : Math.abs(o.size), atMark: false });
  }
  if (view.swap) {
    const s = view.swap;
    if (isUsd) items.push({ what: `the swap's value (${s.sellAmount ?? "?"} ${s.sellAsset ?? "?"})`, value: s.sellUsd, atMark: false, asset: s.sellAsset });
    else if (s.sellAsset === unit) items.push({ what: `the ${unit} sold`, value: s.sellAmount, atMark: false });
    else if (stableUnit && s.sellAsset && USD_STABLES.has(s.sellAsset)) items.push({ what: `the ${s.sellAsset} sold`, value: s.sellAmount, atMark: false });
    // "6000 USDC a day" over SOL <-> USDC swaps: a swap into the stablecoin is sized in it too, by the value sold
    // (before, a SOL -> USDC swap was measured by nothing and passed every USDC cap unchecked).
    else if (stableUnit && s.buyAsset && USD_STABLES.has(s.buyAsset))
      items.push({ what: `the swap's value (${s.sellAmount ?? "?"} ${s.sellAsset ?? "?"})`, value: s.sellUsd, atMark: false, asset: s.sellAsset });
  }
  for (const m of view.moves) {
    if (isUsd) {
      const v = m.usd ?? (m.amount !== null ? (priceOf(m.asset, ctx) ?? NaN) * m.amount : null);
      items.push({ what: `the value of ${m.amount ?? "?"} ${m.asset ?? "?"}`, value: v === null || Number.isNaN(v) ? null : v, atMark: false, asset: m.asset });
    } else if (m.asset === unit || (stableUnit && m.asset && USD_STABLES.has(m.asset))) items.push({ what: `the ${m.asset} amount`, value: m.amount, atMark: false });
  }
  // The adapter gave only a total (a margin top-up, a vault move): measure that rather than nothing.
  const described = view.orders.length > 0 || view.moves.length > 0 || view.swap !== null;
  if (described) return items;
  // A stablecoin is a dollar everywhere in the engine (priceOf): a borrow of USDC valued at $3,000 is 3,000 USDC.
  const allStable = view.assets.length > 0 && view.assets.every((a) => USD_STABLES.has(a));
  if (items.length === 0 && view.notionalUsd !== null && (isUsd || (stableUnit && allStable)) && view.activities.some((a) => VALUE_MOVING.includes(a)))
    items.push({ what: isUsd ? "the action's value" : `the ${view.assets.join("/")} amount`, value: view.notionalUsd, atMark: false });
  else if (items.length === 0 && view.activities.some((a) => VALUE_MOVING.includes(a)) && (isUsd || view.assets.length === 0 || view.assets.includes(unit)))
    items.push({ what: "the amount this action moves", value: null, atMark: false });
  return items;
}

const VALUE_MOVING: Activity[] = ["transfer", "withdrawal", "payment", "bridge", "vault_deposit", "supply", "stake", "delegate", "swap", "order", "margin", "borrow", "redeem", "vault_withdraw", "repay"];

const fmtQ = (v: number, q: Quantity): string => qty(v, q.unit);

/** Per-action caps. A limit given as a share of a context figure is resolved first. */
export function checkCap(capIn: Cap, view: ActionView, ctx: Ctx): Finding[] {
  let c = capIn;
  if (c.limitOf) {
    if (!inScope(c.scope, view)) return [];
    const path = describedPath(ctx, c.limitOf.path);
    const base = path === null ? null : num(atPath(ctx, path));
    if (base === null) return [{ type: "unknown", message: `The context does not give ${c.limitOf.path}, so the ${c.limitOf.pct}% limit ("${c.rule}") cannot be computed.` }];
    c = { ...c, limit: { value: (base * c.limitOf.pct) / 100, unit: "USD" } };
  }
  if (isOpen(c.limit)) return capByReadings(c, view, (k) => checkCap(k, view, ctx));
  if (c.period !== "action") return checkCumulative(c, view, ctx);
  if (!inScope(c.scope, view)) return [];
  // An exception's own cap ("except a top-up of at most 0.01 SOL to context.x") counts only the moves to its recipients.
  if (c.to) {
    const to = c.to;
    const allowed = new Set([...to.values, ...(to.refs ?? []).flatMap((r) => addressesIn(atPath(ctx, r)))].flatMap((a) => [a, ...aliasesOf(a, ctx)]).map(normAddr));
    const moves = view.moves.filter((m) => m.to === null || allowed.has(normAddr(m.to)));
    if (moves.length === 0) return [];
    view = { ...view, moves, orders: [], swap: null };
  }
  if (c.activities && !view.activities.some((a) => c.activities!.includes(a))) return [];
  const out: Finding[] = unattributed(c, view);
  if (otherSide(c, view)) return out;
  const limit = fmtQ(c.limit.value, c.limit);
  out.push(...approvalOverCap(c, view, ctx, limit));
  for (const it of measure(view, c.limit.unit, ctx)) {
    if (it.value === null) {
      out.push({ type: "unknown", message: `${cap1(it.what)} cannot be computed (${missingWhy(it, c.limit.unit, ctx)}), so the ${limit} cap ("${c.rule}") cannot be checked.` });
      continue;
    }
    const v = it.value;
    if (v > c.limit.value + 1e-9) out.push({ type: "violation", message: `${cap1(it.what)} is ${fmtQ(v, c.limit)}, above the ${limit} cap ("${c.rule}").` });
    else if (c.strict && Math.abs(v - c.limit.value) <= 1e-9)
      out.push({ type: "unknown", message: `${cap1(it.what)} is exactly ${limit}, and "${c.rule}" asks for less than that.` });
    else if (it.atMark && v * 1.05 > c.limit.value)
      out.push({ type: "unknown", message: `${cap1(it.what)} is about ${fmtQ(v, c.limit)} at the current price, close enough to the ${limit} cap that a market fill could exceed it.` });
  }
  return out;
}

/**
 * "approve the router ... for at most 20,000 USDC per approval": a cap written in a clause about approvals bounds
 * the allowance granted (an unlimited one is over any cap in its token). Only ever adds a violation: an allowance in
 * another token than the cap's (the clause's other cap, "or 12 WETH", measures it) or of unknown size adds nothing.
 */
function approvalOverCap(c: Cap, view: ActionView, ctx: Ctx, limit: string): Finding[] {
  if (!view.approvals.length || !/\b(?:approv(?:e|es|ing|als?)|allowances?)\b/i.test(c.rule)) return [];
  const out: Finding[] = [];
  for (const a of view.approvals) {
    const mine = a.token === c.limit.unit || (USD_STABLES.has(c.limit.unit) && !!a.token && USD_STABLES.has(a.token));
    const v = a.unlimited ? (mine ? Infinity : null) : sizeIn(a, c.limit.unit, ctx);
    if (v !== null && v > c.limit.value + 1e-9) out.push({ type: "violation", message: `The approval of ${a.unlimited ? "an unlimited amount of" : a.amount} ${a.token} is above the ${limit} cap ("${c.rule}").` });
  }
  return out;
}

const cap1 = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** Why a figure is missing, in words a person can fix: usually a price the context does not give. */
function missingWhy(it: Item, unit: string, ctx: Ctx): string {
  if (unit === "USD" && it.asset && priceOf(it.asset, ctx) === null)
    return ctx && !pricesFresh(ctx) ? `the context's prices are more than an hour older than its clock` : `the context gives no ${it.asset} price`;
  return "the facts do not give the amount";
}

function counterFor(c: Cap, view: ActionView, ctx: Ctx): { path: string; value: number } | null | "n/a" {
  if (c.counterRef) {
    const v = num(atPath(ctx, c.counterRef));
    return v === null ? null : { path: c.counterRef.replace(/^context\./, ""), value: v };
  }
  const unit = c.limit.unit.toLowerCase();
  const unitRe = c.limit.unit === "USD" ? /usd|usdc|dollar|notional|value/i : new RegExp(unit, "i");
  const subject = c.subject ?? "spent";
  if (/stak|delegat/.test(subject)) {
    // Moving tokens into staking (Hyperliquid's cDeposit) does not delegate them: a total of what is delegated
    // grows only by delegating; a total of what is staked grows by either.
    const grows: Activity[] = /delegat/.test(subject) && !/stak/.test(subject) ? ["delegate"] : ["stake", "delegate"];
    if (!view.activities.some((a) => grows.includes(a))) return "n/a";
    // The figure's own name says what it counts: under `staking: {delegated_hype, spot_hype}` the total delegated is
    // `delegated_hype`, never the shorter `spot_hype` that only sits under the same parent.
    const not = [/undelegat|unstak|pending|available|withdraw|reward|unbond/i, /(?:^|\.)[^.]*(?:spot|perp|free|wallet|cash)[^.]*$/i];
    const leaf = /delegat/.test(subject) ? /(?:^|\.)[^.]*delegat[^.]*$/i : /(?:^|\.)[^.]*stak[^.]*$/i;
    return (
      findCounter(ctx, [leaf, unitRe], not) ??
      findCounter(ctx, [leaf], not) ??
      findCounter(ctx, [/stak|delegat/i, unitRe], not) ??
      findCounter(ctx, [/stak|delegat/i], not)
    );
  }
  // A debt total with no path named: the one figure of outstanding debt the context gives, in dollars.
  // Two such figures and neither is taken (the smaller would let more through).
  if (subject === "debt" && c.period === "total") {
    const path = describedPath(ctx, "~debt");
    const v = path === null ? null : num(atPath(ctx, path));
    return path === null || v === null ? null : { path: path.replace(/^context\./, ""), value: v };
  }
  const periodRe = c.period === "day" ? /today|day|daily|24\s?h/i : c.period === "week" ? /week|7d/i : c.period === "month" ? /month|30d/i : null;
  const spendRe = /spen[dt]|paid|payments?|used|usage|volume|sent|outflow|notional|traded|bets?|wager/i;
  const must = periodRe ? [spendRe, periodRe] : [spendRe, /total|cumulative|lifetime|so_?far/i];
  // A limit or what is left of it is not what has been spent ("daily_limit_usd", "remaining_today").
  const not = [/limit|\bcap\b|_cap|max|remaining|left|allowance|price/i];
  return findCounter(ctx, [...must, unitRe], not) ?? findCounter(ctx, must, not);
}

/** Actions that only take value out of a place: they can lower what is held there, never raise it. */
const REDUCING: Activity[] = ["withdrawal", "redeem", "vault_withdraw", "unstake", "undelegate"];
/** Actions that cannot raise a debt or lower the collateral behind it. */
const DEBT_SAFE: Activity[] = ["supply", "repay", "vault_deposit"];
/** A running total of what is held somewhere ("context.aave.supplied_usd", "staked_hype"), not of what was spent. */
const HOLDING_TOTAL = /suppl|deposit|staked|delegated|held|holding|in_?aave|in_?vault|position|exposure/i;

/** Daily/weekly budgets and totals: counter from context + this action, against the limit. */
function checkCumulative(c: Cap, view: ActionView, ctx: Ctx): Finding[] {
  if (!inScope(c.scope, view)) return [];
  // "Keep the total we have in Aave at most $1.5m": a withdrawal (even of everything) only lowers it.
  const holding = c.period === "total" && HOLDING_TOTAL.test(`${c.counterRef ?? ""} ${c.subject ?? ""}`) && !/spen[dt]|paid|sent|outflow|traded/i.test(c.counterRef ?? "");
  if (holding && view.activities.length > 0 && view.activities.every((a) => REDUCING.includes(a))) return [];
  // A cap on debt: supplying collateral or repaying only improves it (a withdrawal of collateral may not, so it stays checked).
  if (/debt|borrow/i.test(`${c.counterRef ?? ""} ${c.subject ?? ""}`) && view.activities.length > 0 && view.activities.every((a) => DEBT_SAFE.includes(a))) return [];
  const limit = fmtQ(c.limit.value, c.limit);
  if (c.subject && /position|exposure|holding/.test(c.subject)) return checkPosition(c, view, ctx);
  const items = measure(view, c.limit.unit, ctx).filter((i) => !(view.orders.length && i.value !== null && view.orders.every((o) => o.reduceOnly)));
  if (items.length === 0) return [];
  if (items.some((i) => i.value === null))
    return [{ type: "unknown", message: `The value of this action cannot be computed, so the ${limit} budget ("${c.rule}") cannot be checked.` }];
  const counter = counterFor(c, view, ctx);
  if (counter === "n/a") return [];
  const period = c.period === "total" ? "total" : `per-${c.period}`;
  if (!counter) return [{ type: "unknown", message: `The context gives no ${c.period === "total" ? "running total" : `${c.period}'s spend so far`}, so the ${limit} ${period} limit ("${c.rule}") cannot be verified.` }];
  const add = items.reduce((s, i) => s + (i.value ?? 0), 0);
  const after = counter.value + add;
  if (after > c.limit.value + 1e-9)
    return [{ type: "violation", message: `${fmtQ(counter.value, c.limit)} so far (${counter.path}) plus ${fmtQ(add, c.limit)} now makes ${fmtQ(after, c.limit)}, above the ${limit} ${period} limit ("${c.rule}").` }];
  if (c.strict && Math.abs(after - c.limit.value) <= 1e-9) return [{ type: "unknown", message: `The ${period} total would be exactly ${limit}, and "${c.rule}" asks for less.` }];
  return [];
}

function checkPosition(c: Cap, view: ActionView, ctx: Ctx): Finding[] {
  const out: Finding[] = [];
  for (const o of view.orders) {
    if (o.reduceOnly || !o.asset) continue;
    // No positions in the context at all is a missing fact; a positions map without this asset means none.
    if (!ctx || typeof ctx.positions !== "object" || ctx.positions === null) {
      out.push({ type: "unknown", message: `The context gives no current positions, so "${c.rule}" cannot be checked.` });
      continue;
    }
    const pos = positionSize(o.asset, ctx) ?? 0;
    const delta = (o.side === "sell" ? -1 : 1) * (o.size ?? NaN);
    const after = Math.abs(pos + delta);
    const px = c.limit.unit === "USD" ? (priceOf(o.asset, ctx) ?? o.price) : 1;
    if (c.limit.unit !== "USD" && c.limit.unit !== o.asset) continue;
    if (!Number.isFinite(after) || px === null) {
      out.push({ type: "unknown", message: `The resulting ${o.asset} position cannot be computed, so "${c.rule}" cannot be checked.` });
      continue;
    }
    const v = after * px;
    if (v > c.limit.value + 1e-9) out.push({ type: "violation", message: `The ${o.asset} position would be ${fmtQ(v, c.limit)}, above the ${fmtQ(c.limit.value, c.limit)} limit ("${c.rule}").` });
  }
  return out;
}

// A human line on withdrawals also holds a withdrawal from a lending pool or vault (the adapters call it a redeem):
// "any supply or withdrawal of 40 WETH or more must be cleared by the CFO" had let a 40 WETH Aave withdraw through.
const LINE_EXTRA: Partial<Record<CapScope, Activity[]>> = { transfer: ["redeem", "vault_withdraw"] };

export function checkEscalateAbove(c: Extract<Constraint, { kind: "escalate_above" }>, view: ActionView, ctx: Ctx): Finding[] {
  if (!inScope(c.scope, view) && !view.activities.some((a) => LINE_EXTRA[c.scope]?.includes(a))) return [];
  // A line on withdrawals ("Withdrawals above 500 ...") does not hold a deposit into a pool or vault.
  if (c.exempt && view.activities.length > 0 && view.activities.every((a) => c.exempt?.includes(a))) return [];
  if (isOpen(c.limit)) return lineByReadings(c, view, (k) => checkEscalateAbove(k, view, ctx));
  if (c.activities && !view.activities.some((a) => c.activities!.includes(a))) return [];
  const out: Finding[] = [];
  const limit = fmtQ(c.limit.value, c.limit);
  const items = measure(view, c.limit.unit, ctx);
  for (const it of items) {
    if (it.value === null) {
      out.push({ type: "unknown", message: `${cap1(it.what)} cannot be computed, so "${c.rule}" cannot be applied.` });
      continue;
    }
    const over = c.inclusive ? it.value >= c.limit.value : it.value > c.limit.value + 1e-9;
    if (over) out.push({ type: "escalate", message: `${cap1(it.what)} is ${fmtQ(it.value, c.limit)}, above ${limit}, and "${c.rule}".` });
  }
  // "if one multicall moves more than 1,500 USDC in total, ping me": a line drawn on the whole action holds a batch
  // whose parts are each under it, so splitting one large move into small calls never avoids the human.
  if (out.length === 0 && items.length > 1 && items.every((it) => it.value !== null) && WHOLE_ACTION.test(c.rule)) {
    const sum = items.reduce((a, it) => a + (it.value as number), 0);
    if (c.inclusive ? sum >= c.limit.value : sum > c.limit.value + 1e-9)
      out.push({ type: "escalate", message: `Together the ${items.length} parts of this action come to ${fmtQ(sum, c.limit)}, above ${limit}, and "${c.rule}".` });
  }
  return out;
}

const WHOLE_ACTION = /\b(?:in total|total(?:ling|ing)?|combined|together|altogether|in aggregate|aggregate|all in|summed|multicalls?|batch(?:es|ed)?|bundles?|one (?:transaction|tx|call)|a single (?:transaction|tx))\b/i;

export function checkSlippage(c: Extract<Constraint, { kind: "slippage_cap" }>, view: ActionView, ctx: Ctx): Finding[] {
  const s = view.swap;
  if (!s || !view.activities.includes("swap")) return orderSlippage(c, view, ctx);
  let bps = s.slippageBps;
  if ((bps === null || bps === undefined) && s.sellUsd !== null && s.buyUsdMin !== null && s.sellUsd > 0) bps = ((s.sellUsd - s.buyUsdMin) / s.sellUsd) * 10_000;
  if (bps === null || bps === undefined)
    return [{ type: "unknown", message: `The swap's slippage cannot be computed (prices for both tokens are needed), so "${c.rule}" cannot be checked.` }];
  if (bps > c.bps + 1e-6) return [{ type: "violation", message: `The swap allows ${(bps / 100).toFixed(2)}% slippage (${Math.round(bps)} bps), above the ${c.bps} bps cap ("${c.rule}").` }];
  return [];
}

/** A market-like order's worst price against the mark: a buy at 5% above the mark accepts 5% slippage. */
function orderSlippage(c: Extract<Constraint, { kind: "slippage_cap" }>, view: ActionView, ctx: Ctx): Finding[] {
  const out: Finding[] = [];
  for (const o of view.orders) {
    if (!o.isMarketLike || o.marketType === "prediction") continue;
    const mark = o.asset ? priceOf(o.asset, ctx) : null;
    if (o.price === null || mark === null) {
      out.push({ type: "unknown", message: `The ${o.asset ?? ""} market order's worst price against the current price is unknown, so "${c.rule}" cannot be checked.`.replace("  ", " ") });
      continue;
    }
    const bps = ((o.side === "sell" ? mark - o.price : o.price - mark) / mark) * 10_000;
    if (bps > c.bps + 1e-6) out.push({ type: "violation", message: `The ${o.asset} order's limit of ${o.price} is ${(bps / 100).toFixed(2)}% from the ${mark} price, above the ${c.bps} bps slippage cap ("${c.rule}").` });
  }
  return out;
}

export function checkLeverage(c: Extract<Constraint, { kind: "leverage_cap" | "leverage_escalate" | "no_leverage_increase" }>, view: ActionView, ctx: Ctx): Finding[] {
  if (c.kind === "leverage_escalate") {
    if (!view.leverage || view.leverage.value <= c.above + 1e-9) return [];
    return [{ type: "escalate", message: `Setting ${view.leverage.asset ?? "the"} leverage to ${view.leverage.value}x is above ${c.above}x, and "${c.rule}".` }];
  }
  if (c.kind === "no_leverage_increase") {
    if (!view.leverage) return [];
    const cur = view.leverage.asset ? currentLeverage(view.leverage.asset, ctx) : null;
    if (cur === null) return [{ type: "unknown", message: `The current ${view.leverage.asset ?? ""} leverage is not in the context, so "${c.rule}" cannot be checked.` }];
    return view.leverage.value > cur ? [{ type: "violation", message: `Raising ${view.leverage.asset} leverage from ${cur}x to ${view.leverage.value}x breaks "${c.rule}".` }] : [];
  }
  const max = Math.round(c.max * 1e6) / 1e6;
  // A cap for some assets only: an asset it does not cover is not held to it (an unknown asset is, to be safe).
  const covers = (asset: string | null): boolean =>
    !asset || ((!c.assets || c.assets.includes(asset.toUpperCase())) && !(c.except ?? []).includes(asset.toUpperCase()));
  if (view.leverage) {
    if (!covers(view.leverage.asset)) return [];
    return view.leverage.value > c.max + 1e-9
      ? [{ type: "violation", message: `Setting ${view.leverage.asset ?? ""} leverage to ${view.leverage.value}x exceeds the ${max}x maximum ("${c.rule}").`.replace("  ", " ") }]
      : [];
  }
  const out: Finding[] = [];
  for (const o of view.orders) {
    if (!o.asset || o.reduceOnly || o.marketType === "prediction" || o.marketType === "spot" || !covers(o.asset)) continue;
    const cur = currentLeverage(o.asset, ctx);
    if (cur !== null && cur > c.max + 1e-9) out.push({ type: "violation", message: `The ${o.asset} position runs at ${cur}x leverage, above the ${max}x maximum ("${c.rule}").` });
  }
  return out;
}

