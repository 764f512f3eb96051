/**
 * Per-share price caps on prediction markets: "never pay more than 45c a share", "the limit price per share shall
 * not exceed USD 0.60", "max_price_per_share: 0.35", "price of one share never more of 70 cents". A share pays out
 * $1, so the cap is a price between 0 and 1 dollar, checked against each order's limit price; it is not a cap on
 * the order's cost, which is why it must be read before the amount reader sees the figure.
 */
import { consume, scan, type Clause } from "../text";
import { ESCALATE_RE } from "./amounts";
import { add, type ParseState } from "./state";

/** A share price: "$0.60", "0.35", "45c", "45¢", "70 cents". Group 1: dollars; group 2: cents. */
const PRICE = String.raw`(?:\$\s?(\d?\.\d+|[01](?:\.\d+)?)(?![\d.]|\s?[kKmM]\b)|(\d{1,2}(?:\.\d+)?)\s?(?:c|¢|cents?)\b|\b(0?\.\d+)\b(?![\d.]|\s?[kKmM]\b))`;
/** Words that set a ceiling; "then" is a common misspelling of "than", "more of" a non-native one. */
const CEIL = String.raw`(?:(?:shall|must|should|may|will|can|does|do)\s+)?(?:(?:never|not|no)\s+)?(?:be\s+)?(?:exceed(?:s|ing)?|(?:more|higher|greater|bigger)\s+(?:than|then|of)|above|over|beyond|at most|max(?:imum)?|up to|no more than|not more than|under|below|less than|lower than|at or below|at or under)`;
const STRICT = /\b(?:under|below|less than|lower than)\b/i;
const SHARE = String.raw`(?:a|per|each|every|\/|for\s+(?:a|one|1|each))\s*share\b`;
/** "limit price per share", "max_price_per_share", "price of 1 share", "per-share price", "share price". */
const SUBJECT = String.raw`(?:(?:the\s+)?(?:(?:limit|max(?:imum)?|entry|purchase|buy(?:ing)?)[\s_]+)?price(?:[\s_]+(?:paid[\s_]+)?(?:per|of|for)[\s_]+(?:(?:a|one|1|each|any)[\s_]+)?share)?|per[- ]share\s+price|share\s+price)`;

const PAY_FIRST = new RegExp(String.raw`\b(?:(?:never|don't|do not|not|won't|will not|must not|should not)\s+(?:ever\s+)?)?(pay|paying|buy|buying|bid|bidding)\s+(?:(?:anything|any\s+shares?)\s+)?${CEIL}\s+${PRICE}\s*${SHARE}`, "gi");
const SUBJECT_FIRST = new RegExp(String.raw`\b${SUBJECT}\s*(?:[:=]|is)?\s*(?:${CEIL}\s+)?(?:of\s+)?${PRICE}`, "gi");
const CEIL_FIRST = new RegExp(String.raw`\b${CEIL}\s+${PRICE}\s*${SHARE}`, "gi");
const PRICE_FIRST = new RegExp(String.raw`${PRICE}\s*${SHARE}\s+(?:max(?:imum)?|tops|at most|or less|cap)\b`, "gi");
/** "any buy priced above 70c/share", "orders at a price over 0.8": the order's price, named by its verb. */
const PRICED = new RegExp(String.raw`\b(?:(?:any|each|every|a|an)\s+)?(?:buys?|bets?|orders?|purchases?|bids?)\s+(?:priced|at\s+a\s+(?:limit\s+)?price|with\s+a\s+(?:limit\s+)?price)\s+${CEIL}\s+${PRICE}(?:\s*${SHARE})?`, "gi");
/** "nothing above 85c ever", "no bets over 90 cents": a bare cents figure, once the rules speak of a price a share. */
const BARE_CENTS = new RegExp(String.raw`\b(?:nothing|no\s+(?:buys?|bets?|orders?|purchases?)|never\s+(?:buy|bet|pay))\s+${CEIL}\s+(\d{1,2}(?:\.\d+)?)\s?(?:c|¢|cents?)\b(?!\s*(?:a|per|each|\/)\s*share)`, "gi");
/** The subject a cap just read was said of: "the limit price of any order", "limit price". */
const SUBJECT_WORDS = /\b(?:the\s+)?(?:limit\s+|max(?:imum)?\s+|entry\s+|purchase\s+)?price\b(?:\s+(?:of|for|on)\s+(?:any|each|every|an?|the|one)\s+(?:single\s+)?(?:order|bet|buy|purchase|share)s?\b)?/gi;

function priceOf(m: RegExpExecArray, from: number): number | null {
  const dollars = m[from] ?? m[from + 2];
  const v = dollars !== undefined ? Number(dollars) : m[from + 1] !== undefined ? Number(m[from + 1]) / 100 : NaN;
  return Number.isFinite(v) && v > 0 && v <= 1 ? v : null;
}

/**
 * Whether what follows the cap just read sends it to a human: in its own stretch of the clause ("any buy priced
 * above 70c/share needs my ok"), or after a dash when nothing else follows the cap in the clause ("any buy priced
 * above 70c/share - ask me first"). A referral past another figure or a comma belongs to that other rule ("never pay
 * more than 45c a share, max $1k per order and anything above $500 ping me first").
 */
function referred(c: Clause, m: RegExpExecArray): boolean {
  const end = m.index + m[0].length;
  const after = c.text.slice(end);
  const own = new RegExp(String.raw`^[^\d$,;:]*?(?:${ESCALATE_RE.source})`, "i").exec(after);
  // The referral's words (and the verb before it: "needs my ok") are this rule's.
  if (own) {
    consume(c, end, end + own[0].length);
    return true;
  }
  if (/\S/.test(after)) return false;
  const at = c.sentence.indexOf(c.text.trim());
  return at >= 0 && new RegExp(String.raw`^\s*-\s+[^\d$.;]*?(?:${ESCALATE_RE.source})`, "i").test(c.sentence.slice(at + c.text.trim().length));
}

export function parsePriceCap(c: Clause, st: ParseState, rule: string): void {
  if (!st.prediction) return;
  const before = st.constraints.length;
  const priceRules = st.constraints.some((k) => k.kind === "price_cap" || (k.kind === "escalate_on" && k.when?.subject === "price"));
  const emit = (m: RegExpExecArray, from: number, side: "buy" | "all", needsCeiling: boolean): boolean => {
    const cents = from < 0 ? Number(m[1]) / 100 : null;
    const max = cents !== null ? (cents > 0 && cents <= 1 ? cents : null) : priceOf(m, from);
    if (max === null) return false;
    const ceiling = new RegExp(CEIL, "i").exec(m[0]);
    // "price: 0.35" alone says what the price is, not a limit; "max price: 0.35" is a limit.
    if (needsCeiling && !ceiling && !/^(?:the\s+)?max/i.test(m[0])) return false;
    const strict = !!ceiling && STRICT.test(ceiling[0]);
    // "any buy priced above 70c/share - ask me first": above the figure, the owner decides; it is not a refusal.
    if (referred(c, m)) add(st, { kind: "escalate_on", activities: ["order"], when: { subject: "price", op: strict ? ">=" : ">", value: max, text: `when the price of a share is ${strict ? "at least" : "above"} $${max}` }, rule });
    else add(st, { kind: "price_cap", max, strict, side, rule });
    return true;
  };
  if (/share|price/i.test(c.text)) {
    scan(c, PAY_FIRST, (m) => emit(m, 2, "buy", false));
    scan(c, PRICED, (m) => emit(m, 1, "all", false));
    scan(c, SUBJECT_FIRST, (m) => emit(m, 1, "all", true));
    scan(c, CEIL_FIRST, (m) => emit(m, 1, "all", false));
    scan(c, PRICE_FIRST, (m) => emit(m, 1, "all", false));
  }
  // A cents figure is no order cost anyone writes: once a price a share is the rules' measure, it is that price.
  if (priceRules && !/\$|usd|bucks|dollars?|shares?\b/i.test(c.text)) scan(c, BARE_CENTS, (m) => emit(m, -1, "all", false));
  if (st.constraints.length > before) scan(c, SUBJECT_WORDS, () => undefined);
}
