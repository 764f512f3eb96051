/**
 * A floor on a lending position's health factor: "health factor at least 1.6 after the borrow", "keep HF >= 1.8",
 * "never let the health factor drop below 1.5", "at least 1.6 health factor after borrowing". The figure is a ratio,
 * not money, so no cap reader takes it; "above" is strict, "at least" is not.
 */
import { consume, scan, type Clause } from "../text";
import { add, type ParseState } from "./state";

const HF = String.raw`(?:health[- ]?factor|\bHF\b)`;
const BOUND = String.raw`(at least|no lower than|not lower than|no less than|not less than|not below|never below|min(?:imum)?(?: of)?|above|over|>=|≥|>)`;
const VERB = String.raw`(?:(?:must|should|shall|has to|have to|needs? to)\s+)?(?:(?:always\s+)?(?:is|be|stays?|remains?|stay|remain|kept|keep)\s+)?`;
const AFTER = String.raw`(?:\s+(?:after|following)\s+(?:the|this|each|every|any)?\s*(?:borrow(?:ing)?|withdrawal|action|loan|transaction)s?|\s+at all times)?`;
const FORMS = [
  new RegExp(String.raw`${HF}\s+${VERB}${BOUND}\s*(\d+(?:\.\d+)?)${AFTER}`, "gi"),
  new RegExp(String.raw`\b${BOUND}\s*(\d+(?:\.\d+)?)\s+${HF}${AFTER}`, "gi"),
  // "HF after the borrow at least 1.6", "health factor following each withdrawal must stay above 1.5".
  new RegExp(String.raw`${HF}${AFTER.replace(/\)\?$/, ")")}\s+${VERB}${BOUND}\s*(\d+(?:\.\d+)?)`, "gi"),
];
/** "never let the health factor drop below 1.5", "HF may not fall under 1.3". */
const DROP = new RegExp(String.raw`\b(?:never\s+let|don'?t\s+let|do\s+not\s+let|must\s+not\s+let)\s+(?:the\s+|our\s+)?${HF}\s+(?:drop|fall|go|sink)\s+(?:below|under)\s+(\d+(?:\.\d+)?)${AFTER}|${HF}\s+(?:may|must|should|shall|can)\s*(?:not|never|n't)\s+(?:drop|fall|go|sink)\s+(?:below|under)\s+(\d+(?:\.\d+)?)${AFTER}`, "gi");

export function parseHealthFloor(c: Clause, st: ParseState, rule: string): void {
  if (!/health|\bHF\b/i.test(c.text)) return;
  for (const re of FORMS)
    scan(c, re, (m) => {
      add(st, { kind: "health_floor", min: Number(m[2]), strict: /^(?:above|over|>)$/i.test(m[1]), rule });
    });
  scan(c, DROP, (m) => {
    add(st, { kind: "health_floor", min: Number(m[1] ?? m[2]), strict: false, rule });
  });
  // "provided the health factor ...": the lead-in only introduces the floor.
  if (st.constraints.some((k) => k.kind === "health_floor" && k.rule === rule)) scan(c, /\b(?:the|our|its)\b(?=\s+health)/gi, (m) => consume(c, m.index, m.index + m[0].length));
}
