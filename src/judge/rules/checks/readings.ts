/**
 * A cap or human line whose figure has several readings (`Quantity.readings`: "max 500 per order" as $500 or 500 of
 * the action's own units, "1.200 USDC" as 1.2 or 1,200 USDC) is checked under each, and decided only where they agree:
 * - a cap: inside it under every reading -> passes; over it under every reading -> the violation (BLOCK, the rule
 *   quoted); over under some and not others -> not decided (ESCALATE, naming the readings), never ALLOW;
 * - a human line: any reading that reaches it holds the action for the human.
 * A reading the facts cannot measure (no price, an action whose asset is unknown) leaves the outcome open.
 */
import { OPEN_UNIT, OWN_UNIT, type ActionView, type Constraint, type Finding, type Quantity } from "../types";
import { qty } from "../text";

type Cap = Extract<Constraint, { kind: "cap" }>;
type Line = Extract<Constraint, { kind: "escalate_above" }>;

export const isOpen = (q: Quantity): boolean => q.unit === OPEN_UNIT;

/**
 * The units an action is counted in under the "own" reading: a prediction order's shares, another order's coin,
 * what a swap sells, what a transfer moves. null when one of them is unknown.
 */
function ownUnits(view: ActionView): string[] | null {
  const out: Array<string | null> = [];
  for (const o of view.orders) out.push(o.marketType === "prediction" ? "SHARES" : o.asset);
  if (view.swap) out.push(view.swap.sellAsset);
  for (const m of view.moves) out.push(m.asset);
  if (out.length === 0) out.push(...view.assets);
  if (out.some((u) => !u)) return null;
  return [...new Set(out.map((u) => (u as string).toUpperCase()))];
}

interface Reading {
  /** How the reading is said: "$500", "500 SOL". */
  said: string;
  value: number;
  /** The findings of the rule checked with this reading's limit (one per unit the action is counted in). */
  findings: Finding[];
}

function readAll(limit: Quantity, view: ActionView, check: (q: Quantity) => Finding[]): Reading[] {
  // No readings at all: nothing says what the figure is, so nothing is decided by it.
  if (!limit.readings?.length) return [{ said: "an unknown amount", value: limit.value, findings: [{ type: "unknown", message: "A figure in the rules has no unit that can be read." }] }];
  return limit.readings.map((r) => {
    if (r.unit !== OWN_UNIT) return { said: qty(r.value, r.unit), value: r.value, findings: check(r) };
    const units = ownUnits(view);
    if (units === null) return { said: `${r.value} of the action's own units`, value: r.value, findings: [{ type: "unknown", message: "The action's asset is unknown." }] };
    return { said: units.map((u) => qty(r.value, u === "SHARES" ? "shares" : u)).join(" / "), value: r.value, findings: units.flatMap((u) => check({ value: r.value, unit: u })) };
  });
}

const worst = (fs: Finding[]): "violation" | "open" | "ok" => (fs.some((f) => f.type === "violation") ? "violation" : fs.length ? "open" : "ok");
const figure = (rs: Reading[]): string => [...new Set(rs.map((r) => r.said))].join(" or ");

/** A per-action or running cap with an open figure. `check` is the ordinary cap check. */
export function capByReadings(c: Cap, view: ActionView, check: (c: Cap) => Finding[]): Finding[] {
  const rs = readAll(c.limit, view, (q) => check({ ...c, limit: q }));
  const outcomes = rs.map((r) => worst(r.findings));
  if (outcomes.every((o) => o === "ok")) return [];
  // Quoted under the most generous reading (the largest figure), the one the owner can least dispute.
  if (outcomes.every((o) => o === "violation"))
    return rs.reduce((b, r) => (r.value > b.value ? r : b), rs[0]).findings
      .filter((f) => f.type === "violation")
      .map((f) => ({ ...f, message: `${f.message} It is over it whether the figure means ${figure(rs)}.` }));
  const over = rs.find((r) => worst(r.findings) === "violation");
  if (over) {
    const why = over.findings.find((f) => f.type === "violation")!.message;
    return [{ type: "unknown", message: `"${c.rule}" could mean ${figure(rs)}; read as ${over.said} this action is over it (${why}), under another reading it is not.` }];
  }
  return [...new Map(rs.flatMap((r) => r.findings).map((f) => [f.message, f])).values()];
}

/** A human line with an open figure: any reading that reaches it holds the action. */
export function lineByReadings(c: Line, view: ActionView, check: (c: Line) => Finding[]): Finding[] {
  const rs = readAll(c.limit, view, (q) => check({ ...c, limit: q }));
  const hit = rs.find((r) => r.findings.some((f) => f.type === "escalate"));
  if (hit) {
    const why = hit.findings.find((f) => f.type === "escalate")!.message;
    const all = rs.every((r) => r.findings.some((f) => f.type === "escalate"));
    return [{ type: "escalate", message: all ? why : `"${c.rule}" could mean ${figure(rs)}; read as ${hit.said} it applies (${why}).` }];
  }
  return [...new Map(rs.flatMap((r) => r.findings).map((f) => [f.message, f])).values()];
}
