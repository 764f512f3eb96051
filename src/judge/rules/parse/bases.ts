/**
 * Figures the owner names in words and says once where they live: "the bankroll is in context.bankroll_usdc", "5% of
 * the bankroll (context.bankroll_usdc)", "monthly budget (context.budget.monthly_usd)", "equity: context.acct.eq".
 * A later "12% of the bankroll" then takes its base from that path, as a reader would, instead of leaving the
 * share unread. Only a noun the rules tie to exactly one path is kept; two paths for one noun, and it is not
 * guessed. Whether the path holds a number is checked when the judge runs (no number: the limit is not computed).
 */
import type { ParseState } from "./state";

const NOUN = String.raw`([A-Za-z][A-Za-z_-]{2,30})`;
const DECLS = [
  // "bankroll (context.x)", "budget (see context.x)"
  new RegExp(String.raw`\b${NOUN}\s*\(\s*(?:in\s+|at\s+|see\s+|from\s+|=\s*|:\s*)?§c(\d+)\s*\)`, "g"),
  // "the bankroll is in context.x", "equity is reported at context.x"
  new RegExp(String.raw`\b${NOUN}\s+(?:is|are|lives|sits|(?:is\s+)?(?:kept|given|reported|shown|stored|held))\s+(?:in|at|under)\s+§c(\d+)`, "g"),
  // "bankroll: context.x", "equity = context.x"
  new RegExp(String.raw`\b${NOUN}\s*[:=]\s*§c(\d+)`, "g"),
];
/** Words that are not the name of a figure a share is taken of (counters, prices, lists, fillers). */
const NOT_BASE =
  /^(?:total|running|far|date|today|spent|spend|paid|sent|used|tally|counter|figure|number|amount|prices?|list|lists|wallet|address(?:es)?|recipients?|payees?|vendors?|hosts?|is|are|the|a|an|in|at|see|current|so|here|there|this|that|it|its|context|positions?|debt|now|usd|usdc)$/i;

/** Reads every declaration in the intent's protected text into `st.bases`. */
export function readBases(text: string, ctxRefs: string[], st: ParseState): void {
  const seen = new Map<string, Set<string>>();
  for (const re of DECLS)
    for (const m of text.matchAll(re)) {
      const noun = m[1].toLowerCase();
      if (NOT_BASE.test(noun)) continue;
      const path = ctxRefs[Number(m[2])];
      if (!path) continue;
      if (!seen.has(noun)) seen.set(noun, new Set());
      seen.get(noun)?.add(path);
    }
  for (const [noun, paths] of seen) if (paths.size === 1) st.bases.set(noun, [...paths][0]);
}
