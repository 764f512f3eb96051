/**
 * An allowlist of market categories written as descriptions ("nba finals + stanley cup markets", "markets on the
 * 2026 US midterms (House, Senate or governor races)"). Each prediction order's question must plainly fall under
 * one of them (topics.ts); it is refused only when it plainly falls outside every one, and otherwise a human
 * decides. Only the question the context's market map gives is read, never a market's description.
 */
import type { ActionView, Constraint, Finding } from "../types";
import { topicVerdict } from "../topics";

type ListC = Extract<Constraint, { kind: "allow" | "deny" }>;

export function checkTopicScope(c: ListC, view: ActionView): Finding[] {
  if (!view.orders.length) return [];
  const preds = view.orders.filter((o) => o.marketType === "prediction" || o.question);
  if (preds.length === 0) return [{ type: "unknown", message: `The action is not a prediction-market order, so "${c.rule}" cannot be checked.` }];
  const out: Finding[] = [];
  for (const o of preds) {
    const q = o.question ?? null;
    if (!q) {
      out.push({ type: "unknown", message: `The action does not show its market, so "${c.rule}" cannot be checked.` });
      continue;
    }
    const verdicts = c.values.map((t) => topicVerdict(t, q));
    if (verdicts.includes("in")) continue;
    if (verdicts.length > 0 && verdicts.every((v) => v === "out")) out.push({ type: "violation", message: `The market "${q}" is outside "${c.rule}".` });
    else out.push({ type: "unknown", message: `It is unclear whether the market "${q}" falls under "${c.rule}".` });
  }
  return out;
}
