/**
 * The shape and the spender of approvals, as owners write them in a clause about approvals:
 * - bounded: "exact amount", "just enough for the swap", "matching the trade", "per-swap approvals", "shall not exceed
 *   the amount being supplied" (an `approval_exact` rule: finite, and no larger than the activity it serves may be);
 * - spender: "to the router only", "granted only to that Pool", "spender = context.staking.pool only", "Universal Router
 *   as spender" (a `spender` allowlist; a definite noun is resolved to the one contract the intent named for it);
 * - unlimited ones banned after the noun: "unlimited allowances are prohibited", "infinite approvals are never granted".
 *
 * Invariant: a spender phrase whose referent cannot be resolved to exactly one named contract (or a placeholder the
 * owner wrote) is left unread, so the clause stays not understood and the action escalates.
 */
import type { Constraint } from "../types";
import { scan, type Clause } from "../text";
import { add, type ParseState } from "./state";

const ABOUT_APPROVALS = /\b(?:approv(?:e|es|al|als|ing)|allowances?|spenders?)\b/i;
const APPROVAL_LABEL = /^\s*[-*•]?\s*(?:(?:token|erc-?20|permit2)\s+)?(?:approvals?|allowances?)\s*:/i;

const EXACT_RE = new RegExp(
  [
    String.raw`\b(?:exact(?:ly)?|precise(?:ly)?)(?![- ]?(?:in|out)(?:put)?\b)(?:\s+(?:the\s+)?(?:amounts?|sums?|sizes?|figures?))?(?:\s+(?:needed|required))?(?:\s+only)?\b`,
    String.raw`\bjust\s+(?:enough|what(?:['’]s| is)\s+needed)\b(?:\s+for\s+(?:the|each|one|a|that|this)\s+(?:swap|trade|order|payment|supply|deposit|stake|transaction))?`,
    String.raw`\b(?:matching|equal to|sized (?:to|for)|the size of)\s+(?:the\s+|each\s+|that\s+)?(?:swap|trade|order|supply|deposit|stake|payment|transaction)\b`,
    String.raw`\bper[- ](?:swap|trade|order|transaction)\s+(?=approvals?|allowances?)`,
    // "(same amount as staked)", "the same sum as the deposit": the approval equals what the activity spends.
    String.raw`\b(?:the\s+)?(?:same|identical)\s+(?:amount|sum|size|figure)\s+as\s+(?:(?:the|each|that|this)\s+)?(?:amount\s+)?(?:(?:being|to be)\s+)?(?:staked|swapped|supplied|deposited|spent|paid|traded|sold|stake|swap|supply|deposit|trade|order|payment)\b`,
    String.raw`\b(?:shall|must|should|may|can)\s+(?:not|never)\s+exceed\s+the\s+(?:amount|sum|size)\s+(?:(?:being|to be)\s+)?(?:supplied|swapped|spent|deposited|staked|paid|traded|sold)\b`,
  ].join("|"),
  "gi",
);

const UNLIMITED_AFTER =
  /\b(?:unlimited|infinite|max(?:imum)?|uint256[- ]max|open[- ]ended|unbounded|blanket)\s+(?:token\s+)?(?:approvals?|allowances?)\s+(?:are|is|shall be|will be|must be)\s+(?:(?:strictly|always)\s+)?(?:prohibited|forbidden|banned|not allowed|not permitted|disallowed|off[- ]limits|never\s+(?:granted|given|allowed|permitted|signed|ok|okay))\b/gi;

/** Nouns an owner uses for the contract that spends: "the router", "that Pool", "the Universal Router". */
const SPENDER_NOUN = String.raw`(?:universal\s+router|swap\s?router(?:\s?0?2)?|router|aave(?:\s+v3)?\s+pool|lending\s+pool|staking\s+pool|delegation\s+pool|pool|vault|aggregator|contract)`;
const DEFINITE = new RegExp(String.raw`\b(?:(?:be\s+)?(?:granted|given|made|set)\s+)?(?:only\s+)?to\s+(?:the|that|this|our)\s+(${SPENDER_NOUN})\b(?:\s+only)?|\b(?:the\s+|our\s+)?(${SPENDER_NOUN})\s+as\s+(?:the\s+)?(?:only\s+)?spender\b`, "gi");
const PLACEHOLDER = String.raw`§([ac])(\d+)`;
const NAMED = new RegExp(String.raw`\bspender\s*(?:=|:|is|must be|should be|shall be)?\s*${PLACEHOLDER}\s*(?:only\b)?|${PLACEHOLDER}\s+as\s+(?:the\s+)?(?:only\s+)?spender\b|\b(?:(?:be\s+)?(?:granted|given|made|set)\s+)?(?:only\s+)?to\s+${PLACEHOLDER}(?:\s+only\b)?`, "gi");

/** The one contract the intent named for a noun ("router", "pool"): the contract lists read so far. */
function resolveContract(st: ParseState, noun: string): string | null {
  type ListC = Extract<Constraint, { kind: "allow" | "deny" }>;
  const lists = st.constraints.filter((k): k is ListC => k.kind === "allow" && k.dim === "contract");
  const all = [...new Set(lists.flatMap((k) => k.values.map((v) => v.toLowerCase())))];
  if (all.length === 1) return lists.flatMap((k) => k.values)[0];
  const head = noun.toLowerCase().split(/\s+/).pop() ?? noun;
  const named = [...new Set(lists.filter((k) => k.rule.toLowerCase().includes(head)).flatMap((k) => k.values.map((v) => v.toLowerCase())))];
  return named.length === 1 ? named[0] : null;
}

export function parseApprovalScope(c: Clause, st: ParseState, rule: string): void {
  if (!ABOUT_APPROVALS.test(c.text) && !APPROVAL_LABEL.test(c.sentence)) return;
  let bounded = false;
  scan(c, EXACT_RE, () => void (bounded = true));
  if (bounded) add(st, { kind: "approval_exact", exact: true, rule });
  scan(c, UNLIMITED_AFTER, () => add(st, { kind: "approval_exact", exact: false, rule }));
  const values: string[] = [];
  const refs: string[] = [];
  scan(c, NAMED, (m) => {
    const kind = m[1] ?? m[3] ?? m[5];
    const i = Number(m[2] ?? m[4] ?? m[6]);
    const v = kind === "a" ? c.refs.addresses[i] : c.refs.ctx[i];
    if (!v) return false;
    (kind === "a" ? values : refs).push(v);
  });
  scan(c, DEFINITE, (m) => {
    const hit = resolveContract(st, m[1] ?? m[2]);
    if (!hit) return false;
    values.push(hit);
  });
  if (values.length || refs.length) {
    add(st, { kind: "allow", dim: "spender", values, refs: refs.length ? refs : undefined, activities: ["approval"], rule });
    // "Approvals ... shall be granted only to that Pool": the subject noun is what the list is about.
    scan(c, /\b(?:token\s+)?(?:approvals?|allowances?)\b\s*:?|\bspenders?\b/gi, () => undefined);
    scan(c, /\b(?:shall|must|should|may|can|will)\s+(?:only\s+)?(?:be\s+)?(?:granted|given|made)?\b|\band\b/gi, () => undefined);
  }
  if (bounded) scan(c, /\b(?:token\s+)?(?:approvals?|allowances?)\b\s*:?/gi, () => undefined);
}
