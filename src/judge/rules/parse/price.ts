/**
 * Per-share price caps on prediction markets: "never pay more than 45c a share", "the limit price per share shall
 * not exceed USD 0.60", "max_price_per_share: 0.35", "price of one share never more of 70 cents". A share pays out
 * $1, so the cap is a price between 0 and 1 dollar, checked against each order's limit price; it is not a cap on
 * the order's cost, which is why it must be read before the amount reader sees the figure.
 */
import { scan, type Clause } from "../text";
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

function priceOf(m: RegExpExecArray, from: number): number | null {
  const dollars = m[from] ?? m[from + 2];
  const v = dollars !== undefined ? Number(dollars) : m[from + 1] !== undefined ? Number(m[from + 1]) / 100 : NaN;
  return Number.isFinite(v) && v > 0 && v <= 1 ? v : null;
}

export function parsePriceCap(c: Clause, st: ParseState, rule: string): void {
  if (!st.prediction || !/share|price/i.test(c.text)) return;
  const emit = (m: RegExpExecArray, from: number, side: "buy" | "all", needsCeiling: boolean): boolean => {
    const max = priceOf(m, from);
    if (max === null) return false;
    const ceiling = new RegExp(CEIL, "i").exec(m[0]);
    // "price: 0.35" alone says what the price is, not a limit; "max price: 0.35" is a limit.
    if (needsCeiling && !ceiling && !/^(?:the\s+)?max/i.test(m[0])) return false;
    add(st, { kind: "price_cap", max, strict: !!ceiling && STRICT.test(ceiling[0]), side, rule });
    return true;
  };
  scan(c, PAY_FIRST, (m) => emit(m, 2, "buy", false));
  scan(c, SUBJECT_FIRST, (m) => emit(m, 1, "all", true));
  scan(c, CEIL_FIRST, (m) => emit(m, 1, "all", false));
  scan(c, PRICE_FIRST, (m) => emit(m, 1, "all", false));
}
