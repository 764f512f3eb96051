/**
 * Side permissions in the shapes short mandates write them, beside the readers of trading.ts (`parseSide`):
 *
 * - one side held for a human: "shorts need a ping to me before u open one", "selling requires my OK first" (the
 *   side is not refused: an order opening it escalates; the other side stays free);
 * - both sides permitted: "buys and sells both fine", "buying n selling both ok", "buy or sell, doesnt matter",
 *   "long or short, either is fine", "shorts r fine": a permission that restricts nothing (the permission reader
 *   still reads the verbs);
 * - no selling before resolution: "never sell before resolution", "shall not sell shares prior to market
 *   resolution": on a prediction market every sell happens before resolution (after it, shares are redeemed), so
 *   this is "never sell";
 * - "may only purchase outcome shares": buys only, said with another verb.
 */
import { scan, type Clause } from "../text";
import { ESCALATE_RE } from "./amounts";
import { add, type ParseState } from "./state";

const SIDE_NOUN = String.raw`(?:(?:opening|open|new|any|going)\s+)?(shorts?|short\s+positions?|shorting|longs?|long\s+positions?|sells?|selling|buys?|buying)`;
const SIDE_WORD = String.raw`(?:buy(?:s|ing)?|sell(?:s|ing)?|longs?|shorts?|purchas(?:e|es|ing))`;
const FINE = String.raw`(?:fine|ok|okay|allowed|permitted|good|alright|welcome)`;
/** "buys and sells both fine", "buying n selling both ok", "long or short, either is fine", "buy/sell doesnt matter". */
const BOTH = new RegExp(
  String.raw`\b(?:both\s+)?(?:(?:going|go|being|trading|taking)\s+)?${SIDE_WORD}\s*(?:and|or|n|&|\/|\+)\s*(?:(?:going|go|being)\s+)?${SIDE_WORD}(?:\s+(?:orders?|positions?|sides?))?\s*,?\s*(?:(?:are|is|r)\s+)?(?:(?:both|either(?:\s+(?:one|way|side))?)\s+(?:(?:are|is|r)\s+)?)?(?:${FINE}|(?:it\s+)?(?:doesn't|does\s+not|don't)\s+matter)\b|\b(?:shorts?|longs?|shorting|selling|buying)\s+r\s+${FINE}\b`,
  "gi",
);
/** A clause that is only the verdict on a pair named before it in the sentence: "doesn't matter", "either is fine". */
const VERDICT_ONLY = new RegExp(String.raw`^\s*(?:(?:it|which\s+one)\s+)?(?:(?:doesn't|does\s+not|don't)\s+matter|(?:(?:both|either)(?:\s+(?:one|way|side))?\s+)?(?:(?:are|is|r)\s+)?${FINE})\s*[.!]?\s*$`, "i");
const PAIR_BEFORE = new RegExp(String.raw`\b${SIDE_WORD}\s*(?:and|or|n|&|\/|\+)\s*${SIDE_WORD}\b|\b(?:cross|isolated)\s*(?:and|or|\/)\s*(?:cross|isolated)\b`, "i");

const NEVER_SELL_BEFORE = /\b(?:never|not|don't|do\s+not|must\s+not|shall\s+not|should\s+not|may\s+not|won't|will\s+not|i\s+don't)\s+(?:ever\s+)?sell(?:ing)?\s+(?:(?:any|my|our|the|its|outcome)\s+)*(?:shares?|positions?|tokens?|holdings?)?\s*(?:before|prior\s+to|until|ahead\s+of)\s+(?:the\s+)?(?:market(?:'s)?\s+)?(?:resolution|resolves|it\s+resolves|they\s+resolve|the\s+market\s+resolves|settlement|expiry|close)\b/gi;
const ONLY_PURCHASE = /\b(?:may|can|will|shall|should|must|is\s+to)\s+only\s+(?:ever\s+)?(?=(?:purchase|acquire)\b)/gi;

/**
 * "do not sell anything, we're holding till it resolves": after a refusal to sell, the owner's plan to hold to
 * resolution restates the refusal (it grants nothing). Consumed only once a buys-only rule stands.
 */
const HOLD_TO_RESOLUTION = /,?\s*\b(?:(?:we|i)\s*(?:['’]?re|\s+are|\s+am|['’]?m|\s+will|['’]ll)?\s+|were\s+|just\s+)?(?:hold(?:ing)?|keep(?:ing)?|stay(?:ing)?\s+in)\s+(?:(?:it|them|everything|all|(?:the|our|my)\s+(?:shares?|positions?))\s+)?(?:(?:until|till|til|to|through)\s+(?:(?:it|they|the\s+market)\s+)?(?:resolves?|resolution|settles?|settlement|expiry|the\s+end))\s*[.!]?\s*$/gi;

export function parseSideWords(c: Clause, st: ParseState, rule: string): void {
  scan(c, NEVER_SELL_BEFORE, () => add(st, { kind: "side", allowed: "buy", rule }));
  scan(c, ONLY_PURCHASE, () => add(st, { kind: "side", allowed: "buy", rule }));
  scan(c, BOTH, () => undefined);
  // Only after a refusal to sell in this clause (the side rule itself is read by trading.ts or above).
  if (/\b(?:never|not|don't|dont|do\s+not|no)\s+(?:ever\s+)?sell(?:ing|s)?\b/i.test(c.text)) {
    // Parts of the tail ("resolution") may already be another reader's; the plan is consumed whole.
    const m = HOLD_TO_RESOLUTION.exec(c.text);
    HOLD_TO_RESOLUTION.lastIndex = 0;
    if (m) c.used.fill(true, m.index, m.index + m[0].length);
  }
  if (VERDICT_ONLY.test(c.text) && c.sentence.indexOf(c.text.trim()) > 0 && PAIR_BEFORE.test(c.sentence.slice(0, c.sentence.indexOf(c.text.trim())))) scan(c, /^[\s\S]+$/g, () => undefined);
  // "shorts need a ping to me before u open one", "selling requires my sign-off": an order opening that side escalates.
  const lead = new RegExp(String.raw`^\s*(?:and\s+|but\s+)?${SIDE_NOUN}\s+(?=\S)`, "i").exec(c.text);
  if (!lead || /\d/.test(c.text)) return;
  const rest = c.text.slice(lead[0].length);
  const esc = new RegExp(String.raw`^(?:(?:always|each|every\s+time|all)\s+)?(?:${ESCALATE_RE.source})`, "i").exec(rest);
  const needs = /^(?:(?:always\s+)?(?:needs?|requires?|gets?|go(?:es)?\s+through|must\s+(?:get|have|go\s+through))\s+)(?:an?\s+|my\s+|our\s+)?(?:ping|text|message|heads[- ]up|call|dm|ok|okay|approval|sign[- ]?off|go-?ahead)\b(?:\s+(?:to|from|with|by)\s+(?:me|us|the\s+owner))?/i.exec(rest);
  if (!esc && !needs) return;
  const w = lead[1].toLowerCase();
  const held = /^(?:short|shorting)/.test(w) ? "short" : /^long/.test(w) ? "long" : /^sell/.test(w) ? "sell" : "buy";
  const allowed = held === "short" ? "long" : held === "long" ? "short" : held === "sell" ? "buy" : "sell";
  add(st, { kind: "side", allowed, escalate: true, rule });
  c.used.fill(true, 0, lead[0].length + (esc ?? needs)![0].length);
  // "before u open one", "first", "before placing": when the human is asked, part of the referral.
  scan(c, /\b(?:before|prior\s+to)\s+(?:(?:you|u|it|the\s+agent|the\s+bot)\s+)?(?:open|opening|place|placing|send|sending|put|putting|go|going)(?:\s+(?:one|it|them|in|on))?\b|\bfirst\b/gi, () => undefined);
  // ", longs whenever": the other side restated as free.
  scan(c, new RegExp(String.raw`,?\s*\b${allowed === "long" || allowed === "short" ? `${allowed}s?` : `${allowed}(?:s|ing)?`}(?:\s+(?:(?:are|is|r)\s+)?(?:${FINE}|whenever|anytime|any\s+time|freely))?\s*$`, "gi"), () => undefined);
}
