/**
 * Config-like lines, rewritten to the phrasing the recognisers read. Owners write limits as settings: the unit
 * or the period sits in the key ("max notional per order (usd): 4000", "max slippage bps = 75", "per day: 25k
 * USD in total"), a markdown table holds `| setting | value |` rows, a "counting ..." tail names the running
 * total, "§2 Monthly budget: ..." numbers a policy line, "margin mode: cross" is the mode to keep.
 *
 * Invariants: a rewrite only moves a unit or a period word next to its figure, adds "max" where the key is
 * itself the cap's scope or period, or drops markup (table pipes, a clause number). It never drops a figure, a
 * negation, "only"/"except", or a context path; a line that does not fit a shape exactly is left as it was,
 * so it stays "not understood" and escalates.
 */
import { asSymbol } from "./parse/state";

/** Start of a config line: optional indent and bullet. */
const LINE = String.raw`(^|\n)([ \t]*(?:[-*•][ \t]+)?)`;
const FIG = String.raw`\d[\d,]*(?:\.\d+)?(?:\s?[kKmM]\b)?`;
const CAP_WORD = /\b(?:max(?:imum)?|at most|up to|no more than|not more than|cap(?:ped)?|limit(?:ed)?|ceiling|under|below|budget|or less|tops)\b|≤|<=/i;
/** Words that would narrow or negate a rule: a tail holding one is never dropped. */
const NARROWING =
  /\b(?:no|not|never|only|except|excluding|without|unless|but|percent|per\s?cent|half|quarter|third|one|two|three|four|five|six|seven|eight|nine|ten|twenty|fifty|hundred|thousand|million)\b|n['’]t\b|\d|%/i;

/** Header cells of a two-column table of settings. */
const HEADER_CELL = /^(?:limits?|values?|settings?|rules?|keys?|parameters?|params?|fields?|items?|names?|what|amounts?|caps?|policy|constraints?|details?)$/i;

/** `| max cost per order | 150 USDC |` -> `max cost per order: 150 USDC`; the header row and the `|---|` rule go. */
function tables(s: string): string {
  return s.replace(/^[ \t]*\|([^\n]*)\|[ \t]*$/gm, (line: string, body: string) => {
    const cells = body.split("|").map((x) => x.trim());
    if (cells.every((x) => /^:?-{2,}:?$/.test(x))) return "";
    if (cells.length !== 2) return line; // wider tables are not read as settings
    if (cells.every((x) => HEADER_CELL.test(x))) return "";
    return cells[0] && cells[1] ? `${cells[0]}: ${cells[1]}` : line;
  });
}

/** The figure as the recognisers write it, given the unit the key names. */
function withUnit(fig: string, unit: string): string | null {
  const u = unit.toLowerCase();
  if (u === "usd" || u === "$" || u === "dollars" || u === "in usd") return `$${fig}`;
  if (u === "bps" || u === "in bps" || u === "basis points") return `${fig} bps`;
  if (u === "%" || u === "percent" || u === "pct") return `${fig}%`;
  if (u === "x") return `${fig}x`;
  const sym = asSymbol(unit);
  return sym ? `${fig} ${sym}` : null;
}

/**
 * "max notional per order (usd): 4000", "max slippage bps = 75", "min tip (USDC): 5": the unit in the key goes
 * onto its bare figure. A value that already carries a unit keeps its own.
 */
function unitInKey(s: string): string {
  const re = new RegExp(
    String.raw`${LINE}([A-Za-z][A-Za-z /'-]*?)\s*(?:\(\s*([A-Za-z$%]{1,12})\s*\)|\s(usd|bps|pct|percent|in usd|in bps))\s*[:=]\s*(${FIG})(?=\s*(?:$|\n|[,;(]|per\b|each\b|a\b|an\b|\/))`,
    "gi",
  );
  return s.replace(re, (m: string, start: string, pre: string, key: string, paren: string | undefined, word: string | undefined, fig: string) => {
    const v = withUnit(fig.replace(/\s+/g, ""), paren ?? word ?? "");
    return v ? `${start}${pre}${key.trim()}: ${v}` : m;
  });
}

/**
 * "slippageBps <= 75", "max_slippage_pct: 0.5", "maxOrderUsd = 500": a code-style key whose last part is the unit
 * of its bare figure. The unit goes onto the figure and the key is split into its words ("slippage <= 75 bps"), so
 * 75 is read as basis points and never as a $75 cap. A figure that already carries a unit is left as written.
 */
function unitSuffixKey(s: string): string {
  return s.replace(
    /\b((?:[a-z]+(?:[A-Z][a-z]+)*)|(?:[a-z]+(?:_[a-z]+)*))(?:_|(?=[A-Z]))(bps|Bps|BPS|pct|Pct|PCT|percent|Percent|usd|Usd|USD)\b(\s*(?:<=|≤|=<|<|:|=|\bmax\b|\bat most\b)\s*)(\d[\d,]*(?:\.\d+)?)(?![\d,]|\.\d|\s*(?:%|bps\b|bp\b|basis\b|percent\b|usd|\$|[kKmM]\b))/g,
    (_m, key: string, unit: string, sep: string, fig: string) => {
      const words = key.replace(/_/g, " ").replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
      const u = unit.toLowerCase();
      const value = u === "bps" ? `${fig} bps` : u === "usd" ? `$${fig}` : `${fig}%`;
      return `${words}${sep}${value}`;
    },
  );
}

const PERIOD_KEY = String.raw`(?:per|each|every|a)\s+(?:day|week|month|order|swap|trade|call|request|payment|transfer|tx|transaction|bet|tip|send|withdrawal)|daily|weekly|monthly`;

/**
 * "per day: 25k USD notional in total, counting ...", "per call = 0.25 USDC", "daily: $300": the key is the
 * cap's period or scope, the value its figure. Read as "max <figure> <key>"; the tail after a comma or a
 * parenthesis stays where it was.
 */
function periodKey(s: string): string {
  const re = new RegExp(String.raw`${LINE}(${PERIOD_KEY})(\s+(?:total|limit|cap|max(?:imum)?|budget))?\s*[:=]\s*((?:US)?\$?\s?${FIG}[^\n]*)`, "gi");
  return s.replace(re, (m: string, start: string, pre: string, key: string, kind: string | undefined, value: string) => {
    // "Daily limit: $500" already names its cap word beside the period: read as written.
    if (kind && !/total/i.test(kind)) return m;
    // A dash starts another sentence ("Daily: 30k all together - the running number for today is context.x"): the
    // period goes before it, beside its figure, not after the next sentence.
    const cut = /,\s|\(|;|\s[-–—]\s|\s(?=(?:counting|incl\.?|including|inclusive of)\s)/i.exec(value);
    const whole = (cut ? value.slice(0, cut.index) : value).trim();
    const head = whole.replace(/[.!]+$/, "");
    const stop = whole.slice(head.length);
    const tail = cut ? value.slice(cut.index) : "";
    const cap = CAP_WORD.test(head) ? "" : "max ";
    const total = kind && !/\btotal\b/i.test(head) ? " in total" : "";
    return `${start}${pre}${cap}${head}${total} ${key.toLowerCase()}${stop}${/^[,;\s]/.test(tail) ? "" : " "}${tail}`.replace(/[ \t]+$/, "");
  });
}

/**
 * "session total: $12 (running: context.x)", "whole event: 9k USDC", "month to date: 4,000 USDC", "overall: $50k": a
 * key that names a running total before its figure is that total's cap ("max $12 session total"). The key stays, so
 * a word of it no reader takes ("session") is still seen; a key with a cap or minimum word is read as written.
 */
function totalKey(s: string): string {
  const key = String.raw`(?:(?:[A-Za-z][\w'’-]*[ \t]+){0,2}?(?:total|overall|all[- ]in|aggregate|cumulative)|(?:whole|entire|full)[ \t]+[A-Za-z][\w'’-]*|(?:month|week|quarter|year)[ \t-]+to[ \t-]+date|[mwqy]td)`;
  const re = new RegExp(String.raw`${LINE}(${key})[ \t]*[:=][ \t]*((?:US)?\$?\s?${FIG}[^\n]*)`, "gi");
  return s.replace(re, (m: string, start: string, pre: string, k: string, value: string) => {
    if (CAP_WORD.test(`${k} ${value}`) || /\b(?:min(?:imum)?|at least|no less|not less|between|from|only|except)\b/i.test(`${k} ${value}`)) return m;
    const cut = /,\s|\(|;|\s[-–—]\s|\s(?=(?:counting|incl\.?|including|inclusive of)\s)/i.exec(value);
    const head = (cut ? value.slice(0, cut.index) : value).trim().replace(/[.!]+$/, "");
    const tail = cut ? value.slice(cut.index) : "";
    const total = /total|overall|aggregate|cumulative|all[- ]in/i.test(k) ? "" : " in total";
    return `${start}${pre}max ${head} ${k.trim()}${total}${/^[,;\s]/.test(tail) ? "" : " "}${tail}`.replace(/[ \t]+$/, "");
  });
}

/**
 * "Monthly total $40", "daily spend 300 USDC", "weekly 2k (context.x)": a period, a total word or none, and a figure
 * with no cap word (a bare figure only when a parenthesis or the line's end follows it).
 */
function periodTotal(s: string): string {
  return s.replace(/(^|\n|[.;]\s+)([ \t]*(?:[-*•][ \t]+)?)(daily|weekly|monthly)(?:\s+(?:total|spend(?:ing)?|budget|allowance))?\s*[:=]?\s*(?=(?:US)?\$\s?\d|\d[\d,.]*\s?[kKmM]?\s?(?:usd|usdc|usdt|dollars)\b|\d[\d,.]*\s?[kKmM]?[ \t]*(?:\(|$))/gim, (_m, start: string, pre: string, period: string) => `${start}${pre}${period.toLowerCase()} budget: `);
}

/**
 * "daily purchases: 12% of the bankroll (context.x)", "weekly payouts: $2k": a key naming a period or a scope
 * before a bare figure or share reads as its cap. Not when the line already has a cap or a minimum word.
 */
function keyedCap(s: string): string {
  const re = /(^|\n)([ \t]*(?:[-*•][ \t]+)?)((?:[A-Za-z][\w'’-]*[ \t]+){0,3}?(?:daily|weekly|monthly|per[ \t]+(?:day|week|month)|(?:per|single|each|one|any)[ \t]+(?:order|swap|trade|bet|payment|transfer|payout|invoice|bill|tip|call|request))(?:[ \t]+[A-Za-z][\w'’-]*){0,2}?)[ \t]*:[ \t]*(?=(?:US)?\$?\s?\d)([^\n]*)/gi;
  return s.replace(re, (m: string, start: string, pre: string, key: string, value: string) =>
    CAP_WORD.test(`${key} ${value}`) || /\b(?:min(?:imum)?|at least|no less|not less|between|from)\b/i.test(`${key} ${value}`) ? m : `${start}${pre}${key.trim()}: max ${value}`,
  );
}

/**
 * "margin mode: cross", "margin = isolated": the margin mode the account keeps; "Margin: isolated, at most 3x" also
 * caps the leverage.
 */
function marginMode(s: string): string {
  return s.replace(
    /(^|\n)([ \t]*(?:[-*•][ \t]+)?)margin(?:[ \t]+(?:mode|type))?[ \t]*[:=][ \t]*(cross|isolated)(?:[ \t]+(?:margin|mode))?(?:[ \t]+only)?(?:[ \t]*[,;][ \t]*(?:at most|max(?:imum)?|up to|<=|≤)[ \t]*(\d+(?:\.\d+)?)[ \t]*x)?[ \t]*\.?[ \t]*(?=\n|$)/gi,
    (_m, start: string, pre: string, mode: string, lev: string | undefined) => `${start}${pre}${mode.toLowerCase()} margin only${lev ? `, leverage at most ${lev}x` : ""}`,
  );
}

/** "swap mode = ExactIn", "mode: exact output": which amount of a swap is fixed (it had been read as a label). */
function swapModeKey(s: string): string {
  return s.replace(/(^|\n)([ \t]*(?:[-*•][ \t]+)?)(?:swap[ \t]+)?mode[ \t]*[:=][ \t]*(exact[ -]?in(?:put)?|exact[ -]?out(?:put)?)[ \t]*(?:only[ \t]*)?\.?[ \t]*(?=\n|$)/gi, (_m, start: string, pre: string, v: string) => `${start}${pre}${/out/i.test(v) ? "ExactOut" : "ExactIn"} only`);
}

/**
 * ", counting context.spent_today_usdc", "incl. context.x", "inclusive of spend already recorded in context.x",
 * "counting what already went out today (context.x)": the running total the cap counts. Only when the words
 * between name nothing that could narrow it.
 */
function countingTail(s: string): string {
  // "up to and including 10% of context.x" is an inclusive bound, never a running total.
  return s.replace(/(\band[ \t]+)?,?[ \t]*\b(?:counting|incl\.?|including|inclusive of|which includes?|that includes?)[ \t]+((?:[A-Za-z'’-]+[ \t]+){0,8}?)\(?[ \t]*(context\.[A-Za-z_][\w.]*[A-Za-z0-9_])[ \t]*\)?/gi, (m: string, and: string | undefined, words: string, path: string) =>
    and || NARROWING.test(words) ? m : ` (running total: ${path})`,
  );
}

/** "§2 Monthly budget: ...", "§ 4.1 The agent ...": the number of a policy line, not a figure. */
function sectionNumbers(s: string): string {
  return s.replace(/(^|\n)([ \t]*)§[ \t]*\d{1,3}(?:\.\d{1,3})*[a-z]?[ \t]+(?=[A-Z])/g, "$1$2");
}

/** Words that could carry a rule: a heading holding one is left whole. */
const HEADING_DANGER = /\b(?:no|not|never|only|except|unless|max|min|cap|caps|budget|above|below|under|over|per|daily|weekly|monthly|total)\b|n['’]t\b|\d|[$%]/i;

/**
 * "Polymarket agent limits", "Escrow rules" on a line of their own: a heading over the settings. The heading noun
 * goes; the rest ("Polymarket agent") is read as it would be without it (a venue, a label).
 */
function headingNouns(s: string): string {
  // "Limits for the HL perps bot, effective immediately:": the heading noun first, what it is for after it.
  s = s.replace(/^([ \t]*)(?:limits|rules|caps|ceilings|guardrails)[ \t]+(?:for|of|on)[ \t]+([^\n:]{1,60}?)[ \t]*:?[ \t]*$/gim, (m: string, pre: string, rest: string) =>
    HEADING_DANGER.test(rest) ? m : `${pre}${rest}`,
  );
  return s.replace(/^([ \t]*(?:[A-Za-z][\w'’-]*[ \t]+){1,4})(?:limits|rules|settings|parameters|guardrails|constraints)[ \t]*:?[ \t]*$/gim, (m: string, head: string) =>
    HEADING_DANGER.test(head) ? m : head.trimEnd(),
  );
}

export function normaliseConfigLines(raw: string): string {
  if (!/[:=|§<≤]|\bmax\b|\bat most\b|\b(?:counting|incl|including|inclusive|daily|weekly|monthly)\b/i.test(raw)) return raw;
  let s = unitSuffixKey(headingNouns(tables(raw)));
  s = sectionNumbers(s);
  s = marginMode(s);
  s = swapModeKey(s);
  s = unitInKey(s);
  s = periodKey(s);
  s = totalKey(s);
  s = periodTotal(s);
  s = keyedCap(s);
  return countingTail(s);
}
