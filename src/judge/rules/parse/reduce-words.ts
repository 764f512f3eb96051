/**
 * Reduce-only as owners write it in short mandates, beside `parseReduceOnly` (trading.ts):
 *
 * - "nothing that adds exposure", "nothing that increases a position": every order must be reduce-only;
 * - "(reduce only)", "(r must be true)" after a rule that already says so: a gloss, restating it;
 * - under an every-order reduce-only rule, "any coin we currently hold is fine, any size up to the position": what
 *   a reduce-only order is by construction (it can only shrink a position the account holds), so it restricts and
 *   grants nothing more. Only read once such a rule exists; alone, "up to the position" is left unread.
 */
import { scan, type Clause } from "../text";
import { add, type ParseState } from "./state";

const ADDS = /\bnothing\s+(?:that|which)\s+(?:adds?|increases?|opens?|grows?|raises?|extends?)\s+(?:to\s+)?(?:(?:any|new|our|the|a|my)\s+)?(?:exposure|positions?|risk|size)\b/gi;
const GLOSS = /\(\s*(?:reduce[- ]only|r\s*=\s*true)(?:\s+(?:only|always|flag|set))?\s*\)/gi;
const HELD_FINE = /\b(?:any|every|each|whatever|all)\s+(?:coins?|assets?|tokens?|markets?|positions?|perps?)\s+(?:that\s+)?(?:we|i|you|the\s+account)\s+(?:currently\s+|already\s+|still\s+)?(?:hold|holds|have|has|own|owns|are\s+in)\s+(?:is|are)\s+(?:fine|ok|okay|allowed|permitted)\b/gi;
const UP_TO_POSITION = /\b(?:(?:any|whatever)\s+size\s+)?up\s+to\s+the\s+(?:(?:full|whole|current|open|existing)\s+)?(?:position|holding)s?(?:\s+size)?\b/gi;

export function parseReduceWords(c: Clause, st: ParseState, rule: string): void {
  scan(c, ADDS, () => add(st, { kind: "reduce_only", appliesTo: "all", rule }));
  const reduceOnly = st.constraints.filter((k) => k.kind === "reduce_only");
  if (reduceOnly.length) scan(c, GLOSS, () => undefined);
  if (!reduceOnly.some((k) => k.kind === "reduce_only" && k.appliesTo === "all")) return;
  scan(c, HELD_FINE, () => undefined);
  scan(c, UP_TO_POSITION, () => undefined);
}
