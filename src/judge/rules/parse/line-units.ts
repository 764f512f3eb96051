/**
 * A human line written as a bare figure takes the unit of the cap the owner wrote beside it: "up to 80 bucks a bet,
 * but anything over 45 ask me first", "max 3 ETH per trade; over 2 I want to see it". Read alone, "over 45" could be
 * $45 or 45 shares (open-figures.ts), and the open reading holds every order whose readings disagree, though the
 * owner plainly counts both figures the same way.
 *
 * The unit is taken only when it is certain enough to be the owner's:
 * - from the per-action caps of the line's own sentence, else of the whole intent, when all of them share one unit
 *   (a figure of another kind of action, or a budget per period, says nothing about it);
 * - only when the bare figure is at or under the cap in that unit: a line above its own cap is no band under it, so
 *   its figure is likelier in another unit ("max 2 ETH a trade, anything over 3000 ask me") and stays open.
 *
 * Invariant (the unsafe side): only a human line is resolved, and only to one of the readings it already had, so an
 * action above the line in the owner's unit is still held; the cap beside it is untouched.
 */
import { OPEN_UNIT, OWN_UNIT, type Constraint } from "../types";
import type { SentenceSpan } from "./grants";

type Line = Extract<Constraint, { kind: "escalate_above" }>;
type Cap = Extract<Constraint, { kind: "cap" }>;

/** The one unit of the per-action caps among `cs` that count the line's kind of action, or null. */
function capUnit(cs: Constraint[], line: Line): Cap | null {
  const caps = cs.filter(
    (k): k is Cap =>
      k.kind === "cap" && k.period === "action" && !k.limitOf && !k.alts && k.limit.unit !== OPEN_UNIT && (k.scope === line.scope || k.scope === "any" || line.scope === "any"),
  );
  const units = new Set(caps.map((k) => k.limit.unit));
  return units.size === 1 ? caps[0] : null;
}

export function inheritLineUnits(cs: Constraint[], spans: SentenceSpan[]): void {
  cs.forEach((k, i) => {
    if (k.kind !== "escalate_above" || k.limit.unit !== OPEN_UNIT || !k.limit.readings) return;
    const span = spans.find((s) => s.from <= i && i < s.to);
    const cap = (span ? capUnit(cs.slice(span.from, span.to), k) : null) ?? capUnit(cs, k);
    if (!cap) return;
    const unit = cap.limit.unit;
    // A token cap's figure is the action's own unit; dollars are dollars. Shares stay open (never a reading here).
    // A held figure ("1.200": 1.2 or 1,200) keeps both of its values open.
    const mine = k.limit.readings.filter((r) => r.unit === (unit === "USD" ? "USD" : OWN_UNIT));
    const reading = mine.length === 1 ? mine[0] : null;
    if (!reading || unit === "SHARES" || reading.value > cap.limit.value) return;
    k.limit = { value: reading.value, unit };
  });
}
