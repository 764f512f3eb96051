/**
 * Figures the rules take from the context: running totals ("the day's running total is context.spent_today_usd",
 * "(month-to-date: context.mtd_usd)") and limits that are a share of a context value ("no order above 5% of the
 * account value in context.account.account_value_usd", "debt after the borrow at most 50% of
 * context.aave.collateral_usd"). A running total the rules name is the one a budget is checked against; which
 * budget it belongs to is read from its period words.
 */
import type { CapScope, Constraint, Period } from "../types";
import { consume, scan, type Clause } from "../text";
import { isCounterRef } from "./items";
import { add, type ParseState } from "./state";

type Cap = Extract<Constraint, { kind: "cap" }>;

const CAP_BEFORE =
  /\b(?:max(?:imum)?|at most|no more than|not more than|up to|under|below|less than|not (?:to )?exceed|(?:must|should|may|shall|will|can|does|do) not exceed|never exceed|exceed(?:s|ing)?|cap(?:ped)?(?: at)?|limit(?:ed)?(?: to)?|above|over|more than|greater than|larger than|bigger than|beyond|go over|at or below|ceiling(?: of)?)\b/i;
const PCT_OF = /(\d+(?:\.\d+)?)\s*%\s+of\s+(?:[A-Za-z'’ -]{0,70}?\s)?(?:(?:in|from|at|per|as|under|reported in|given in|given by|shown in|held in)\s+)?(?:\(\s*)?§c(\d+)(?:\s*\))?/gi;

const SCOPES: Array<[CapScope, RegExp]> = [
  ["swap", /\bswaps?\b/i],
  ["order", /\b(?:orders?|trades?|bets?|positions?)\b/i],
  ["transfer", /\b(?:payments?|transfers?|payouts?|sends?|withdrawals?|requests?|calls?)\b/i],
];

const periodOfWords = (t: string): Period | null =>
  /\b(?:today|daily|per day|a day|each day|24\s?h|day['’]s|calendar day)\b|today|_day|daily/i.test(t)
    ? "day"
    : /(?:\b|_)week|weekly|7d/i.test(t)
      ? "week"
      : /(?:\b|_)month|monthly|mtd|month_to_date|30d/i.test(t)
        ? "month"
        : null;

/**
 * "at most 40% of the collateral value": the figure named in words, found in the context when the judge runs
 * (`describedPath`: the one number whose key holds the word, else not computed). Only the collateral so far: a
 * bankroll or a treasury named in words is read by the readers of its own sentence (with its running total).
 */
const PCT_OF_WORDS = /(\d+(?:\.\d+)?)\s*%\s+of\s+(?:the\s+|our\s+|its\s+|my\s+|total\s+)*(collateral)(?:\s+(?:value|balance|in usd|usd|held|posted))?(?![\w-]|\s+(?:of|in|on|at|for|from)\b)/gi;

/**
 * "at most 2% of our bankroll" where the rules say elsewhere where the bankroll is ("the bankroll is in
 * context.bankroll_usdc", bases.ts): the base is that path. A noun never tied to a path is not read here.
 */
const PCT_OF_BASE = /(\d+(?:\.\d+)?)\s*%\s+of\s+(?:the\s+|our\s+|its\s+|my\s+|this\s+|total\s+|current\s+)*([A-Za-z][A-Za-z_-]{2,30})(?:\s+([A-Za-z][A-Za-z_-]{2,30}))?\b(?!\s*\(?\s*§c)/gi;

/** "A single swap may use at most 10% of context.portfolio_usd": caps whose limit is a share of a context figure. */
export function parseShareCaps(c: Clause, st: ParseState, rule: string): void {
  const from = st.constraints.length;
  for (const re of [PCT_OF, PCT_OF_WORDS, PCT_OF_BASE]) scanShares(c, st, rule, re);
  // "..., the bankroll is in context.bankroll_usdc": the declaration of a base this clause used is read with it.
  const used = new Set(st.constraints.slice(from).flatMap((k) => (k.kind === "cap" && k.limitOf ? [k.limitOf.path] : [])));
  if (used.size) {
    if (st.constraints.slice(from).some((k) => k.kind === "cap" && k.limitOf && k.period !== "action" && k.period !== "total"))
      scan(c, /\b(?:in|per|each|every|a|one)\s+(?:a\s+|one\s+|the\s+|single\s+|calendar\s+)?(?:day|week|month)\b|\b(?:daily|weekly|monthly)\b/gi, () => undefined);
    scan(c, /\b(?:the\s+|our\s+|its\s+|my\s+)?[A-Za-z][A-Za-z_-]{2,30}\s+(?:is|are|lives|sits|(?:is\s+)?(?:kept|given|reported|shown|stored|held))\s+(?:in|at|under)\s+§c(\d+)/gi, (m) => used.has(c.refs.ctx[Number(m[1])]));
  }
  // Only this clause's own share cap takes its negation ("must not exceed 5% of ..."): looking at every constraint
  // read so far let a later "The Agent shall not approve builder fees" lose its "not" and become a permission.
  if (st.constraints.slice(from).some((k) => k.kind === "cap" && k.limitOf))
    scan(c, /\b(?:no|any)\s+(?:single\s+)?\b|\b(?:must|may|shall|should|will|can|does|do)\s+not\b|\bnot\b|\buse\b|\bafter\s+(?:the|this)\s+\w+\b|\boutstanding\b|\btotal\b|\b(?:(?:taken|measured|valued|counted|computed)\s+)?at\s+(?:its|the)\s+(?:limit|mark|order)\s+price\b/gi, () => undefined);
}

/** "each swap", "no single order", "a payment", "per transfer" just before a share: it counts one action. */
const PER_ACTION_SHARE = /\b(?:each|every|per|any|no|a|one|a\s+single|any\s+single|no\s+single|single)\s+(?:single\s+)?(?:swaps?|orders?|trades?|payments?|transfers?|bets?|calls?|requests?|txs?|transactions?|sends?|payouts?)\b[^,;.]*$/i;

function scanShares(c: Clause, st: ParseState, rule: string, re: RegExp): void {
  scan(c, re, (m) => {
    const before = c.text.slice(0, m.index);
    // The cap word nearest the figure: "taken at its limit price, shall not exceed 2.5% of ..." is bounded by
    // "shall not exceed", not by the "limit" of "limit price" further back.
    const cap = [...before.slice(-60).matchAll(new RegExp(CAP_BEFORE.source, "gi"))].at(-1);
    if (!cap || cap.index === undefined) return false;
    // "3% of the monthly budget" (the noun second) or "3% of the bankroll all together" (the noun first): the word
    // the rules declared is the base; a word after it is never taken with it.
    const second = re === PCT_OF_BASE && m[3] ? st.bases.get(m[3].toLowerCase()) : undefined;
    const path = re === PCT_OF ? c.refs.ctx[Number(m[2])] : re === PCT_OF_BASE ? (second ?? st.bases.get(m[2].toLowerCase())) : `~${m[2].toLowerCase()}`;
    if (!path) return false;
    const spanEnd = re === PCT_OF_BASE && m[3] && !second ? m.index + m[0].lastIndexOf(m[3]) : m.index + m[0].length;
    let scope: CapScope = "any";
    for (const [s, re] of SCOPES) if (re.test(c.text)) {
      scope = s;
      break;
    }
    // "total outstanding debt after the borrow": the share bounds a running total, not this action alone.
    const total = /\b(?:total|outstanding|overall|aggregate|cumulative|combined|after (?:the|this))\b/i.test(c.text);
    // "per call at most 0.5% of the monthly budget": a period word inside the base ("monthly budget") names the
    // figure the share is taken of, not the period the cap counts over; only the words outside it say that.
    const outside = `${c.text.slice(0, m.index)} ${c.text.slice(spanEnd)}`;
    // "Total purchases in a day": a period word says which total; "total debt after the borrow" has none.
    // "No swap bigger than 1% of context.treasury_usd, and the running total for today is ...": a share counted per
    // action right before it ("each swap", "no single order") is per action, whatever period another part of the
    // clause names (read as a day's total, it asked for a counter and held every swap); a period right after the
    // share ("1% of the treasury per day") still makes it one.
    const segment = `${before.slice(before.search(/[^,;]*$/))} ${c.text.slice(spanEnd).split(/[,;]/)[0]}`;
    const perAction = PER_ACTION_SHARE.test(before.slice(-60)) && !periodOfWords(c.text.slice(spanEnd, spanEnd + 25).split(/[,;]/)[0]) && !/\b(?:total|outstanding|overall|aggregate|cumulative|combined|after (?:the|this))\b/i.test(segment);
    const period: Period = perAction ? "action" : (periodOfWords(outside) ?? (total ? "total" : "action"));
    const subject = /\bdebt|borrow/i.test(c.text) ? "debt" : period === "action" ? undefined : "spent";
    add(st, { kind: "cap", limit: { value: Number(m[1]), unit: "USD" }, limitOf: { pct: Number(m[1]), path }, period, scope, strict: /^(?:under|below|less than)$/i.test(cap[0]), subject, rule });
    const capAt = before.length - before.slice(-60).length + cap.index;
    consume(c, capAt, capAt + cap[0].length);
    consume(c, m.index, spanEnd);
    return false;
  });
}

/**
 * "the day's running total is context.spent_today_usd", "context.paid_this_month_usdc has what's gone out so
 * far", "(current debt: context.aave.debt_usd)": a clause that only points at a running total. Every word of it
 * is consumed; the path is remembered for the budget with the same period.
 */
export function parseCounterDecl(c: Clause, st: ParseState): void {
  const refs = [...c.text.matchAll(/§c(\d+)/g)];
  if (refs.length === 0) return;
  // "(prices in context.prices)", "at context.prices", "valued at context.prices.ETH": where prices come from, never
  // a running total (a price of one asset is a price too).
  scan(c, /\(?\s*\b(?:(?:use|using|with|at|valued\s+at)\s+)?(?:(?:the\s+)?(?:usd\s+)?prices?\s+(?:in|from|at|per)\s+)?§c(\d+)\s*\)?/gi, (m) => /(?:^|\.)prices?(?:\.[A-Za-z0-9_]+)?$/i.test(c.refs.ctx[Number(m[1])] ?? "") && /prices?|\(|valued/i.test(m[0]));
  const counters = refs.filter((m) => (isCounterRef(c.refs.ctx[Number(m[1])]) || COUNTED_BEFORE.test(c.text.slice(Math.max(0, (m.index ?? 0) - 40), m.index))) && !c.used[m.index ?? 0]);
  if (counters.length === 0) return;
  const rest = c.text.replace(/§c\d+/g, " ");
  // A clause with a figure or a cap word is a rule, read elsewhere; this one only names where a figure lives.
  // "one payment per person per month, context.x shows who got it": a frequency is a rule too, never a description.
  // "spent so far (context.x) plus this payment must stay within the allowance": a sum kept inside a bound is a rule.
  if (/\d|\$/.test(rest) || CAP_BEFORE.test(rest) || /\b(?:plus|within|stays?|remains?|inside|keep|keeps)\b/i.test(rest) || /\b(?:only|never|no|not|except|once|twice|single|one)\b|\bper\s+(?:person|payee|recipient|head|name|vendor|employee)\b/i.test(rest)) {
    // Inside a budget clause: "daily cap $20k (running total: context.today.notional_traded_usd)".
    const caps = st.constraints.filter((k): k is Cap => k.kind === "cap" && k.rule.length > 0 && !k.counterRef && (k.period !== "action" || !!k.limitOf));
    for (const m of counters) {
      const path = c.refs.ctx[Number(m[1])];
      const own = caps.filter((k) => k.limitOf?.path !== path && !k.limitOf?.path.includes(path));
      // The budget written beside the path ("within $150k (context.granted_this_month_usd)") is the one it counts.
      const beside = own.filter((k) => k.rule.includes(path) && !k.limitOf);
      const target = (beside.length === 1 ? beside[0] : null) ?? own.find((k) => periodOfWords(path) === k.period) ?? (own.length === 1 ? own[0] : null);
      // A per-action share ("each order at most 5% of context.equity") counts a running total only when the path
      // is named in its own sentence; a spend named in another rule is that rule's counter.
      if (target && (target.period !== "action" || (target.limitOf && c.sentence.includes(target.rule.slice(0, 40))))) {
        if (target.limitOf && target.period === "action") target.period = "total";
        target.counterRef = path;
        consume(c, m.index ?? 0, (m.index ?? 0) + m[0].length);
        scan(c, /\b(?:running\s+total|so\s+far(?:\s+(?:today|this\s+(?:week|month)))?|to\s+date|current(?:ly)?|today['’]s|(?:traded|paid|sent|used|spent|bought|sold|moved|withdrawn|tipped|disbursed)\s+(?:so\s+far\s+)?(?:today|this\s+(?:week|month|quarter))|month[- ]to[- ]date|spend|spent|debt|is|are|in|see|per|from|provided|given|as|has|what['’]?s|gone|out|this\s+(?:day|week|month|quarter|round)|for\s+(?:today|this\s+(?:week|month)|the\s+(?:day|week|month)))\b|:|=/gi, () => undefined);
      }
    }
    return;
  }
  for (const m of counters) st.counters.push({ path: c.refs.ctx[Number(m[1])], words: rest });
  consume(c, 0, c.text.length);
}

/**
 * "(tally so far: context.payroll.month_strk)", "(running: context.session.spent_usd)", "the sum until now you find in
 * context.x": the words right before a path say it holds a running figure, whatever its name ("month_strk" names no
 * spending). Only words that mean a count kept over time; the budget it belongs to is still chosen by period.
 */
const COUNTED_BEFORE = /\b(?:running(?:\s+(?:total|tally|figure|number|sum|count))?|tally|tallied|so\s+far|until\s+now|up\s+to\s+now|till\s+now|to\s+date|month[- ]to[- ]date|year[- ]to[- ]date|already\s+(?:spent|paid|sent|used|gone\s+out)|spent\s+so\s+far)\b[^§]{0,24}$/i;

/** Give every budget without a named running total the one the rules point at for its period. */
export function assignCounters(st: ParseState): void {
  if (st.counters.length === 0) return;
  for (const k of st.constraints) {
    if (k.kind !== "cap" || k.counterRef || k.period === "action") continue;
    const same = st.counters.filter((x) => (periodOfWords(`${x.words} ${x.path}`) ?? "total") === k.period);
    if (same.length === 1) k.counterRef = same[0].path;
    else if (st.counters.length === 1 && periodOfWords(`${st.counters[0].words} ${st.counters[0].path}`) === null) k.counterRef = st.counters[0].path;
  }
}
