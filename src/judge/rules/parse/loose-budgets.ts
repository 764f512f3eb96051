/**
 * Period budgets as owners state them in passing, with the running total named loosely beside them:
 * - "weekly budget is 300, context.week_spent_usd has what i've put in so far this week"
 * - "dont spend more then 200 total per week - running total is context.week_spent_usd"
 * - "the round has 15k in total; context.round_paid_usdc = paid out so far"
 * - "i only have 8 bucks for the whole week (context.week_spent_usd)"
 * - "The quarter's payout pool is 25,000 USDC; context.quarter_paid_usdc holds the amount disbursed so far"
 * Each is a budget over a period (a week, a day, a month) or over the whole of something (a round, a quarter, a
 * programme): what has gone out plus this action must stay within the figure. Left unread, each held every action;
 * read as a per-action cap, the whole budget could be spent again and again.
 *
 * The figure's unit: written beside it ("$", "bucks", "USDC", "STRK"), else the unit the counter's own name ends in
 * ("_usd", "_usdc", "_strk": the owner counts both in it), else dollars when every token the rules name is a dollar
 * stablecoin. Otherwise the clause stays unread and holds.
 *
 * Invariant (the unsafe side): this only adds a budget (a BLOCK above it, an ESCALATE when the context lacks the
 * running total), never a permission; the words it consumes are the budget's own (its period, its noun, the verbs
 * "has", "have", "is", the counter's description).
 */
import type { Period } from "../types";
import { consume, parseNumber, scan, type Clause } from "../text";
import { add, asSymbol, type ParseState } from "./state";
import { isCounterRef } from "./items";

const NUM = String.raw`\d[\d,]*(?:\.\d+)?`;
/** A figure with its unit, if any: "$15k", "300", "8 bucks", "25,000 USDC" (named groups: d "$", n, k, u unit word). */
const FIG = String.raw`(?<d>\$)?\s?(?<n>${NUM})\s*(?<k>k|m)?\b(?:\s*(?!(?:in|for|per|a|an|each|every|total|this|the|of|to|and|or|is|overall|altogether|all|on|at)\b)(?<u>usd|usdc|usdt|dai|dollars?|bucks|[A-Z][A-Za-z]{1,6})\b)?`;

/** The period a budget counts over, as a word. */
const WEEK = String.raw`(?:week|weekly)`;
const PERIOD_WORD = String.raw`(?:day|daily|week|weekly|month|monthly|quarter|quarterly|round|program(?:me)?|campaign|season|event|sprint|cycle|grant\s+round)`;

/**
 * "$12k/day total (context.day_ntl_usd = used so far)", "$5 a day (context.x402_day_usd)": a bare figure with its
 * period glued on, opening the clause. Read only with a running total named beside it (below): alone, "$5/day"
 * could be a cap of another reader's kind, and it stays unread and holds.
 */
const SLASHED = new RegExp(String.raw`^\s*(?:(?:max|cap|budget|limit)\s*[:=]?\s*)?${FIG}\s*(?:\/\s*|\s+(?:a|per|each)\s+)(?<p>day|week|month)\b(?:\s+(?:in\s+)?(?:total|overall|combined|all\s+in))?`, "i");

/** The shapes, each with the figure's groups and the period word (group p). */
const SHAPES: RegExp[] = [
  // "weekly budget is 300", "the week's budget: 300", "monthly budget of 2k", "budget for the week is 300"
  new RegExp(String.raw`\b(?:(?:the|our|my|this)\s+)?(?<p>${PERIOD_WORD})(?:['’]s)?\s+(?:(?:payout|spending|spend|betting|borrow(?:ing)?|grant|tip(?:ping)?)\s+)?(?:budget|pool|pot|kitty|allowance|envelope)\s*(?:is|of|=|:|at|totals?)?\s*${FIG}`, "i"),
  new RegExp(String.raw`\b(?:budget|pool|pot|kitty|allowance)\s+(?:for|per)\s+(?:the\s+|a\s+|each\s+|this\s+)?(?<p>${PERIOD_WORD})\s*(?:is|of|=|:|at)?\s*${FIG}`, "i"),
  // "the round has 15k in total", "this quarter gets 25,000 USDC overall"
  new RegExp(String.raw`\b(?:the|this|our|my|each)\s+(?<p>${PERIOD_WORD})\s+(?:has|gets|carries|is\s+capped\s+at|is\s+limited\s+to)\s+${FIG}(?:\s+(?:in\s+total|total|overall|all\s+in|altogether))?`, "i"),
  // "i only have 8 bucks for the whole week", "we've got 2k for the month"
  new RegExp(String.raw`\b(?:i|we)\s*(?:['’]ve|\s+have|\s+only\s+have|\s+have\s+only|\s+got|\s+only\s+got|['’]ve\s+only\s+got|['’]ve\s+got)\s+(?:got\s+)?${FIG}(?:\s+(?:in\s+total|total))?\s+(?:for|per)\s+(?:the\s+|a\s+|this\s+)?(?:whole\s+|entire\s+)?(?<p>${PERIOD_WORD})\b`, "i"),
  // "dont spend more than 200 total per week", "never more than 500 in total a month"
  new RegExp(String.raw`\b(?:don['’]?t|do\s+not|never|not)\s+(?:spend|pay|send|bet|use)?\s*(?:more\s+than|over|above)\s+${FIG}\s+(?:in\s+)?total\s+(?:per|a|each|every|this|in\s+a)\s+(?<p>${PERIOD_WORD})\b`, "i"),
  SLASHED,
];

function periodOf(word: string): Period {
  if (/^da(?:y|ily)/i.test(word)) return "day";
  if (new RegExp(`^${WEEK}$`, "i").test(word)) return "week";
  if (/^month/i.test(word)) return "month";
  return "total";
}

/** The unit a counter's name ends in: "week_spent_usd" dollars, "round_paid_strk" STRK. */
function counterUnit(path: string): string | null {
  const m = /_([a-z]{3,5})$/i.exec(path);
  if (!m) return null;
  if (/^usd$/i.test(m[1])) return "USD";
  return asSymbol(m[1].toUpperCase());
}

/** The running total's description after its path: "has what i've put in so far this week", "= paid out so far". */
const COUNTER_DESC = /^\s*\)?\s*(?:=|:|-|(?:has|holds|is|shows|tracks|keeps|gives)\b)?\s*(?:(?:what|what['’]s|whats|the\s+amount|how\s+much|the\s+total|everything|all|i['’]ve|we['’]ve|i\s+have|we\s+have|i|we|already|put|paid|spent|sent|disbursed|gone|used|bet|in|out|so\s+far|to\s+date|this\s+(?:week|month|day|quarter|round)|running\s+total|tally)\b\s*)+/i;

export function parseLooseBudget(c: Clause, st: ParseState, rule: string): void {
  for (const re of SHAPES) {
    const m = re.exec(c.text);
    if (!m || m.index === undefined || c.used.slice(m.index, m.index + m[0].length).some(Boolean)) continue;
    const g = m.groups ?? {};
    if (!g.n) continue;
    const value = parseNumber(g.n, g.k);
    if (value === null) continue;
    const period = periodOf(g.p ?? "");
    // The running total: a path in this clause, else in its sentence (the owner names it in the next breath).
    const own = [...c.text.matchAll(/§c(\d+)/g)];
    // (c.sentence has its paths written out; c.text holds them as placeholders.)
    const named = own.length ? own.map((r) => c.refs.ctx[Number(r[1])]) : [...c.sentence.matchAll(/\bcontext\.[A-Za-z0-9_.]*[A-Za-z0-9_]/g)].map((r) => r[0]);
    const paths = [...new Set(named)].filter((p): p is string => !!p && !/price/i.test(p) && isCounterRef(p));
    const counterRef = paths.length === 1 ? paths[0] : undefined;
    if (re === SLASHED && !counterRef) continue;
    const word = g.u;
    const unit = g.d || (word && /^(?:usd|dollars?|bucks)$/i.test(word))
      ? "USD"
      : word
        ? asSymbol(word)
        : ((counterRef ? counterUnit(counterRef) : null) ?? (st.stableOnly ? "USD" : null));
    if (!unit) continue;
    add(st, { kind: "cap", limit: { value, unit }, period, scope: "any", strict: false, subject: "spent", counterRef, rule });
    consume(c, m.index, m.index + m[0].length);
    // The path and what the owner says it holds are the budget's running total.
    for (const r of own) {
      if (c.refs.ctx[Number(r[1])] !== counterRef) continue;
      const at = (r.index ?? 0) + r[0].length;
      const desc = COUNTER_DESC.exec(c.text.slice(at));
      consume(c, r.index ?? 0, at + (desc ? desc[0].length : 0));
      scan(c, /\(\s*|\s*\)/g, (p) => Math.abs(p.index - (r.index ?? 0)) < 4 || Math.abs(p.index - at) < 4);
    }
    return;
  }
}
