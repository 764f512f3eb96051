/**
 * Minimums and ranges: "each tip has to be between 5 and 50 USDC, both ends ok", "payments from 10 to 200 USDC",
 * "min payment: 5 USDC", "no bet smaller than $2", and for prediction markets a range of share prices ("price
 * range: 0.05 to 0.90 per share"). A range is a cap at its top and a floor at its bottom; a floor is never a cap,
 * so an amount below it is outside the rule, however small.
 *
 * Read only where the clause says what each action must be (a scope noun: payment, tip, order, bet, swap...), never
 * for what must remain somewhere ("keep at least 500 USDC in the wallet"): that is a balance, and stays unread.
 */
import type { CapScope, Constraint } from "../types";
import { consume, parseNumber, scan, type Clause } from "../text";
import { add, asSymbol, type ParseState } from "./state";
import { ESCALATE_RE } from "./amounts";

// Never a share, a multiple or basis points: "min out 99%" is a slippage rule, not an amount.
const NUM = String.raw`(\d[\d,]*(?:\.\d+)?|\.\d+)\s?(k|m)?(?!\s*(?:%|x\b|bps\b|basis\b|percent\b|[\d.,]))`;
/** A unit after a figure: dollars or a token symbol (checked with asSymbol). */
const UNIT = String.raw`(?:\s?(usd|dollars?|bucks|[A-Za-z][A-Za-z0-9]{1,9})\b)?`;

const SCOPES: Array<[CapScope, RegExp]> = [
  ["swap", /\bswaps?\b/i],
  ["order", /\b(?:orders?|trades?|bets?|wagers?|tickets?|positions? sizes?|purchases?|buys?)\b/i],
  ["transfer", /\b(?:payments?|transfers?|payouts?|sends?|sendings?|tips?|grants?|disbursements?|invoices?|requests?|calls?|withdrawals?|top[- ]?ups?)\b/i],
];
/** What must remain or be held: a balance floor, not a floor on each action. */
const BALANCE = /\b(?:keep|kept|leave|left|remain|remains|reserve|balance|buffer|hold|holds|held|maintain)\b/i;
/** "keep every order between $200 and $1k": the verb bounds each action named right after it, not a balance. */
const KEEP_EACH = /\b(?:keep|hold)\s+(?:each|every|all|any)\s+(?:orders?|trades?|bets?|payments?|transfers?|payouts?|swaps?|tips?)\b/gi;

function scopeOf(text: string): CapScope | null {
  for (const [s, re] of SCOPES) if (re.test(text)) return s;
  return null;
}

interface Fig {
  value: number;
  unit: string | null;
}

function fig(dollar: string | undefined, n: string, k: string | undefined, unitWord: string | undefined): Fig | null {
  const v = parseNumber(n, k);
  if (v === null) return null;
  if (dollar) return { value: v, unit: "USD" };
  if (!unitWord) return { value: v, unit: null };
  if (/^(?:usd|dollars?|bucks)$/i.test(unitWord)) return { value: v, unit: "USD" };
  const sym = asSymbol(unitWord);
  return sym ? { value: v, unit: sym } : null;
}

/** The unit a range's figures share: written on either end, or the one stablecoin-only intents imply. */
function shared(a: Fig, b: Fig, st: ParseState): string | null {
  if (a.unit && b.unit && a.unit !== b.unit) return null;
  return a.unit ?? b.unit ?? (st.stableOnly ? "USD" : null);
}

const RANGE = new RegExp(
  String.raw`\b(?:between|from)\s+(\$)?\s?${NUM}${UNIT}\s+(?:and|to|-)\s+(\$)?\s?${NUM}${UNIT}(?:\s*,?\s*\(?(?:both\s+(?:ends|limits|bounds)\s+(?:ok|okay|included|inclusive|count)|inclusive|included)\)?)?`,
  "gi",
);
const FLOOR = new RegExp(
  String.raw`\b(?:min(?:imum)?(?:\s+[A-Za-z-]+){1,3}\s*[:=]|min(?:imum)?(?:\s+(?:of|amount|size|value))?|at\s+least|no\s+less\s+than|not\s+less\s+than|(?:no|never)\s+(?:\w+\s+)?(?:smaller|lower|less)\s+than|not\s+(?:below|under))\s*[:=]?\s*(\$)?\s?${NUM}${UNIT}`,
  "gi",
);

/** Dollar and token amounts: a range gives a cap and a floor, a minimum a floor. */
export function parseRanges(c: Clause, st: ParseState, rule: string): void {
  // "payments of at least $1k need sign-off": a human threshold (amounts.ts), not a minimum.
  if (!/\d/.test(c.text) || BALANCE.test(c.text.replace(KEEP_EACH, " ")) || new RegExp(ESCALATE_RE.source, "i").test(c.text)) return;
  const scope = scopeOf(c.text);
  if (!scope) return;
  // "exclusive", "strictly": the bounds themselves are out; not read (the clause stays unread and escalates).
  if (/\b(?:exclusive|strictly)\b/i.test(c.text)) return;
  const priceRange = st.prediction && /\bprice|\bshares?\b|¢|\bcents?\b/i.test(c.text);
  scan(c, RANGE, (m) => {
    const lo = fig(m[1], m[2], m[3], m[4]);
    const hi = fig(m[5], m[6], m[7], m[8]);
    if (!lo || !hi || lo.value > hi.value) return false;
    const unit = shared(lo, hi, st);
    if (!unit) return false;
    add(st, { kind: "cap", limit: { value: hi.value, unit }, period: "action", scope, strict: false, rule });
    add(st, { kind: "floor", limit: { value: lo.value, unit }, scope, rule });
    scopeWords(c);
    scan(c, KEEP_EACH, () => undefined);
  });
  if (!priceRange) {
    scan(c, FLOOR, (m) => {
      const lo = fig(m[1], m[2], m[3], m[4]);
      const unit = lo ? (lo.unit ?? (st.stableOnly ? "USD" : null)) : null;
      if (!lo || !unit) return false;
      add(st, { kind: "floor", limit: { value: lo.value, unit }, scope, rule });
      scopeWords(c);
    });
  }
}

/** "price range: 0.05 to 0.90 per share", "share price between 5c and 90c": both bounds on each order's price. */
export function parsePriceRange(c: Clause, st: ParseState, rule: string): void {
  if (!st.prediction || !/\bprice|\bshares?\b/i.test(c.text)) return;
  const P = String.raw`(?:\$\s?)?(\d?\.\d+|[01](?:\.\d+)?|\d{1,2}\s?(?:c|¢|cents?))`;
  // The "price range:" key may already be read as the line's label, so the match starts at the figures.
  const re = new RegExp(String.raw`(?:\b(?:between|from)\s+)?${P}\s+(?:and|to|-)\s+${P}(?![\d.])(\s*(?:per|a|each|\/)\s*share\b)?`, "gi");
  let found = false;
  scan(c, re, (m) => {
    if (!m[3] && !/\bprice\b/i.test(c.text)) return false;
    const lo = sharePrice(m[1]);
    const hi = sharePrice(m[2]);
    if (lo === null || hi === null || lo > hi) return false;
    add(st, { kind: "price_cap", max: hi, strict: false, side: "all", rule });
    add(st, { kind: "price_floor", min: lo, rule });
    found = true;
  });
  if (found) scan(c, /\b(?:share\s+)?price(?:\s+range)?\b/gi, () => undefined);
}

function sharePrice(s: string): number | null {
  const cents = /^(\d{1,2})\s?(?:c|¢|cents?)$/i.exec(s);
  const v = cents ? Number(cents[1]) / 100 : Number(s);
  return Number.isFinite(v) && v > 0 && v <= 1 ? v : null;
}

/** "each tip has to be", "per payment", "every order must be": the scope of the range, read with it. */
function scopeWords(c: Clause): void {
  scan(c, /\b(?:each|every|any|per|a|one|single|any\s+single)\s+(?:tip|payment|transfer|payout|send|sending|grant|disbursement|order|trade|bet|wager|swap|purchase|invoice|request|call|withdrawal|top[- ]?up)s?\b|\b(?:has|have|must|should|shall|needs?)\s+(?:to\s+)?be\b|\b(?:amounts?|sizes?|values?)\b/gi, () => undefined);
  const m = /\b(?:tips?|payments?|transfers?|payouts?|sends?|grants?|disbursements?|orders?|trades?|bets?|wagers?|swaps?|purchases?)\b/i.exec(c.text);
  if (m && !c.used[m.index]) consume(c, m.index, m.index + m[0].length);
}

/** "nothing smaller (fees eat it)", "and nothing bigger": a bound said again, in words, after its figure. */
const RESTATED_BOUND =
  /^(?:and\s+|or\s+|but\s+)?(?:nothing|none|no\s+(?:orders?|trades?|bets?|payments?|transfers?|swaps?)|not)\s+(smaller|less|lower|below|under|bigger|larger|more|higher|above|over)(?:\s+than\s+(?:that|this|those|these))?(?:\s*\((?![^)]*(?:\d|\bnot?\b|never|only|except|unless|but))[^()]{1,40}\))?\s*$/i;

/**
 * Does the clause only say again a bound an earlier clause of its sentence gave ("between $200 and $1k, nothing
 * smaller and nothing bigger")? Only when that earlier clause produced the same side of bound: a lone "nothing
 * bigger" with no cap before it stays unread.
 */
export function restatesBound(text: string, earlier: Constraint[]): boolean {
  const m = RESTATED_BOUND.exec(text.trim());
  if (!m) return false;
  const lower = /^(?:smaller|less|lower|below|under)$/i.test(m[1]);
  return earlier.some((k) => (lower ? k.kind === "floor" : k.kind === "cap" && k.period === "action"));
}
