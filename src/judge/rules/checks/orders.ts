/**
 * Order-shape checks (side, reduce-only, order type / time-in-force) and approval shape (exact amounts).
 */
import type { ActionView, Constraint, Finding, OrderView } from "../types";
import { atPath, canonSym, normAddr, num, positionSize } from "../context";
import { oversizedApproval } from "./approval-bounds";

type Ctx = Record<string, unknown> | null;

const desc = (o: OrderView): string =>
  [o.side, o.size, o.asset, o.reduceOnly ? "reduce-only" : null, o.trigger ? "trigger" : o.tif ? o.tif.toUpperCase() : null].filter((x) => x !== null && x !== undefined).join(" ");

export function checkSide(c: Extract<Constraint, { kind: "side" }>, view: ActionView, ctx: Ctx): Finding[] {
  const out: Finding[] = [];
  if (c.allowed === "buy" || c.allowed === "sell") {
    for (const o of view.orders) {
      if (o.side === null) out.push({ type: "unknown", message: `The order's side is unknown, so "${c.rule}" cannot be checked.` });
      else if (o.side !== c.allowed) {
        // A reduce-only sell closes a position rather than selling inventory; whether the rule covers it is unclear.
        if (c.escalate) out.push({ type: "escalate", message: `The ${desc(o)} order is a ${o.side}, which "${c.rule}" holds for the owner.` });
        else if (o.reduceOnly) out.push({ type: "unknown", message: `The ${desc(o)} order closes a position; whether "${c.rule}" covers that is unclear.` });
        else out.push({ type: "violation", message: `The ${desc(o)} order is a ${o.side}, which "${c.rule}" does not allow.` });
      }
    }
    const s = view.swap;
    if (s && view.activities.includes("swap")) {
      // Selling X for a stablecoin is a sell of X; buying X with a stablecoin is a buy.
      const sideOf = s.buyAsset && /^(USDC|USDT|DAI|USD)$/.test(s.buyAsset) ? "sell" : s.sellAsset && /^(USDC|USDT|DAI|USD)$/.test(s.sellAsset) ? "buy" : null;
      if (sideOf === null) out.push({ type: "unknown", message: `Whether this swap is a buy or a sell under "${c.rule}" is unclear.` });
      else if (sideOf !== c.allowed) out.push({ type: "violation", message: `This swap is a ${sideOf}, which "${c.rule}" does not allow.` });
    }
    return out;
  }
  const opening = c.allowed === "long" ? "sell" : "buy";
  for (const o of view.orders) {
    if (o.marketType === "prediction" || o.marketType === "spot" || o.reduceOnly) continue;
    // "longs only on HYPE": other coins are free of it; an order whose coin is unknown may be on HYPE.
    if (c.assets && o.asset && !c.assets.includes(o.asset)) continue;
    if (c.assets && !o.asset) {
      out.push({ type: "unknown", message: `The order's asset is unknown, so whether "${c.rule}" covers it cannot be told.` });
      continue;
    }
    if (o.side === null) {
      out.push({ type: "unknown", message: `The order's side is unknown, so "${c.rule}" cannot be checked.` });
      continue;
    }
    if (o.side !== opening) continue;
    // A sell no larger than the long context.positions shows only trims it: it cannot leave the account short.
    const pos = o.asset ? positionSize(o.asset, ctx) : null;
    const closes = pos !== null && o.size !== null && (c.allowed === "long" ? pos >= o.size : -pos >= o.size);
    // Without the owner saying trims are fine ("selling down my long is fine"), a non-reduce-only trim is held:
    // "sells: reduce-only, always (no shorts)" may mean the flag itself, which no reader may have taken.
    if (closes && !c.trimOk) out.push({ type: "unknown", message: `The ${desc(o)} order is not reduce-only; it may only trim the existing position, but "${c.rule}" leaves that unclear.` });
    else if (!closes && c.escalate) out.push({ type: "escalate", message: `The ${desc(o)} order could open a ${c.allowed === "long" ? "short" : "long"} position, which "${c.rule}" holds for the owner.` });
    else if (!closes) out.push({ type: "violation", message: `The ${desc(o)} order could open a ${c.allowed === "long" ? "short" : "long"} position, which "${c.rule}" forbids.` });
  }
  return out;
}

export function checkReduceOnly(c: Extract<Constraint, { kind: "reduce_only" }>, view: ActionView, ctx: Ctx = null): Finding[] {
  const out: Finding[] = [];
  for (const o of view.orders) {
    if (o.reduceOnly || o.marketType === "prediction") continue;
    if (c.appliesTo === "exits") {
      // Whether this order closes a position is a fact from context.positions. Without any positions, a buy is read
      // as an entry (a short to cover would have to be shown), but a sell may be the exit of a long nobody listed:
      // a human decides. This is how the labelled sets read "exits must be reduce-only".
      if (!o.asset) {
        out.push({ type: "unknown", message: `The order's asset is unknown, so whether it closes a position (and must then be reduce-only, "${c.rule}") is unknown.` });
        continue;
      }
      const all = ctx?.positions;
      if ((all === undefined || all === null) && o.side !== "buy") {
        out.push({ type: "unknown", message: `The context gives no positions, so whether the ${desc(o)} order closes one (and must then be reduce-only, "${c.rule}") is unknown.` });
        continue;
      }
      const entry = all && typeof all === "object" && !Array.isArray(all) ? (all as Record<string, unknown>)[o.asset] : undefined;
      const readable = all === undefined || all === null || (typeof all === "object" && !Array.isArray(all) && (entry === undefined || positionSize(o.asset, ctx) !== null));
      if (!readable) {
        out.push({ type: "unknown", message: `The context's positions cannot be read for ${o.asset}, so whether the ${desc(o)} order closes one (and must then be reduce-only, "${c.rule}") is unknown.` });
        continue;
      }
      const pos = positionSize(o.asset, ctx) ?? 0;
      const closes = (pos > 0 && o.side === "sell") || (pos < 0 && o.side === "buy");
      if (closes) out.push({ type: "violation", message: `The ${desc(o)} order closes part of the ${o.asset} position but is not reduce-only, and "${c.rule}".` });
      continue;
    }
    if (c.appliesTo !== "all" && o.side !== c.appliesTo) continue;
    out.push({ type: "violation", message: `The ${desc(o)} order is not reduce-only, but "${c.rule}".` });
  }
  return out;
}

const TYPES = new Set(["limit", "market", "trigger", "twap"]);

/** The order's type for the rule's vocabulary: a trigger that fills at a limit counts as a limit order. */
function typesOf(o: OrderView): string[] {
  const t: string[] = [];
  if (o.orderType) t.push(o.orderType);
  if (o.trigger) t.push(o.isMarketLike ? "market" : "limit");
  if (o.orderType === "market" || o.isMarketLike) t.push("market");
  return [...new Set(t)];
}

export function checkOrderType(c: Extract<Constraint, { kind: "order_type" }>, view: ActionView): Finding[] {
  const out: Finding[] = [];
  const allowTypes = c.allow.filter((x) => TYPES.has(x));
  const allowTifs = c.allow.filter((x) => !TYPES.has(x));
  for (const o of view.orders) {
    const problems: string[] = [];
    const types = typesOf(o);
    // "anything bigger than $1,000 goes through a TWAP": smaller orders are free of it; an unknown size is not.
    if (c.above !== undefined) {
      if (o.notionalUsd === null) {
        out.push({ type: "unknown", message: `The order's notional is unknown, so whether "${c.rule}" binds it cannot be told.` });
        continue;
      }
      if (o.notionalUsd <= c.above) continue;
    }
    if (o.orderType === null && !o.tif) {
      out.push({ type: "unknown", message: `The order type is not known, so "${c.rule}" cannot be checked.` });
      continue;
    }
    if (allowTypes.length && types.includes("market") && !allowTypes.includes("market")) problems.push("it executes at market");
    else if (allowTypes.length && !types.some((t) => allowTypes.includes(t))) problems.push(`it is a ${types.join("/")} order`);
    if (allowTifs.length && !o.trigger) {
      if (!o.tif) problems.push("its time-in-force is not stated");
      else if (!allowTifs.includes(o.tif)) problems.push(`its time-in-force is ${o.tif.toUpperCase()}`);
    }
    if (allowTifs.length && !allowTypes.length && o.trigger) problems.push("it is a trigger order");
    else if (allowTifs.length && o.trigger && problems.length === 0 && !c.deny.length) {
      // A trigger order carries no time-in-force: whether a rule naming TIFs covers it is for a human to say.
      out.push({ type: "unknown", message: `The ${desc(o)} trigger order has no time-in-force, and "${c.rule}" names the allowed ones; whether it covers trigger orders is unclear.` });
      continue;
    }
    for (const d of c.deny) {
      if (TYPES.has(d) ? types.includes(d) : o.tif === d) problems.push(d === "market" ? "it executes at market" : `its time-in-force is ${d.toUpperCase()}`);
    }
    if (problems.length === 0) continue;
    const msg = `The ${desc(o)} order breaks "${c.rule}": ${[...new Set(problems)].join("; ")}.`;
    // "Entries must be ..." does not clearly cover reduce-only exits such as a stop-loss.
    if (c.escalate) out.push({ type: "escalate", message: `The ${desc(o)} order is of a type the owner decides ("${c.rule}"): ${[...new Set(problems)].join("; ")}.` });
    else if (c.appliesTo === "entries" && o.reduceOnly)
      out.push({ type: "unknown", message: `The ${desc(o)} exit would break "${c.rule}" if the rule covers exits as well as entries; that is unclear.` });
    else out.push({ type: "violation", message: msg });
  }
  return out;
}

/** A share pays out $1: the cap binds the limit price of each prediction-market order it covers. */
export function checkPriceCap(c: Extract<Constraint, { kind: "price_cap" }>, view: ActionView): Finding[] {
  const out: Finding[] = [];
  for (const o of view.orders) {
    if (o.marketType !== "prediction" || (c.side === "buy" && o.side === "sell")) continue;
    if (c.side === "buy" && o.side === null) out.push({ type: "unknown", message: `The order's side is unknown, so "${c.rule}" cannot be checked.` });
    else if (o.price === null)
      out.push({ type: "unknown", message: `The ${desc(o)} order carries no limit price, so "${c.rule}" cannot be checked.` });
    else if (c.strict ? o.price >= c.max - 1e-9 : o.price > c.max + 1e-9)
      out.push({ type: "violation", message: `The ${desc(o)} order's price of $${o.price} a share is above the $${c.max} price cap ("${c.rule}").` });
  }
  return out;
}

function pendingAmount(ctx: Ctx): { token: string | null; amount: number } | null {
  for (const key of ["pending_swap", "pendingSwap", "pending", "next_swap", "swap"]) {
    const p = atPath(ctx, key);
    if (!p || typeof p !== "object") continue;
    const r = p as Record<string, unknown>;
    const amount = num(r.amountIn ?? r.amount_in ?? r.amount ?? r.sellAmount);
    if (amount !== null) return { token: canonSym(String(r.tokenIn ?? r.token_in ?? r.sell ?? r.token ?? "")) || null, amount };
  }
  return null;
}

export function checkApprovalExact(c: Extract<Constraint, { kind: "approval_exact" }>, view: ActionView, ctx: Ctx, cs: Constraint[] = []): Finding[] {
  const out: Finding[] = [];
  for (const a of view.approvals) {
    if (a.unlimited) {
      out.push({ type: "violation", message: `The approval of ${a.token ?? "a token"} to ${a.spender ?? "?"} is unlimited, but "${c.rule}".` });
      continue;
    }
    if (!c.exact) continue;
    // Exact amount of the swap in the same batch, else of what the same batch hands the spender (a stake into the
    // pool it approves: "approve exactly the amount you're staking"), else of the pending swap named in context.
    const handed = !view.swap && a.spender ? view.moves.find((m) => m.to && normAddr(m.to) === normAddr(a.spender as string) && m.asset === a.token && m.amount !== null) : undefined;
    const target =
      view.swap && view.swap.sellAsset === a.token && view.swap.sellAmount !== null
        ? { token: view.swap.sellAsset, amount: view.swap.sellAmount }
        : handed
          ? { token: handed.asset, amount: handed.amount as number }
          : c.pendingRef || !view.swap
            ? pendingAmount(ctx)
            : null;
    // No swap to compare with: one larger than every action it could serve is exact for none (approval-bounds.ts).
    const oversized = !target && !view.swap && a.amount !== null ? oversizedApproval(a, cs, ctx, c.rule) : [];
    if (oversized.length) {
      out.push(...oversized);
      continue;
    }
    if (!target) {
      out.push({ type: "unknown", message: `There is no pending swap amount in the context to compare the ${a.token} approval with ("${c.rule}").` });
      continue;
    }
    if (a.amount === null) out.push({ type: "unknown", message: `The approved amount is unknown, so "${c.rule}" cannot be checked.` });
    else if ((target.token && a.token && target.token !== a.token) || Math.abs(a.amount - target.amount) > 1e-9 * Math.max(1, target.amount))
      out.push({ type: "violation", message: `The approval is for ${a.amount} ${a.token}, not the exact ${target.amount} ${target.token ?? ""} ${handed ? "the same batch hands the spender" : "of the pending swap"} ("${c.rule}").` });
  }
  return out;
}

/** "a TWAP must run at least 20 minutes": binds TWAP orders only. */
export function checkTwapDuration(c: Extract<Constraint, { kind: "twap_duration" }>, view: ActionView): Finding[] {
  const out: Finding[] = [];
  for (const o of view.orders) {
    if (o.orderType !== "twap") continue;
    const m = o.minutes ?? null;
    if (m === null) out.push({ type: "unknown", message: `The TWAP's duration is not known, so "${c.rule}" cannot be checked.` });
    else if (c.min !== undefined && m < c.min) out.push({ type: "violation", message: `The TWAP runs ${m} minutes, shorter than the ${c.min} minutes of "${c.rule}".` });
    else if (c.max !== undefined && m > c.max) out.push({ type: "violation", message: `The TWAP runs ${m} minutes, longer than the ${c.max} minutes of "${c.rule}".` });
  }
  return out;
}
