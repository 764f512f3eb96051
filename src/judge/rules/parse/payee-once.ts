/**
 * "one payment per person per month, context.paid_this_month shows who already got it", "each vendor at most once a
 * week (context.paid_this_week)": a payee may be paid once per period, and a context list says who has been paid in
 * this one. It becomes `payee_once` with that list (checks/payee-once.ts). With no such list in the clause the rule
 * cannot be checked and is not understood. The list alone ("context.x shows who got paid") stays a description.
 */
import type { Constraint } from "../types";
import { consume, scan, type Clause } from "../text";
import { add, type ParseState } from "./state";

type PayeeOnce = Extract<Constraint, { kind: "payee_once" }>;

const WHO = String.raw`(?:person|people|payee|recipient|employee|vendor|supplier|contractor|grantee|member|freelancer|head|name|wallet|address|one|of\s+them)s?`;
const PERIOD = String.raw`(day|week|month|quarter|year|round|cycle|period|payday)`;
const PER = String.raw`(?:per|a|an|each|every)`;
const ONE = String.raw`(?:(?:max(?:imum)?|at\s+most|only|no\s+more\s+than|just)\s+)?(?:one|a\s+single|1|a)\s+(?:payment|payout|transfer|send|tip|salary|paycheck|disbursement)s?`;
const ONCE = String.raw`(?:(?:max(?:imum)?|at\s+most|only|no\s+more\s+than|just)\s+)?once`;

/** The frequency phrase, in the orders owners write it; group 1 or 2 is the period. */
const FREQ = new RegExp(
  [
    String.raw`\b${ONE}\s+${PER}\s+${WHO}\s+${PER}\s+${PERIOD}\b`,
    String.raw`\b${ONE}\s+${PER}\s+${PERIOD}\s+${PER}\s+${WHO}\b`,
    String.raw`\b(?:each|every)\s+${WHO}\s+(?:(?:gets?|is|can\s+be|may\s+be|should\s+be)\s+(?:paid\s+)?)?${ONCE}\s+${PER}\s+${PERIOD}\b`,
    String.raw`\b${ONCE}\s+${PER}\s+${PERIOD}\s+(?:(?:for\s+)?(?:each|every|per)(?:\s+${WHO})?|${PER}\s+${WHO})\b`,
  ].join("|"),
  "gi",
);

/** "context.x shows who already got it", "(context.x = paid this month)": the list the rule reads, described. */
const LIST_TAIL = /§c(\d+)(?:\s*(?:shows|lists|has|holds|says|tells|keeps|tracks|records|=|:|is)\s+(?:(?:who|whom|the\s+(?:ones|people|payees)|those|everyone)\s+)?(?:(?:has|have|was|were|already|got|been|received|it|them|paid|this|month|week|so|far|who|gotten)\s*)*)?/gi;

/** A clause that only declares the paid list: "context.done_may has who got paid", "context.x = already paid". */
const PAID_DECL = /^\s*(?:and\s+)?§c(\d+)\s*(?:shows|lists|has|holds|says|tells|keeps|tracks|records|=|:|is)\s+(?:(?:who|whom|the\s+(?:ones|people|payees)|those|everyone)\s+)?(?:(?:has|have|was|were)\s+)?(?:already\s+)?(?:got(?:ten)?|been|received|paid)\b(?!\s+(?:out\b|so\s+far|to\s+date|in\s+total))[\w\s]*[.!]?\s*$/i;

const paidPath = (p: string | undefined): p is string => !!p && /paid|sent|done|got|received|settled|history|ledger|already|this_(?:month|week|period)/i.test(p);

export function parsePayeeOnce(c: Clause, st: ParseState, rule: string): void {
  const decl = PAID_DECL.exec(c.text);
  if (decl && paidPath(c.refs.ctx[Number(decl[1])])) {
    // Held for the frequency rule it serves (settlePayeeOnce); alone it describes the context and grants nothing.
    add(st, { kind: "payee_once", period: "", refs: [c.refs.ctx[Number(decl[1])]], rule, decl: true });
    consume(c, 0, c.text.length);
    return;
  }
  let hit: RegExpExecArray | null = null;
  scan(c, FREQ, (m) => {
    hit = m;
  });
  if (!hit) return;
  const period = ((hit as RegExpExecArray).slice(1).find((g) => !!g) ?? "period").toLowerCase();
  const k: PayeeOnce = { kind: "payee_once", period, refs: [], rule };
  scan(c, LIST_TAIL, (m) => {
    const path = c.refs.ctx[Number(m[1])];
    if (!paidPath(path)) return false;
    k.refs.push(path);
  });
  // "paid / already" words left around the list path belong to its description.
  if (k.refs.length) scan(c, /\b(?:already|got|paid|this\s+(?:month|week))\b/gi, () => undefined);
  add(st, k);
}

/** A frequency rule with no paid list of its own takes the one another clause declares; none: not understood. */
export function settlePayeeOnce(st: ParseState): void {
  const decls = st.constraints.filter((k): k is PayeeOnce => k.kind === "payee_once" && !!k.decl);
  const declared = [...new Set(decls.flatMap((k) => k.refs))];
  // The declarations stay in place (clauses point at constraints by index) and check nothing (checks/payee-once.ts).
  for (const k of st.constraints) {
    if (k.kind !== "payee_once" || k.decl || k.refs.length) continue;
    k.refs = declared;
    if (k.refs.length === 0) st.unknown.push(`Not understood: "${k.rule}" (no list says who has already been paid this ${k.period}).`);
  }
}
