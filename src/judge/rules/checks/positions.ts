/**
 * Position rules (parse/positions.ts): what an order does to the position it meets. The position is a fact from
 * context.positions; an order on an asset absent from a readable positions map meets no position. When the rule
 * needs a position the context does not give (or gives in a shape not read here), a human decides: never a guess.
 */
import type { ActionView, Constraint, Finding, OrderView } from "../types";
import { atPath, num, positionSize, priceOf } from "../context";

type Ctx = Record<string, unknown> | null;
type Rule = Extract<Constraint, { kind: "position_rule" }>;

const desc = (o: OrderView): string => [o.side, o.size, o.asset, o.reduceOnly ? "reduce-only" : null].filter((x) => x !== null && x !== undefined).join(" ");

/** The signed position in `asset` (0 when a readable map does not list it), or null when it cannot be known. */
function positionIn(asset: string, ctx: Ctx): number | null {
  const all = ctx?.positions;
  if (!all || typeof all !== "object" || Array.isArray(all)) return null;
  if ((all as Record<string, unknown>)[asset] === undefined) return 0;
  return positionSize(asset, ctx);
}

/** Whether the position in `asset` is losing: its unrealised PnL, else its entry price against the mark. */
function losing(asset: string, pos: number, ctx: Ctx): boolean | null {
  const p = atPath(ctx, `positions.${asset}`);
  if (p && typeof p === "object") {
    const r = p as Record<string, unknown>;
    const pnl = num(r.unrealizedPnl ?? r.unrealized_pnl ?? r.pnl ?? r.upnl);
    if (pnl !== null) return pnl < 0;
    const entry = num(r.entryPx ?? r.entry_price ?? r.entryPrice ?? r.entry ?? r.avg_price ?? r.avgPrice);
    const mark = num(r.markPx ?? r.mark_price ?? r.markPrice) ?? priceOf(asset, ctx);
    if (entry !== null && mark !== null) return pos > 0 ? mark < entry : mark > entry;
  }
  return null;
}

const WHAT: Record<Rule["forbids"], string> = { close: "closes or reduces", flip: "flips", add_losing: "adds to" };

export function checkPositionRule(c: Rule, view: ActionView, ctx: Ctx): Finding[] {
  const out: Finding[] = [];
  for (const o of view.orders) {
    // A reduce-only order only closes: it is the one thing "never close" forbids, and it can neither flip nor add.
    if (o.reduceOnly) {
      if (c.forbids === "close") out.push({ type: "violation", message: `The ${desc(o)} order closes part of a position, which "${c.rule}" forbids.` });
      continue;
    }
    if (o.marketType === "prediction") {
      // Shares: a sell gets out of a holding; a buy adds to one whose loss the context rarely states.
      if (c.forbids === "close" && o.side !== "buy") out.push({ type: o.side === "sell" ? "violation" : "unknown", message: `The ${desc(o)} order sells shares held, which "${c.rule}" forbids.` });
      if (c.forbids === "add_losing" && o.side !== "sell") out.push({ type: "unknown", message: `Whether the ${desc(o)} order adds to a losing holding cannot be told, and "${c.rule}".` });
      continue;
    }
    if (!o.asset || o.side === null) {
      out.push({ type: "unknown", message: `The order's asset or side is unknown, so whether it ${WHAT[c.forbids]} a position ("${c.rule}") cannot be told.` });
      continue;
    }
    const pos = positionIn(o.asset, ctx);
    if (pos === null) {
      out.push({ type: "unknown", message: `The context gives no readable position in ${o.asset}, so whether the ${desc(o)} order ${WHAT[c.forbids]} one ("${c.rule}") cannot be told.` });
      continue;
    }
    const against = (pos > 0 && o.side === "sell") || (pos < 0 && o.side === "buy");
    const along = (pos > 0 && o.side === "buy") || (pos < 0 && o.side === "sell");
    if (c.forbids === "close" && against) out.push({ type: "violation", message: `The ${desc(o)} order reduces the ${o.asset} position of ${pos}, which "${c.rule}" forbids.` });
    if (c.forbids === "flip" && against) {
      if (o.size === null) out.push({ type: "unknown", message: `The ${desc(o)} order's size is unknown, so whether it flips the ${o.asset} position ("${c.rule}") cannot be told.` });
      else if (o.size > Math.abs(pos) + 1e-12) out.push({ type: "violation", message: `The ${desc(o)} order turns the ${o.asset} position of ${pos} into ${pos > 0 ? "a short" : "a long"} of ${+(o.size - Math.abs(pos)).toPrecision(12)}, which "${c.rule}" forbids.` });
    }
    if (c.forbids === "add_losing" && along) {
      const loss = losing(o.asset, pos, ctx);
      if (loss === null) out.push({ type: "unknown", message: `The ${desc(o)} order adds to the ${o.asset} position, whose profit or loss the context does not give ("${c.rule}").` });
      else if (loss) out.push({ type: "violation", message: `The ${desc(o)} order adds to the losing ${o.asset} position, which "${c.rule}" forbids.` });
    }
  }
  return out;
}
