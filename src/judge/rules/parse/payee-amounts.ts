/**
 * An amount per payee, taken from the payee's own entry in a context list: "pay everyone in context.payroll exactly
 * the salary next to their name", "in an amount at most the amount approved for that recipient as recorded there",
 * "each vendor up to their agreed fee". The figure is not in the rules: it sits in the list beside the address, so
 * the rule is a relation between a move and its payee's entry (`payee_amount`), checked in checks/payee-amounts.ts.
 * The list is the one the phrase names (context.x), else the recipient list the rules point at (settled after the
 * whole intent is read); with neither the rule is not understood.
 */
import type { Constraint } from "../types";
import { scan, type Clause } from "../text";
import { add, type ParseState } from "./state";

type PayeeAmount = Extract<Constraint, { kind: "payee_amount" }>;

const FIG = String.raw`(?:amount|salary|salaries|sum|figure|fee|rate|pay|wage|stipend|allocation|allowance|budget|grant|payout|number)s?`;
const LISTED = String.raw`(?:written|listed|shown|given|recorded|stated|set|specified|noted|approved|allotted|allocated|granted|budgeted|agreed|registered|entered)`;
const PAYEE = String.raw`(?:names?|entry|entries|rows?|address(?:es)?|payees?|recipients?|persons?|people|lines?|grantees?|vendors?|suppliers?|contractors?|employees?|members?|freelancers?|them|him|her|each|everyone|each\s+one)`;
const FOR_PAYEE = String.raw`(?:next\s+to|beside|besides|against|alongside|by|for|under|on|to)\s+(?:(?:their|there|his|her|its|each|the|that|this|every|said)\s+)?(?:own\s+)?${PAYEE}`;
const WHERE = String.raw`(?:\s*,?\s*(?:as\s+)?(?:recorded|listed|given|shown|written|set\s+out|stated)?\s*(?:there(?:in)?|in\s+(?:it|§c\d+|the\s+list|that\s+list|the\s+table)))?`;
const THE_FIGURE = String.raw`(?:(?:the|their|there|his|her|its)\s+)?(?:${LISTED}\s+)?${FIG}\s+(?:(?:that\s+is|which\s+is|that\s+was|which\s+was)\s+)?(?:${LISTED}\s+)?${FOR_PAYEE}${WHERE}`;
const POSSESSIVE = String.raw`(?:their|his|her|its|each\s+(?:payee|recipient|person|vendor|grantee|supplier|contractor)['’]s)\s+(?:own\s+)?${LISTED}\s+${FIG}${WHERE}`;

/** "exactly the salary written next to their name", "the exact amount listed for them". */
const EXACT = new RegExp(String.raw`\b(?:(?:exactly|precisely)\s+(?:${THE_FIGURE}|${POSSESSIVE})|(?:the|their)\s+exact\s+${FIG}\s+(?:${LISTED}\s+)?${FOR_PAYEE}${WHERE})`, "gi");
/** "(in an amount) at most the amount approved for that recipient", "up to their agreed fee". */
const MAX = new RegExp(String.raw`\b(?:(?:in\s+)?(?:an?\s+)?(?:amount|sum)\s+(?:of\s+)?)?(?:at\s+most|up\s+to|no\s+more\s+than|not\s+more\s+than|never\s+more\s+than|capped\s+at|within|not\s+(?:to\s+)?exceed(?:ing)?)\s+(?:${THE_FIGURE}|${POSSESSIVE})`, "gi");
/** "pay each of them the amount listed next to their name": a figure per payee, with no bound word, is exact. */
const BARE = new RegExp(String.raw`\b(?:pay|send|transfer|give)\s+(?:\S+\s+){0,6}?(?=(?:the|their|there)\s+(?:${LISTED}\s+)?${FIG}\s+(?:${LISTED}\s+)?${FOR_PAYEE})`, "gi");
const BARE_FIGURE = new RegExp(String.raw`\b${THE_FIGURE}`, "gi");

function pathsIn(c: Clause, text: string): string[] {
  return [...text.matchAll(/§c(\d+)/g)].map((m) => c.refs.ctx[Number(m[1])]).filter((p): p is string => !!p);
}

/**
 * "No transfer shall exceed the unpaid balance of the recipient's award (awarded_usdc minus paid_usdc, in
 * context.grantees)", "each payout at most allocated - claimed (fields of context.members)": the figure is the
 * difference of two fields of the payee's entry. The words naming it ("the unpaid balance of ...") are read with
 * it only when they carry no negation, exception or figure of their own.
 */
const KEY = String.raw`([A-Za-z][A-Za-z0-9_]{1,40})`;
const DIFF = new RegExp(
  String.raw`\b(?:(?:no|each|any|every|a)\s+(?:single\s+)?)?(?:transfers?|payments?|payouts?|disbursements?|sends?|grants?|tranches?)?\s*(?:(?:shall|may|must|can|should|will|is\s+to|are\s+to)\s+)?(?:not\s+|never\s+)?(?:exceed|be\s+(?:more|larger|greater)\s+than|go\s+over|be\s+above|at\s+most|up\s+to|no\s+more\s+than|not\s+more\s+than|capped\s+at|within)\s+([^()§]{0,90}?)\s*\(?\s*${KEY}\s+(?:minus|less|-|−)\s+(?:the\s+)?${KEY}\s*,?\s*(?:(?:both\s+)?(?:in|from|see|per|as\s+(?:listed|recorded)\s+in)\s+)?§c(\d+)\s*\)?`,
  "gi",
);

export function parsePayeeAmounts(c: Clause, st: ParseState, rule: string): void {
  if (/\b(?:minus|less)\b|\s[-−]\s/i.test(c.text))
    scan(c, DIFF, (m) => {
      if (/\b(?:no|not|never|only|except|unless|but|without)\b|\d/i.test(m[1])) return false;
      add(st, { kind: "payee_amount", mode: "max", refs: [c.refs.ctx[Number(m[4])]], diff: { plus: m[2], minus: m[3] }, rule });
    });
  const found = (mode: PayeeAmount["mode"]) => (m: RegExpExecArray) => {
    add(st, { kind: "payee_amount", mode, refs: pathsIn(c, m[0]), rule });
  };
  scan(c, EXACT, found("exact"));
  scan(c, MAX, found("max"));
  if (new RegExp(BARE.source, "i").test(c.text)) scan(c, BARE_FIGURE, found("exact"));
}

/** A per-payee amount that names no list takes the recipient lists the rules point at; none: not understood. */
export function settlePayeeAmounts(st: ParseState): void {
  const recipientRefs = [...new Set(st.constraints.flatMap((k) => (k.kind === "allow" && k.dim === "recipient" ? (k.refs ?? []) : [])))];
  for (const k of st.constraints) {
    if (k.kind !== "payee_amount" || k.refs.length) continue;
    k.refs = recipientRefs;
    if (k.refs.length === 0) st.unknown.push(`Not understood: "${k.rule}" (no list gives an amount for each payee).`);
  }
}
