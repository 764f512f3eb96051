/**
 * Leverage and margin settings, and the exits' flag, in the shapes config-style mandates write them:
 *
 * - the setting frozen: "leverage and margin settings shall not be changed", "the leverage setting must not be
 *   touched", "margin mode is not to be modified": a ban on changing those settings (an order is not a change of
 *   them, so orders stay free). With margin named, margin adjustments are refused as well: fail-closed, since an
 *   owner who froze the margin setting did not grant top-ups either;
 * - the exits' flag as a key: "closing orders: reduce-only", "exits = reduce only", "closes - reduce-only": every
 *   exit must carry reduce-only (the same rule as "closing orders must be reduce-only").
 *
 * Invariant (the unsafe side): each reading only adds a ban or a requirement, never a permission.
 */
import type { Activity } from "../types";
import { scan, type Clause } from "../text";
import { add, type ParseState } from "./state";

const SETTING = String.raw`(leverage|lev|margin(?:[- ]mode)?)`;
const FROZEN = new RegExp(
  String.raw`\b(?:(?:the|our|my|all|any)\s+)?${SETTING}(?:\s*(?:,|and|or|\/|&|\+)\s*${SETTING})?(?:\s+(?:settings?|config(?:uration)?s?|levels?|modes?|values?))?\s+(?:(?:shall|must|may|should|will|can|is\s+to|are\s+to)\s*(?:not|never|n['’]t)|(?:is|are)\s+not\s+to|(?:is|are)\s+never\s+to)\s+(?:ever\s+)?(?:be\s+)?(?:changed|modified|altered|adjusted|touched|updated|edited)\b(?:\s+(?:at\s+all|ever|by\s+the\s+(?:agent|bot)))?`,
  "gi",
);

// From the clause's start or after a heading ("HL cfg: closing orders = reduce only"); the key may already be
// consumed as a label, so the whole stretch is taken, not scanned.
const EXITS_KEY = /(?:^|(?<=:)|(?<=:\s+))\s*(?:(?:all|the|our)\s+)?(?:closing\s+(?:orders?|trades?)|closes|exits?|exit\s+orders?|orders?\s+that\s+close)\s*(?:[:=]|[-–—])\s*(?:always\s+|must\s+be\s+)?reduce[- ]?only(?:\s*(?:=\s*)?true)?\s*[.!]?\s*$/i;

export function parseSettingsWords(c: Clause, st: ParseState, rule: string): void {
  scan(c, FROZEN, (m) => {
    const named = [m[1], m[2]].filter(Boolean).map((w) => w.toLowerCase());
    const acts: Activity[] = ["leverage"];
    if (named.some((w) => w.startsWith("margin"))) acts.push("margin");
    add(st, { kind: "forbid", activities: acts, label: "changing leverage or margin settings", rule });
  });
  const m = EXITS_KEY.exec(c.text);
  if (m) {
    add(st, { kind: "reduce_only", appliesTo: "exits", rule });
    c.used.fill(true, m.index, m.index + m[0].length);
  }
}
