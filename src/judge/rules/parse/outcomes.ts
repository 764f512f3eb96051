/** Outcomes of a prediction market a rule names: "YES or NO shares", "only bet YES", "you can buy YES on '<market>'". */
import { scan, type Clause } from "../text";
import { add, type ParseState } from "./state";

/** "YES or NO shares": outcomes of a prediction market ("NO" here is not a negation). */
export function parseOutcomes(c: Clause, st: ParseState, rule: string): void {
  if (!st.prediction) return;
  scan(c, /\b(yes|no)(?:\s*(?:or|and|\/)\s*(yes|no))?\s+(?:shares?|outcomes?|tokens?|side|positions?|bets?)\b|\b(?:either|both|any)\s+outcomes?\b/gi, (m) => {
    // "No token approvals": a prohibition, not the NO outcome.
    if (m[1] && !m[2] && /^no\s+tokens?/i.test(m[0])) return false;
    if (m[1] && !m[2]) add(st, { kind: "allow", dim: "outcome", values: [m[1].charAt(0).toUpperCase() + m[1].slice(1).toLowerCase()], activities: ["order", "cancel"], rule });
  });
  // "Only bet YES", "only buy NO": one outcome.
  scan(c, /(?<=\bonly\s+(?:bet|buy|back|take)\s+(?:on\s+)?(?:the\s+)?)(yes|no)\b(?!\s+(?:more|larger|bigger|greater|higher|than))/gi, (m) => {
    add(st, { kind: "allow", dim: "outcome", values: [m[1].charAt(0).toUpperCase() + m[1].slice(1).toLowerCase()], activities: ["order", "cancel"], rule });
  });
}

/**
 * "you can buy YES on '<market>'", "you may bet NO on ...": the outcome bought is the one granted (the other is not).
 * Read before the negation readers, which would take that "NO" for a prohibition.
 */
export function parseGrantedOutcome(c: Clause, st: ParseState, rule: string): void {
  if (!st.prediction) return;
  scan(c, /(?<=\b(?:buy|buys|buying|bet|bets|betting|back|take)\s+)(yes|no)\b(?=\s+(?:on|in|for)\s)/gi, (m) => {
    add(st, { kind: "allow", dim: "outcome", values: [m[1].charAt(0).toUpperCase() + m[1].slice(1).toLowerCase()], activities: ["order", "cancel"], rule });
  });
}
