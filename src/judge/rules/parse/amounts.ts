/**
 * Numeric rules: per-action caps, cumulative budgets (daily, weekly, total), "needs a human above X"
 * thresholds, and slippage caps (leverage: leverage.ts). Each amount in a clause is read with the words around it
 * (a small window bounded by punctuation and the neighbouring amounts), so "Max notional $2,000 per order",
 * "each order's notional must stay under $1,500" and "$20/day budget" all parse the same way.
 */
import { HUMAN_SIGN_RE, REFERRAL_RE, REFERRAL_TAIL } from "./human";
import { OPEN_UNIT, type CapScope, type Constraint, type Period, type Quantity } from "../types";
import { consume, globalRe, parseNumber, scan, type Clause } from "../text";
import { cappedActivity, lineExempt } from "./cap-activity";
import { add, asSymbol, type ParseState } from "./state";
import { USD_STABLES } from "../vocab";
import { FIGURE_THEN_CAP, HELD, NOT_AN_AMOUNT, OPEN_TAIL, heldValues, openFigure } from "./open-figures";

const NUM = String.raw`(?:\d[\d,]*(?:\.\d+)?|\.\d+)`;
const MULT = String.raw`(?:k|m|mm|bn|thousand|million)`;
const AMOUNT_RE = new RegExp(
  String.raw`(?:US)?\$\s?(${NUM})(?:\s?(${MULT})\b)?(?:\s?(?:usd|dollars?)\b)?|\b(${NUM})\s?(${MULT})?\s?(usd|dollars?|bucks|[A-Za-z][A-Za-z0-9]{1,9})\b(?!\.\w)`,
  "gi",
);

export const CAP_WORDS = String.raw`(?:never|do not|don't|must not|mustn't|should not|shouldn't|cannot|can't|may not|won't|will not|not|no)\s+(?:[a-z]+\s+){0,5}?(?:more than|above|over|beyond|exceed(?:s|ing)?|in excess of|north of|greater than|larger than|bigger than|higher than)|max(?:imum)?|at most|no more than|not more than|nothing (?:above|over|more than)|not over|no greater than|up to|upto|cap(?:ped)?(?: at| of)?|limit(?:ed)?(?: to| of| at)?|at or below|at or under|or less|or below|within|under|below|less than|lower than|smaller than|not (?:to )?exceed|(?:must|should|may|will|can) not exceed|never exceed|(?:do not|don't|cannot|can't|may not|should not|shouldn't|must not|mustn't) exceed|exceed(?:ing|s)?|above|over|in excess of|north of|upwards of|more than|larger than|greater than|bigger than|beyond|ceiling(?: of)?|tops`;
const CAP_RE = new RegExp(String.raw`\b(?:${CAP_WORDS})\b`, "gi");
const THRESHOLD = /\b(above|over|more than|larger than|greater than|bigger than|exceed(?:ing|s)?|in excess of|north of|upwards of|beyond|at least|or more|and above|or above|and up|upwards)\b/i;
// "anything from 2,500 STRK up needs my ok", "from 1k upwards ask me": "up" after the figure opens the range upwards
// (never "up to", which closes it).
const AFTER_THRESHOLD = /^\s*(?:or more|or above|and above|and up|or higher|and over|plus|(?:and\s+)?(?:up|upwards?|onwards?)(?!\s+to\b))\b/i;
export const STRICT = /\b(under|below|less than|lower than|smaller than)\b/i;
const NEG_CTX =
  /\b(no|never|not|nothing|forbidden|prohibited|disallowed|banned|blocked|reject(?:ed)?|refuse[ds]?|not allowed|not permitted|must not|do not|don't|cannot|can't)\b/i;

const ESCALATE_BASE =
  /\b(?:needs?|requires?|required|must (?:get|have|be)|should (?:get|be)|get|gets|need to be|needs to be)\s+(?:(?:an?|the|my|explicit|prior|written|a human's|human|manual|owner's|owner|operator's|operator|admin's|admin|someone's|treasurer's|treasurer|cfo's|cfo|ceo's|ceo|finance|compliance|manager's|manager|team's|team)\s+)*(?:sign[- ]?off|approval|review|confirmation|ok|okay|consent|authori[sz]ation|approved|reviewed|confirmed|signed[- ]off)\b(?:\s+(?:by|from)\s+(?:a\s+|the\s+|an\s+)?(?:human|person|owner|me|operator|admin|treasurer|manager|someone|supervisor|risk officer))?(?:\s+first)?|\bescalat\w*(?:\s+(?:it|them|to (?:a |an |the )?(?:human|me|owner|person|manager|supervisor|treasurer|approver|reviewer|compliance)(?:\s+(?:approver|reviewer|operator|officer|team))?))?|\bneeds?\s+(?:a\s+|the\s+)?(?:human|person|me|someone|owner|operator)\s+to\s+(?:approve|sign off on|sign off|review|confirm|ok|okay)(?:\s+(?:it|them|this|that))?(?:\s+first)?|\b(?:ping|text|call|message|ask|check with)\s+(?:me|us|the owner|a human)(?:\s+first)?\b(?=\s*(?:$|[,.;)]|first|before))|\bhold (?:it |them )?for (?:review|approval)|\bask (?:me|the owner|a human|a person|for approval|first|before)\b|\bcheck with (?:me|the owner|a human)\b|\bconfirm with (?:me|the owner|a human)\b|\bflag (?:it |them )?for (?:review|a human)\b|\bhuman in the loop\b|\b(?:must|should|needs? to|has to|have to|is to|are to)\s+(?:first\s+)?(?:be\s+)?(?:put|submitted|brought|taken)\s+(?:first\s+)?to\s+a\s+(?:human|member|members['’]?|token|holder|dao|community|council|governance)?\s*vote(?:\s+first)?\b|\bwithout (?:first\s+)?(?:asking|checking with|consulting|approval from|confirming with|sign[- ]off from)\s+(?:me|the owner|a human|the team|someone)(?:\s+first)?\b|\bsend (?:it |them )?(?:to|for) (?:review|approval)\b|\b(?:a\s+)?(?:human|manual|owner|my|explicit)\s+(?:sign[- ]?off|approval|review|confirmation)\s+(?:is\s+)?(?:(?:required|needed)\s+)?(?:if|when|for|on|above|over)\b(?:\s+(?:anything|any\s+(?:payment|order|transfer|trade|swap)s?|payments?|orders?|transfers?|trades?|swaps?))?/gi;
/**
 * Every human-approval phrase: the base list above, the signing words and the referrals of `human.ts`, each with
 * what may follow it ("first", "before it is sent", "and wait"), so those words are read as part of the referral.
 */
export const ESCALATE_RE = new RegExp(`(?:${REFERRAL_RE.source}|${ESCALATE_BASE.source}|${HUMAN_SIGN_RE.source})${REFERRAL_TAIL}`, "gi");

// "Month budget: 12,000 USDC", "day cap 2k": the period word used as a noun before the budget's own noun.
const PERIODS: Array<[Period, RegExp]> = [
  ["day", /\bday(?:['’]s)?\s+(?:total|sum|budget|cap|limit|ceiling|allowance)\b|\b(?:per|a|each|every|any|in a|within a|in one|a single)\s+(?:calendar\s+|trading\s+)?day\b|\bdaily\b|\b(?:per|in any|any|a|each|rolling)\s+24[- ]?(?:h|hr|hrs|hours?)(?:\s+(?:period|window))?\b|\b24[- ]?(?:h|hr|hours?)(?:\s+(?:period|window|rolling))?\b|\btoday\b|\/\s?day\b|\/\s?24h\b|\ba day\b/gi],
  ["week", /\bweek(?:['’]s)?\s+(?:total|sum|budget|cap|limit|ceiling|allowance)\b|\b(?:per|a|each|every|any|in a|in one|within one|in any one|rolling|this|the current)\s+(?:calendar\s+)?week\b|\bweekly\b|\b7[- ]days?\b|\/\s?week\b/gi],
  ["month", /\bmonth(?:['’]s)?\s+(?:total|sum|budget|cap|limit|ceiling|allowance)\b|\b(?:per|a|each|every|any|in a|in one|within one|in any one|rolling|this|the current)\s+(?:calendar\s+)?month\b|\bmonthly\b|\b30[- ]days?\b|\/\s?month\b|\b(?:january|february|march|april|may|june|july|august|september|october|november|december)['’]s\b(?=\s+(?:\w+\s+)?(?:payments?|payouts?|transfers?|spend(?:ing)?|outflows?|orders?|purchases?|total)\b)/gi],
];
// A calendar or fiscal quarter has no period of its own: it is a running total, checked against the counter the
// rules name for it (a quarter-to-date figure); with none named, only a total counter can serve, or it escalates.
const TOTAL_RE = /\b(?:(?:per|a|each|every|any|in a|in any|this|the current)\s+(?:calendar\s+|fiscal\s+)?quarter|quarterly|in total|total|(?:the\s+)?(?:whole|entire)\s+(?:event|budget|round|program(?:me)?|campaign|project|season|engagement|mandate|conference|trip|sprint)|overall|combined|cumulative(?:ly)?|aggregate|lifetime|altogether|at any (?:one )?time|outstanding|in aggregate|(?:across|over)\s+(?:the\s+|all\s+|every\s+|our\s+|my\s+|this\s+|its\s+)?(?:whole\s+|entire\s+)?(?:account|acct|book|portfolio|open\s+positions|positions|markets|perps|assets|wallets)|(?:account|acct|portfolio|book)[- ]wide|open\s+(?=notional|positions?|exposure|interest))\b/gi;
const SUBJECT_RE =
  /\b(staked|stake|staking|delegated|exposure|open interest|spent|spend|spending|deposited|supplied|borrowed|invested|allocated|holdings?|balance|position size|positions?|hedge)\b/i;
const SCOPES: Array<[CapScope, RegExp]> = [
  ["swap", /\bswaps?\b/i],
  ["order", /\b(?:orders?|order's|trades?|bets?|wagers?|fills?|entr(?:y|ies)|tickets?|buys?|sells?)\b/i],
  ["transfer", /\b(?:payments?|transfers?|payouts?|sends?|requests?|calls?|invoices?|withdrawals?|bills?)\b/i],
  // A purchase is an order on a market and a payment over x402: a cap per purchase measures both.
  ["any", /\b(?:transactions?|txs?|actions?|operations?|times?|purchases?)\b/i],
];
/** The one kind of action a text names (swaps, orders or transfers); naming two kinds, or none, it speaks of every action. */
export function namedScope(text: string): CapScope {
  const kinds = SCOPES.filter(([k, re]) => k !== "any" && re.test(text));
  return kinds.length === 1 ? kinds[0][0] : "any";
}

/** A token's own unit (not dollars, not shares): what an alternative per asset is written in. */
const tokenUnit = (u: string): boolean => u !== "USD" && u !== "SHARES" && u !== OPEN_UNIT;

/** Words that count a figure per action ("per bet", "each payment", "a swap", "/order"): a budget beside them is per action. */
const ACTION_UNIT = /\b(?:per|each|every|(?:a|any|one)\s+single)\s+(?!(?:day|week|month|quarter|year|calendar|rolling|fiscal|24)\b)\w+|\b(?:a|an|any|one|in one|in a)\s+(?:\w+\s+)?(?:orders?|trades?|bets?|wagers?|swaps?|payments?|transfers?|payouts?|sends?|requests?|calls?|invoices?|withdrawals?|transactions?|txs?|tickets?|tips?|deposits?|entr(?:y|ies)|purchases?|actions?|operations?|times?)\b|\/\s?(?:order|trade|bet|swap|payment|transfer|call|request|tx)\b/i;

const BOUNDARY = /[,;()]|\band\b(?=\s+(?:max|at most|up to|no more|never|do not|don't|only|you|a |an |the |each|every|any|per|total))/gi;

interface Amount {
  start: number;
  end: number;
  q: Quantity | null; // null for a bare number whose unit is still to be inferred
  raw: string;
}

function readAmounts(c: Clause): Amount[] {
  const out: Amount[] = [];
  const re = globalRe(AMOUNT_RE);
  let m: RegExpExecArray | null;
  while ((m = re.exec(c.text)) !== null) {
    if (c.used[m.index]) continue;
    if (m[1] !== undefined) {
      const v = parseNumber(m[1], m[2]);
      if (v !== null) out.push({ start: m.index, end: m.index + m[0].length, q: { value: v, unit: "USD" }, raw: m[0] });
      continue;
    }
    const unitWord = m[5];
    const v = parseNumber(m[3], m[4]);
    if (v === null) continue;
    if (/^cents?$/i.test(unitWord)) {
      out.push({ start: m.index, end: m.index + m[0].length, q: { value: v / 100, unit: "USD" }, raw: m[0] });
      continue;
    }
    // "max 200 shares per order": a prediction-market order's size is its number of shares.
    const unit = /^(usd|dollars?|bucks)$/i.test(unitWord) ? "USD" : /^shares?$/i.test(unitWord) ? "SHARES" : asSymbol(unitWord);
    if (!unit) {
      // "2 orders": the number is not money; retry right after the number.
      re.lastIndex = m.index + m[3].length;
      continue;
    }
    out.push({ start: m.index, end: m.index + m[0].length, q: { value: v, unit }, raw: m[0] });
  }
  // "maximum 1.200 USDC": a held figure (1.2 or 1,200) with its unit written after it.
  for (const m of c.text.matchAll(new RegExp(String.raw`(${HELD})\s*(usd|dollars?|bucks|[A-Za-z][A-Za-z0-9]{1,9})\b`, "gi"))) {
    const held = heldValues(m[1], c.refs.numbers);
    const unit = /^(usd|dollars?|bucks)$/i.test(m[2]) ? "USD" : asSymbol(m[2]);
    if (held && unit && !c.used[m.index]) out.push({ start: m.index, end: m.index + m[0].length, q: openFigure(held, [unit]), raw: m[0] });
  }
  return out;
}

/** Words of trading, where a figure is usually notional in dollars rather than a count of the coin. */
const TRADING = /\b(?:perps?|perpetuals?|futures|trad(?:e|es|ing)|orders?|positions?|longs?|shorts?|notional|leverage)\b/i;

/**
 * "max 500 per order", "2,000 max per invoice", "anything over 40 ask me first": a figure with no unit, followed by
 * the action it counts or a human phrase. Always open (dollars or the action's own units), even beside a token
 * name: "SOL perps, max 500 per order" is far likelier $500 than 500 SOL, and taking the token would let a $1,800
 * order through.
 */
function openFigures(c: Clause, amounts: Amount[]): Amount[] {
  const out: Amount[] = [];
  if (NOT_AN_AMOUNT.test(c.text)) return out;
  const capThen = new RegExp(String.raw`\b(?:${CAP_WORDS})\s+(${NUM}|${HELD})(?<!,)\b(?![.,]\d)`, "gi");
  for (const re of [capThen, FIGURE_THEN_CAP]) {
    for (const m of c.text.matchAll(globalRe(re))) {
      const start = re === capThen ? m.index + m[0].length - m[1].length : m.index;
      const end = start + m[1].length;
      if (c.used[start] || [...amounts, ...out].some((a) => a.start <= start && start < a.end)) continue;
      const held = heldValues(m[1], c.refs.numbers);
      const v = held ? null : parseNumber(m[1]);
      if ((v === null && !held) || !OPEN_TAIL.test(c.text.slice(end))) continue;
      out.push({ start, end, q: openFigure(held ?? [v as number]), raw: m[1] });
    }
  }
  return out;
}

/** Text from the previous boundary (punctuation or amount) to `at`, and from `at` to the next one. */
function windowAround(c: Clause, amounts: Amount[], i: number): { preStart: number; postEnd: number } {
  const a = amounts[i];
  let preStart = i > 0 ? amounts[i - 1].end : 0;
  let postEnd = i + 1 < amounts.length ? amounts[i + 1].start : c.text.length;
  const re = globalRe(BOUNDARY);
  let m: RegExpExecArray | null;
  while ((m = re.exec(c.text)) !== null) {
    if (m.index < a.start && m.index + m[0].length > preStart) preStart = m.index + m[0].length;
    if (m.index >= a.end && m.index < postEnd) postEnd = m.index;
  }
  return { preStart: Math.max(preStart, a.start - 70), postEnd: Math.min(postEnd, a.end + 70) };
}

function findIn(c: Clause, re: RegExp, from: number, to: number): RegExpExecArray | null {
  const g = globalRe(re);
  g.lastIndex = from;
  let m: RegExpExecArray | null;
  let last: RegExpExecArray | null = null;
  while ((m = g.exec(c.text)) !== null && m.index < to) {
    if (m.index + m[0].length <= to) last = m;
    if (m[0].length === 0) g.lastIndex++;
  }
  return last;
}

export function firstIn(c: Clause, re: RegExp, from: number, to: number): RegExpExecArray | null {
  const g = globalRe(re);
  g.lastIndex = from;
  const m = g.exec(c.text);
  return m && m.index + m[0].length <= to ? m : null;
}

export const take = (c: Clause, m: RegExpExecArray | null): void => {
  if (m) consume(c, m.index, m.index + m[0].length);
};

function periodOf(c: Clause, from: number, to: number): { period: Period; m: RegExpExecArray | null } {
  for (const [p, re] of PERIODS) {
    const m = findIn(c, re, from, to);
    if (m) return { period: p, m };
  }
  const t = findIn(c, TOTAL_RE, from, to);
  if (t) return { period: "total", m: t };
  return { period: "action", m: null };
}

/**
 * "Pay up to $200 per invoice; anything larger needs CFO approval": the amount before is where a human takes
 * over, not a hard cap. The sentence's last per-action cap becomes an escalation threshold.
 */
export function parseAboveThat(c: Clause, st: ParseState, sentenceStart: number): void {
  const m = /^\s*(?:(?:and|but|so|for|then|please)\s+)*(?:(?:anything|any(?:thing)?\s+(?:payment|order|transfer|amount|trade|swap|bet)s?|amounts?|payments?|orders?|transfers?|bigger\s+ones|larger\s+ones)\s+(?:larger|bigger|greater|higher|more|above (?:that|this)|over (?:that|this)|beyond (?:that|this)|(?:larger|bigger|greater|higher|more) than (?:that|this))|(?:above|over|beyond|past)\s+(?:that|this|it)\s*[,:]?|bigger\s+ones|larger\s+ones)\b/i.exec(c.text);
  const esc = m ? firstIn(c, ESCALATE_RE, m[0].length, c.text.length) : null;
  if (!m || !esc) return;
  const i = st.constraints.map((k, j) => (j >= sentenceStart && ((k.kind === "cap" && k.period === "action") || k.kind === "escalate_above") ? j : -1)).filter((j) => j >= 0).pop();
  if (i === undefined) return;
  // "Orders of $2,000 or less: the agent places them by itself. Above that the desk lead decides.": the line is
  // already drawn (tiers.ts); this sentence only names who decides above it.
  if (st.constraints[i].kind === "escalate_above") {
    consume(c, m.index, m.index + m[0].length);
    take(c, esc);
    return;
  }
  const cap = st.constraints[i] as Extract<Constraint, { kind: "cap" }>;
  st.constraints[i] = { kind: "escalate_above", limit: cap.limit, scope: cap.scope, inclusive: false, rule: `${cap.rule}; ${c.text.trim()}` };
  consume(c, m.index, m.index + m[0].length);
  take(c, esc);
}

/**
 * The figure a human phrase belongs to: among figures introduced by a threshold word that no negation turns into a
 * ceiling ("above 4,000", not "may not exceed 5,000"), the last one written before the phrase, else the first
 * after it; with none, the last figure before the phrase, else the first.
 */
function humanLineOwner(c: Clause, amounts: Amount[], at: number): number {
  // "above 4,000 USD and up to 12,000": "and up to" tops a band, it is not the "and up" of "$500 and up".
  const lead = (j: number) => c.text.slice(j > 0 ? amounts[j - 1].end : 0, amounts[j].start).replace(/\b(?:and\s+)?up\s+to\b/gi, " ");
  const line = amounts.map((a, j) => a.q !== null && THRESHOLD.test(lead(j)) && !NEG_CTX.test(lead(j)));
  const pick = (ok: (j: number) => boolean): number => {
    let before = -1;
    amounts.forEach((a, j) => {
      if (ok(j) && a.start < at) before = j;
    });
    return before >= 0 ? before : amounts.findIndex((_, j) => ok(j));
  };
  const owner = pick((j) => line[j]);
  return owner >= 0 ? owner : pick((j) => amounts[j].q !== null);
}

/** "over $500 or 2 ETH needs my OK": figures joined by "or" / "and" / "/" share one human line. */
function pairedUp(c: Clause, amounts: Amount[], i: number, owner: number): boolean {
  if (owner < 0 || i === owner) return i === owner;
  const [lo, hi] = i < owner ? [i, owner] : [owner, i];
  for (let j = lo; j < hi; j++) if (!/^\s*\(?\s*(?:or|and|\/)\s*$/.test(c.text.slice(amounts[j].end, amounts[j + 1].start))) return false;
  return true;
}

/** Caps, budgets and escalation thresholds around every amount in the clause. */
export function parseAmounts(c: Clause, st: ParseState, rule: string): void {
  const before = st.constraints.length;
  // "(size times limit price)", "(price x shares)": how a notional is measured, which is what the checks do.
  scan(c, /\(\s*(?:i\.e\.\s*|=\s*)?(?:(?:size|qty|quantity|shares|contracts|coins|amount)\s*(?:times|x|×|\*|multiplied\s+by)\s*(?:the\s+)?(?:(?:limit|mark|entry|order)\s+)?price|(?:(?:limit|mark|order)\s+)?price\s*(?:times|x|×|\*|multiplied\s+by)\s*(?:the\s+)?(?:size|shares|qty|quantity|contracts|coins))\s*\)/gi, () => undefined);
  const amounts = readAmounts(c);
  // Bare numbers right after a cap word ("at or below 200") take the unit of the clause's only token symbol.
  // "(?![.,]\d)": never the integer part of a longer figure ("capped at 0.5%" is not a cap of 0); "(?<!,)": never a
  // figure cut at its thousands comma ("never more than 3,000 per payout" is not a cap of 3).
  const bare = new RegExp(String.raw`\b(?:${CAP_WORDS})\s+(${NUM})(?<!,)\b(?![.,]\d)(?!\s*(?:%|x\b|bps|basis|h\b|hours?|days?|minutes?|percent|[A-Za-z$]))`, "gi");
  let bm: RegExpExecArray | null;
  while ((bm = bare.exec(c.text)) !== null) {
    const start = bm.index + bm[0].length - bm[1].length;
    if (c.used[start] || amounts.some((a) => a.start <= start && start < a.end)) continue;
    const syms = [...new Set((c.text.match(/\b[A-Za-z][A-Za-z0-9]{1,9}\b/g) ?? []).map((w) => asSymbol(w)).filter((s): s is string => !!s))];
    const v = parseNumber(bm[1]);
    // "USDC or USDT ... Each payment capped at 7,500": with only dollar stablecoins in the rules, a bare figure is dollars.
    // "max 50 bucks a bet, and if a bet is over 30, ping me first": a bare figure ending its phrase, in a clause whose
    // amounts all share one unit, is in that unit (a count would name what it counts: "3 bets").
    const units = [...new Set(amounts.filter((a) => a.q).map((a) => a.q!.unit))];
    const clauseUnit = units.length === 1 && /^\s*(?:[,;.)]|$|(?:and|or|then)\b)/i.test(c.text.slice(start + bm[1].length)) ? units[0] : null;
    // "bets under 25 bucks u can just place ... nothing over 75, ever": after a review band, a bare figure is in its unit.
    // "SOL perps, max 500.": in a clause about trading, the one token it names is no unit for the figure beside it
    // ($500 of notional is the likelier reading, and taking 500 SOL let a $1,800 order through); both readings are
    // kept. "stake HYPE, at most 200." moves the token itself, and a dollar stablecoin agrees with dollars anyway.
    const named = syms.length === 1 && (USD_STABLES.has(syms[0]) || !TRADING.test(c.text)) ? syms[0] : null;
    const unit = syms.length === 1 ? named : syms.length === 0 && st.stableOnly ? "USD" : (clauseUnit ?? (syms.length === 0 ? st.bareUnit : null));
    if (v === null) continue;
    // "max 500." with nothing to take a unit from: every reading is kept (open-figures.ts).
    if (!unit || unit === OPEN_UNIT) {
      if (!NOT_AN_AMOUNT.test(c.text)) amounts.push({ start, end: start + bm[1].length, q: openFigure([v]), raw: bm[1] });
      continue;
    }
    amounts.push({ start, end: start + bm[1].length, q: { value: v, unit }, raw: bm[1] });
  }
  amounts.push(...openFigures(c, amounts));
  amounts.sort((a, b) => a.start - b.start);
  const escalateAll = firstIn(c, ESCALATE_RE, 0, c.text.length);
  const groupWords: Array<{ cap: RegExpExecArray | null; period: Period; scope: CapScope }> = [];
  for (let i = 0; i < amounts.length; i++) {
    const a = amounts[i];
    const q = a.q;
    if (!q) continue;
    const { preStart, postEnd } = windowAround(c, amounts, i);
    // The human-approval phrase belongs to the amount it sits next to ("escalate anything over $3,000"),
    // not to every amount of the clause ("... and never pay more than $10,000").
    // "No payment may exceed 5,000 USDC, and any payment above 1,000 USDC must be countersigned": with two figures,
    // the human phrase is the nearest one's (the last figure before it, or the first after it), never the hard cap's.
    const owner = escalateAll ? humanLineOwner(c, amounts, escalateAll.index) : -1;
    const escalate = escalateAll && (amounts.length === 1 || ((i === owner || pairedUp(c, amounts, i, owner)) && escalateAll.index + escalateAll[0].length >= preStart - 40 && escalateAll.index <= postEnd + 40)) ? escalateAll : null;
    const cap = findIn(c, CAP_RE, preStart, a.start);
    let postCap: RegExpExecArray | null = null;
    if (!cap) postCap = firstIn(c, /\s*(?:[A-Za-z']+\s+){0,3}?(?:max(?:imum)?|cap|limit|or less|or below|or under|at most|tops|ceiling|budget|allowance|quota)\b/y, a.end, postEnd);
    const budget = findIn(c, /\b(?:budget|allowance|spending limit|spend limit|quota|limit)\b/gi, preStart, postEnd);
    // "max 2 WETH or 7,000 USDC": the second amount of an "or" pair shares the first one's cap word.
    // "20 SOL max or 3k USDC max", "4 SOL, or 650 USDC": the first one's own cap word may sit between the two.
    // "at most 25 WETH in, or at most 75,000 USDC in": the side word and the cap word said again after "or" too.
    const pairedWithPrev =
      i > 0 &&
      /^\s*(?:(?:in|input|of input|sold|to sell)\s*)?(?:(?:max(?:imum)?|at most|tops|or less)\s*)?(?:,\s*(?=or\b))?\(?\s*(?:(?:or|and|\/)|(?:or|\/)\s*(?:max(?:imum)?|at most|up to|no more than|not more than))\s*$/i.test(
        c.text.slice(amounts[i - 1].end, a.start),
      );
    let inherited = pairedWithPrev && groupWords[i - 1]?.cap ? groupWords[i - 1] : null;
    // "Max $0.50 per request and $20.00 total per day": a later amount with its own period or scope word
    // continues the list the clause's cap word started.
    if (!cap && !postCap && !inherited && groupWords.some((g) => g.cap)) {
      const own = c.text.slice(a.end, postEnd);
      if (PERIODS.some(([, re]) => new RegExp(re.source, "i").test(own)) || new RegExp(TOTAL_RE.source, "i").test(own) || SCOPES.some(([, re]) => re.test(own)))
        inherited = [...groupWords].reverse().find((g) => g.cap) ?? null;
    }
    // "40 WETH or more must be cleared by the CFO": the comparison may follow the figure.
    const after = AFTER_THRESHOLD.exec(c.text.slice(a.end, postEnd));
    if (!cap && !postCap && !budget && !inherited && !(escalate && (THRESHOLD.test(c.text.slice(preStart, a.start)) || after))) {
      groupWords.push({ cap: null, period: "action", scope: "any" });
      continue; // an amount with no cap word is not a rule we understand; it stays as leftover
    }
    const capWord = cap?.[0] ?? postCap?.[0] ?? "";
    const found = periodOf(c, preStart, postEnd);
    let pm = found.m;
    let period = found.period;
    // "Daily total (context.spent_today_usd plus this call) must not exceed $10": with one amount in the clause,
    // a period word far from it still sets the period. Only ever stricter: a budget also counts spend so far.
    if (period === "action" && amounts.length === 1) {
      const whole = periodOf(c, 0, c.text.length);
      if (whole.period === "day" || whole.period === "week" || whole.period === "month") ({ period, m: pm } = whole);
    }
    // "Max 1 WETH (or 3,000 USDC) per swap": the scope may follow the closing parenthesis.
    const scopeEnd = pairedWithPrev && c.text[postEnd] === ")" ? Math.min(c.text.length, postEnd + 30) : postEnd;
    const scopeText = c.text.slice(preStart, scopeEnd);
    let scope: CapScope = "any";
    for (const [s, re] of SCOPES) {
      if (re.test(scopeText)) {
        scope = s;
        break;
      }
    }
    if (inherited && scope === "any") scope = inherited.scope;
    // "Isolated margin top-ups are fine, up to $1k each": the cap counts margin changes, not orders.
    const marginMove = /\bmargin\s+(?:top[- ]?ups?|additions?|adjustments?|changes?|transfers?)\b|\b(?:add(?:ing)?|top(?:ping)?[- ]up|remov(?:e|ing))\s+(?:\w+\s+)?margin\b/i;
    if (scope === "any" && marginMove.test(c.text) && !/\b(?:orders?|trades?|positions?|notional|usage|used|exposure)\b/i.test(c.text)) scope = "margin";
    let pairAlts: string[] | undefined;
    const sideInEarly = /^\s*(?:in|of input|input|sold|to sell)\b/i.test(c.text.slice(a.end, postEnd));
    // "Max 2 WETH or 7,000 USDC in per swap": the pair shares the period/scope written after the second amount.
    if (pairedWithPrev) {
      const prev = st.constraints[st.constraints.length - 1];
      if (prev && prev.kind === "cap") {
        // "4 SOL, or 650 USDC": two token units are one ceiling per asset, not two caps on every action.
        if (tokenUnit(prev.limit.unit) && tokenUnit(q.unit) && prev.limit.unit !== q.unit) pairAlts = [...new Set([...(prev.alts ?? [prev.limit.unit]), q.unit])];
        // A group of three or more ("0.2 BTC or 3 ETH or 60 SOL per order") shares one list and the scope written last.
        if (pairAlts) for (const k of st.constraints) if (k.kind === "cap" && k.alts && prev.alts && k.alts === prev.alts) k.alts = pairAlts;
        if (pairAlts) for (const k of st.constraints) if (k.kind === "cap" && k.alts === pairAlts && k.scope === "any") k.scope = scope;
        if (pairAlts) prev.alts = pairAlts;
        if (prev.period === "action" && period !== "action") prev.period = period;
        if (prev.scope === "any") prev.scope = scope;
        if (sideInEarly) prev.sideIn = true;
      }
    }
    const subjectM = SUBJECT_RE.exec(scopeText);
    // "The hedge is never bigger than 30 ETH short": the hedge is the position it holds.
    let subject = subjectM ? subjectM[1].toLowerCase().replace(/^hedge$/, "hedge position") : undefined;
    // "Keep positions under $10k" bounds the resulting position; "max position size per order" bounds each order.
    // "Run our vault position: deposits up to $5k per deposit": a cap counted per action of its own kind is per
    // action, whatever "position" names nearby (it had become a position total no deposit was ever held to).
    const perOrder = /\b(?:per|each|every|any single|a single)\s+(?:order|trade|entry)\b/i.test(c.text) || /\b(?:per|each|every|any single|a single|no single)\s+(?:deposit|supply|wrap|swap|payment|transfer|withdrawal|payout|stake|delegation)s?\b/i.test(scopeText);
    // "Max 3,000 STRK per stake" counts each stake; "total staked at most 2,500 HYPE" is the staked total.
    if (subject && /position|stak|delegat/.test(subject) && period === "action" && !perOrder) period = "total";
    // "Budget: 4k USDC", "the round's allowance is 9k": a budget or allowance with no word that counts it per action
    // is what may be spent in all (it had been a cap on each action, letting the whole budget be spent many times).
    if (period === "action" && budget && /^(?:budget|allowance|quota)$/i.test(budget[0]) && !ACTION_UNIT.test(scopeText)) {
      period = "total";
      subject = subject ?? "spent";
    }
    if (period === "day" || period === "week" || period === "month") subject = subject ?? "spent";
    const sideIn = /^\s*(?:in|of input|input|sold|to sell)\b/i.test(c.text.slice(a.end, postEnd));
    const strict = STRICT.test(capWord) && !/\bat or\b/i.test(capWord);
    const isThreshold = THRESHOLD.test(capWord) || (!capWord && (THRESHOLD.test(c.text.slice(preStart, a.start)) || !!(escalate && after)));
    // "Payments over 2,500 USDC want a countersign": unclear what happens above it, so the figure and its comparison
    // stay unread (they had been consumed before this was decided, leaving a bare permission: an unsafe ALLOW).
    if (!(escalate && (isThreshold || !capWord)) && isThreshold && !NEG_CTX.test(c.text.slice(Math.max(0, preStart - 40), postEnd + 40)) && !inherited) {
      groupWords.push({ cap: null, period, scope });
      continue;
    }
    consume(c, a.start, a.end);
    take(c, cap ?? postCap);
    take(c, budget);
    take(c, pm);
    // "in any calendar quarter ... in aggregate": the quarter is the total's window (see TOTAL_RE).
    if (period === "total") scan(c, /\b(?:(?:per|a|each|every|any|in a|in any|this|the current)\s+(?:calendar\s+|fiscal\s+)?quarter|quarterly)\b/gi, (m) => m.index >= preStart - 40 && m.index < postEnd);
    if (escalate && (isThreshold || !capWord)) {
      const thr = findIn(c, THRESHOLD, preStart, postEnd);
      take(c, thr);
      // "Any order or withdrawal above $5,000 needs my sign-off": a human line naming two kinds binds both, so it binds all.
      const kinds = SCOPES.filter(([k, re]) => k !== "any" && re.test(scopeText)).length;
      // "Withdrawals above 500 USDC require human approval" does not hold a deposit into a pool (cap-activity.ts).
      const exempt = kinds > 1 ? undefined : lineExempt(c.text.slice(0, a.start));
      // A figure the comparison follows ("40 WETH or more", "from 2,500 STRK up") is itself in the human's range.
      add(st, { kind: "escalate_above", limit: q, scope: kinds > 1 ? "any" : scope, inclusive: /at least|or more|and above|or above|and up/i.test(thr?.[0] ?? "") || (!thr && !!after), exempt, rule });
      take(c, escalate);
      if (after && !thr) {
        consume(c, a.end, a.end + after[0].length);
        scan(c, /\bfrom\b/gi, (m) => m.index >= preStart && m.index < a.start);
      }
    } else {
      add(st, { kind: "cap", limit: q, period, scope, strict, sideIn: sideIn || undefined, subject, activities: scope === "any" ? cappedActivity(scopeText) : undefined, alts: pairAlts, rule });
      // "4 SOL, or 650 USDC when the payout is in USDC": the condition only says which alternative is which.
      if (pairAlts) scan(c, new RegExp(String.raw`\b(?:when|if|where|whenever)\s+(?:the\s+|it\s+|a\s+|one\s+)?(?:\w+\s+)?(?:is|are|goes out|gets paid)\s+(?:paid\s+|made\s+|sent\s+|done\s+)?in\s+(?:${pairAlts.join("|")})\b|\bdepending\s+(?:on\s+)?(?:which|what)\s+(?:side|token|asset|coin)\b`, "gi"), (m) => m.index >= a.end);
    }
    if (sideIn) scan(c, /\bin\b/gi, (m) => m.index >= a.end && m.index < postEnd);
    scan(c, /\b(?:or less|or lower|or below|or under|and below|at most|maximum|max)\b/gi, (m) => m.index >= a.end && m.index < postEnd);
    // "per transfer", "each order's", "in one trade": the cap's scope, not a permission to transfer or trade.
    scan(c, /\b(?:each|per|at a|a) time\b|\b(?:per|each|every|any|a|one|a single|any single|in one|in a single|on a single|on any)\s+(?:single\s+)?(?:orders?|trades?|bets?|wagers?|tickets?|fills?|entr(?:y|ies)|swaps?|payments?|transfers?|payouts?|sends?|requests?|calls?|invoices?|withdrawals?|transactions?|txs?|actions?|operations?|positions?|purchases?|top[- ]?ups?|adjustments?)(?:['’]s)?\b|\b(?:orders?|trades?|bets?|swaps?|payments?|transfers?|withdrawals?|transactions?)\s+(?=(?:must|should|can|may|cannot|can't|over|above|of|larger|bigger|under|below|exceeding|at most|up to)\b)/gi, (m) => m.index >= preStart && m.index < postEnd);
    // Subject words are consumed, except verbs ("Stake up to 500 HYPE") that the permission reader needs.
    if (subjectM && !/^(?:stake|spend)$/i.test(subjectM[1])) scan(c, new RegExp(`\\b${subjectM[1]}\\b`, "gi"), (m) => m.index >= preStart && m.index < postEnd);
    groupWords.push({ cap: cap ?? postCap ?? inherited?.cap ?? null, period, scope });
  }
  // The negation inside "no more than" / "must not exceed" belongs to the cap; consume stray helper words.
  if (st.constraints.length > before)
    scan(c, /\b(?:keep|kept|stay|stays|remain|remains|equal to|equivalent|in value|in total|spend|spending|cost|costing)\b/gi, () => undefined);
  // "at most $900 at the context SOL price": how the USD figure is computed, which is what the checks do anyway.
  if (st.constraints.length > before)
    scan(c, /\b(?:at|using|by|from)\s+(?:the\s+)?(?:context(?:'s)?|current|given)\s+(?:[A-Z]{2,6}\s+)?(?:prices?|rates?)\b/gi, () => undefined);
}
