/**
 * A running total plus this action against a figure the rules name: "the month's spend (context.budget.spent_usd)
 * plus the call may never exceed the monthly budget", "spent so far (context.x) plus this payment must stay within
 * the allowance". It is a budget of 100% of that figure, counted with the running total the clause points at; the
 * figure is the one the rules tie to the noun (bases.ts) or a path written right after it; a noun tied to no path is
 * looked up in the context when the judge runs, and with no single figure for it the action is held for a human.
 */
import type { Period } from "../types";
import { consume, scan, type Clause } from "../text";
import { add, type ParseState } from "./state";

const SUM =
  /((?:[A-Za-z'’]+\s+){0,4}?)\(?\s*§c(\d+)\s*\)?\s*,?\s+plus\s+(?:the|this|each|any|a|one|the\s+new)\s+(?:call|payment|request|order|transfer|payout|purchase|one|action|tx|transaction|bet|swap|spend)\s+(?:(?:may|must|shall|should|can|will|is\s+to|has\s+to)\s+)?(?:(never|not)\s+(?:exceed|go\s+over|be\s+(?:above|over|more\s+than|larger\s+than|greater\s+than))|(?:stay|remain|be|keep)\s+(?:within|under|below|at\s+or\s+below|inside))\s+(?:the\s+|our\s+|its\s+|my\s+|this\s+)?([A-Za-z][A-Za-z_-]{2,30})(?:\s+([A-Za-z][A-Za-z_-]{2,30}))?(?:\s*\(?\s*§c(\d+)\s*\)?)?/gi;

const periodOf = (t: string): Period => (/\b(?:day|daily|today)/i.test(t) ? "day" : /\bweek/i.test(t) ? "week" : /\bmonth/i.test(t) ? "month" : "total");

export function parseSumLimit(c: Clause, st: ParseState, rule: string): void {
  if (!/\bplus\b/i.test(c.text)) return;
  scan(c, SUM, (m) => {
    const lead = m[1];
    if (/\b(?:no|not|never|only|except|unless|without|but)\b/i.test(lead)) return false;
    const counter = c.refs.ctx[Number(m[2])];
    const first = m[4].toLowerCase();
    const second = m[5]?.toLowerCase();
    // A noun the rules never tied to a path is looked up when the judge runs, as the one number whose key holds the
    // word (context.describedPath); none or two, and the limit is not computed (never a permission by default).
    const path = m[6] !== undefined ? c.refs.ctx[Number(m[6])] : ((second && st.bases.get(second)) ?? st.bases.get(first) ?? `~${second ?? first}`);
    if (!counter) return false;
    // The word after the base noun, when the base was the first word, is not part of the rule: leave it to be read.
    const end = second && !st.bases.get(second) && st.bases.get(first) && m[6] === undefined ? m.index + m[0].lastIndexOf(m[5] as string) : m.index + m[0].length;
    const strict = /\b(?:under|below)\b/i.test(m[0]) && !/at\s+or\s+below/i.test(m[0]);
    add(st, { kind: "cap", limit: { value: 100, unit: "USD" }, limitOf: { pct: 100, path }, period: periodOf(`${lead} ${counter} ${m[4]} ${m[5] ?? ""}`), scope: "any", strict, subject: "spent", counterRef: counter, rule });
    consume(c, m.index, end);
    return false;
  });
}
