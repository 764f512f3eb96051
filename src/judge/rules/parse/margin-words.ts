/**
 * Margin-mode shapes beside a leverage rule that `parseMarginMode` (trading.ts) does not read:
 *
 * - the mode in brackets after the cap: "leverage: at most 4x (isolated)", "lev 5x max (cross margin)";
 * - the mode as the subject's value: "margin must be isolated", "margin: cross", "keep margin on cross",
 *   "margin mode has to stay isolated";
 * - one mode refused: "cross margin is not permitted", "no isolated margin", "never use cross" (the other mode is the
 *   one required: a leverage setting has exactly two);
 * - either mode fine: "dont care if its cross or isolated", "idc cross or iso", "cross or isolated, both fine",
 *   "any margin mode": a permission that restricts nothing, read so that it does not hold the action.
 *
 * A mode that is only the subject of a top-up ("isolated margin top-ups are fine") is no rule about the mode; those
 * phrases are consumed by trading.ts before this runs.
 */
import { scan, type Clause } from "../text";
import { add, type ParseState } from "./state";

type Mode = "cross" | "isolated";
const other = (m: Mode): Mode => (m === "cross" ? "isolated" : "cross");
const mode = (w: string): Mode => (/^c/i.test(w) ? "cross" : "isolated");

const MODE = String.raw`(cross|isolated|iso)(?:[- ]margin(?:ed)?)?(?:\s+mode)?`;
const MARGIN = String.raw`(?:the\s+)?margin(?:[- ]?(?:mode|type|setting))?`;
const FINE = String.raw`(?:fine|ok|okay|allowed|permitted|acceptable|good|alright|all\s+right)`;

/** "cross or isolated", "iso/cross", "cross and isolated": both modes named together. */
const BOTH = String.raw`(?:cross|isolated|iso)(?:[- ]margin)?\s*(?:or|and|\/|&|,)\s*(?:cross|isolated|iso)(?:[- ]margin)?`;
const EITHER = new RegExp(
  [
    // "dont care if its cross or isolated", "idc cross or iso", "no preference between cross and isolated"
    String.raw`\b(?:(?:i\s+)?(?:don't|do\s+not|doesn't|does\s+not)\s+(?:really\s+)?(?:care|mind)|idc|no\s+preference)\b(?:\s+(?:if|whether|about|between|which))?(?:\s+(?:it'?s|it\s+is|its|they'?re|we\s+use|you\s+use|u\s+use))?\s+${BOTH}(?:\s+(?:margin|mode))?`,
    // "cross or isolated (is) fine", "cross/isolated both ok", "cross or isolated, either is fine", "... doesn't matter"
    String.raw`\b${BOTH}(?:\s+(?:margin|mode))?\s*,?\s*(?:(?:is|are)\s+)?(?:both\s+|either\s+(?:is\s+|one\s+(?:is\s+)?)?)?(?:${FINE}|(?:doesn't|does\s+not|don't)\s+matter)\b`,
    // "either margin mode (is fine)", "any margin mode", "margin mode: any", "margin: either"
    String.raw`\b(?:either|any|whichever)\s+margin(?:\s+mode)?(?:\s+(?:is\s+)?${FINE})?`,
    String.raw`\b${MARGIN}\s*[:=]\s*(?:any|either|both|whatever)\b`,
    String.raw`\bmargin(?:\s+mode)?\s+(?:doesn't|does\s+not)\s+matter\b`,
  ].join("|"),
  "gi",
);

/** "(isolated)", "(cross margin)", "(iso only)": the mode in brackets right after a leverage figure or word. */
const BRACKETED = new RegExp(String.raw`(?<=\b(?:\d+(?:\.\d+)?\s?x|leverage)\b[^()\n]{0,20}?)\(\s*${MODE}(?:\s+only)?\s*\)`, "gi");

/** "margin must be isolated", "margin mode: cross", "keep margin on cross", "margin should stay in isolated mode". */
const VALUE = new RegExp(
  String.raw`\b(?:(?:keep|leave|set|put|run)\s+(?:the\s+|all\s+|our\s+|my\s+)?(?:margin|positions?|everything|it)(?:[- ]?mode)?\s+(?:on|in|at|as|to)\s+|${MARGIN}\s*(?:[:=]|(?:must|shall|should|has\s+to|have\s+to|needs?\s+to|will|is\s+to)\s+(?:always\s+)?(?:be|stay|remain)(?:\s+(?:on|in|at))?|(?:is|stays|remains)(?:\s+(?:always|on|in))?)\s*)${MODE}(?:\s+only)?\b`,
  "gi",
);

/** "cross margin is not permit(ted)", "isolated is forbidden", "no cross margin", "never use isolated". */
const REFUSED = new RegExp(
  String.raw`\b${MODE}\s+(?:is|are)\s+(?:not\s+(?:permit\w*|allow\w*|ok|okay|fine|acceptable)|forbidden|prohibited|banned|disallowed|off[- ]limits)\b|\b(?:no|never(?:\s+use)?|don't\s+use|do\s+not\s+use|avoid|not)\s+(?:any\s+)?(cross|isolated|iso)(?:[- ]margin(?:ed)?)(?:\s+mode)?\b(?![- ]?(?:top[- ]?ups?|additions?|adjustments?|transfers?|removals?|changes?))|\b(?:never|don't|do\s+not)\s+(?:use|switch\s+to|go)\s+(cross|isolated|iso)\b`,
  "gi",
);

/**
 * "leverage at most 3x, cross", "max lev 5x, isolated only": a bare mode closing the clause right after a leverage
 * figure (a comma or slash apart) is that setting's mode, as in brackets. Only a bare mode with nothing after it, so
 * "5x, cross or isolated" (read by EITHER first) and "5x, cross margin top-ups ok" stay with their readers.
 */
const AFTER_CAP = new RegExp(String.raw`(?<=\b\d+(?:\.\d+)?\s?x\b(?:\s+(?:max(?:imum)?|at\s+most|or\s+(?:below|lower|less|under)|tops))?\s*[,/;]\s*)(?:(?:and|on|in|use|using)\s+)?${MODE}(?:\s+only)?\s*[.!]?\s*$`, "gi");

export function parseMarginWords(c: Clause, st: ParseState, rule: string): void {
  if (!/\b(?:cross|isolated|iso|margin)\b/i.test(c.text)) return;
  // Either mode: nothing is required of the setting; the words are the owner's permission.
  scan(c, EITHER, () => undefined);
  scan(c, AFTER_CAP, (m) => add(st, { kind: "margin_mode", mode: mode(m[1]), rule }));
  scan(c, BRACKETED, (m) => add(st, { kind: "margin_mode", mode: mode(m[1]), rule }));
  scan(c, VALUE, (m) => add(st, { kind: "margin_mode", mode: mode(m[1]), rule }));
  scan(c, REFUSED, (m) => add(st, { kind: "margin_mode", mode: other(mode(m[1] ?? m[2] ?? m[3])), rule }));
}
