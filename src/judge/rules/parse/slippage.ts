/**
 * Slippage caps, in the words owners use for them: "Slippage at most 1% (100 bps)", "max slippage 50 bps",
 * "amountOutMinimum no more than 0.5% below the context price", "don't accept more than 1% slippage", and the
 * shorthand "slip at most 40bps" / "slipage 35bps max". Checked in checks/amounts.ts (checkSlippage).
 */
import { scan, type Clause } from "../text";
import { add, type ParseState } from "./state";

/** A lower bound on the minimum out: "at least", "no less than", "not below" (">=" is "at least" by now). */
const SHARE_BOUND = /\b(?:at\s+least|no\s+less\s+than|not\s+less\s+than|no\s+lower\s+than|not\s+(?:below|under|lower\s+than)|never\s+(?:below|under|less\s+than))\b/i;

/** Slippage caps: "Slippage at most 1% (100 bps)", "max slippage 50 bps", "amountOutMinimum no more than 0.5% below...". */
export function parseSlippage(c: Clause, st: ParseState, rule: string): void {
  const minOut =
    /\b(?:amount\s?out\s?min(?:imum)?|min(?:imum)?\s+(?:amount\s+)?(?:out(?:put)?|received|return)|min(?:imum)?\s+out|output\s+minimum|minimum\s+output|min(?:imum)?(?:_|-)?(?:amount(?:_|-)?)?(?:out|received)|out(?:_|-)?min)\b/i;
  // "slip at most 50bps", "slipage 35bps max": owners' shorthand and misspellings of the word, with a figure in bps or %.
  const SLIP = /\bslip+(?:a?ge?)?\b/i;
  if (!/slippage|price impact/i.test(c.text) && !SLIP.test(c.text) && !minOut.test(c.text)) return;
  const figures: number[] = [];
  // "amountOutMinimum >= 99% of value", "min out at least 99.5% of the quote": the minimum is a share of the input's
  // value, so 99% allows 100 bps. A share of 50% or more beside a minimum-out word is never itself the slippage (it
  // had been read as a 9,900 bps cap, which lets any minimum through); without a lower-bound word it is not read.
  const share = minOut.test(c.text) && (SHARE_BOUND.test(c.text) || /\bof\b|[:=]/i.test(c.text));
  let unreadShare = false;
  scan(c, /(\d+(?:\.\d+)?)\s*(%|percent|bps|basis points?|bp)(?=\W|$)/gi, (m) => {
    const n = Number(m[1]);
    if (/^b/i.test(m[2])) figures.push(n);
    else if (n < 50) figures.push(n * 100);
    else if (share && n <= 100) figures.push(Math.round((100 - n) * 100 * 1e6) / 1e6);
    else {
      unreadShare = true;
      return false;
    }
  });
  if (figures.length === 0 || unreadShare) return;
  if (share) scan(c, SHARE_BOUND, () => undefined);
  scan(c, /\b(?:below|under|beneath|from|versus|vs|relative to|of)\s+(?:the\s+)?(?:expected|fair|quoted|market|oracle|current|mark|spot|context|reference)?\s*(?:value|price|prices|amount|output|quote|rate)?(?:\s+(?:at|from|using|per|based on|implied by)\s+(?:the\s+)?(?:context|market|oracle|current|mark|spot|reference)\s+(?:prices?|values?|rates?|quotes?))?(?:\s+(?:in|from|given in)\s+(?:the\s+)?context)?/gi, () => undefined);
  scan(c, /\b(?:slippage|slip+(?:a?ge?)?|price impact)(?:\s+tolerance)?\b/gi, () => undefined);
  // "don't accept more than 1% slippage", "never tolerate over 50 bps": a ceiling said as a refusal.
  scan(c, /\b(?:don['’]t|do not|never|won['’]t|will not|must not|should not|shouldn['’]t)\s+(?:accept|allow|tolerate|take|use|permit|eat)\s+(?:more than|over|above|beyond|anything (?:over|above|beyond|worse than))\b/gi, () => undefined);
  // "min out can't be more than 1% under the context price", "must not be worse than 50 bps": a ceiling said of the minimum.
  scan(c, /\b(?:can['’]t|cannot|can not|must not|mustn['’]t|should not|shouldn['’]t|may not|won['’]t|will not|is not|isn['’]t|never)\s+(?:be\s+)?(?:more|worse|lower|further)\s+than\b/gi, () => undefined);
  scan(c, /\b(?:max(?:imum)?|at most|no more than|not more than|up to|cap(?:ped)?(?: at| of)?|limit(?:ed)?(?: to| of)?|under|below|within|less than|not (?:to )?exceed|must not exceed|or less|tolerance(?: of)?|set to|of)\b/gi, () => undefined);
  scan(c, minOut, () => undefined);
  add(st, { kind: "slippage_cap", bps: Math.min(...figures), rule });
}
