/**
 * Conditional prohibitions: "if the funding rate on a coin is over 0.03% an hour, don't open new longs on it",
 * "When the price is 0.9 or more, do not buy", "never borrow while context.aave.health_factor is below 2".
 * The condition is a state of the world, not the action's own amount (that is a threshold, read in amounts.ts and
 * human.ts): the action's limit price, or a figure the rules point at in the context. Read before the rest of the
 * clause, so the figure in the condition is not taken for a cap and the prohibition after it is read as usual; the
 * constraints the clause then produces bind only while the condition holds (checks/conditions.ts).
 * Read only when the subject can be placed: a condition on something unnamed ("if markets get choppy, no new
 * trades") is left unread and the clause escalates, never a blanket ban or no ban at all.
 */
import type { Condition, Constraint } from "../types";
import { consume, restore, type Clause } from "../text";
import { NEG_RE } from "./polarity";

const KEY = /\b(?:if|when|whenever|while|as long as|so long as|in case)\b|\b(?:at|for)\s+(?:a\s+|any\s+)?(?:share\s+|limit\s+)?prices?\b(?=\s+(?:of\s+)?(?:above|over|more than|greater than|higher than|at least|below|under|less than|lower than|>|<|≥|≤|\d))|\bpriced\b/gi;
/** "at a price of 0.85 or higher", "priced above 0.9": the subject is the action's own price, named by the key. */
const PRICE_KEY = /^(?:at|for|priced)\b/i;

/** "is over 0.03%", "goes above 2", "is 0.85 or higher", "> 0.9", "reaches 0.9 or more". */
const CMP =
  /\b(?:(?:is|are|goes|gets|sits|trades|stands|rises|climbs|moves|runs|reads|falls|drops|dips)\s+)?(?:currently\s+|still\s+|already\s+)?(?:(above|over|more than|greater than|higher than|at least|at or above|not below|below|under|less than|lower than|at most|at or below|not above)\s+|(>=|<=|>|<|≥|≤)\s*)(\d[\d,]*(?:\.\d+)?)\s*(%)?|\b(?:is|are|at|hits|reaches|of)\s+(\d[\d,]*(?:\.\d+)?)\s*(%)?\s+or\s+(more|higher|above|greater|less|lower|below|under)\b/i;

/** The action's own price: "the price", "the share price", "its odds", "it is priced". */
const PRICE_SUBJECT = /^(?:the\s+|its\s+|a\s+|an\s+)?(?:(?:share|limit|order|outcome|token|entry|fill|buy|ask)\s+)?(?:price|odds|probability|implied\s+probability)(?:\s+(?:per|a)\s+share)?$|^(?:it|the\s+share|a\s+share|the\s+outcome)\s+(?:is\s+)?priced$/i;

/** Subjects that are the action's own amount: a threshold or cap, not a condition on the world. */
const ACTION_SUBJECT = /\b(?:bet|bets|order|orders|payment|payments|trade|trades|transfer|transfers|amount|size|notional|swap|swaps|it|this|that|one|anything|something|request|call|cost|spend|total)\b/i;

/** "on a coin", "for that market", "on it": the figure is read per asset, from a map keyed by the action's asset. */
const PER_ASSET = /\s+(?:on|for|of)\s+(?:a|any|the|that|this|each|its)\s+(?:coin|asset|token|market|perp|pair|symbol)\b/i;

/** "an hour", "per day", "/h": the period a rate is quoted in, which the context figure shares. */
const PERIOD_TAIL = /^\s*(?:an?|per|\/|each|every)\s*(?:hour|hr|h|day|8h|8 hours|year|annum)\b/i;

const OPS: Record<string, Condition["op"]> = {
  above: ">", over: ">", "more than": ">", "greater than": ">", "higher than": ">", "at least": ">=", "at or above": ">=", "not below": ">=",
  below: "<", under: "<", "less than": "<", "lower than": "<", "at most": "<=", "at or below": "<=", "not above": "<=",
  ">": ">", ">=": ">=", "≥": ">=", "<": "<", "<=": "<=", "≤": "<=",
};
/** "0.85 or higher", "2 or less": the figure itself is inside. */
const OR_OPS: Record<string, Condition["op"]> = { more: ">=", higher: ">=", above: ">=", greater: ">=", less: "<=", lower: "<=", below: "<=", under: "<=" };

/** A prohibition is in the text ("no more than" is a cap's wording, not one). */
export const prohibits = (text: string): boolean => new RegExp(NEG_RE.source, "i").test(text.replace(/\bno more than\b|\bnot more than\b/gi, ""));

export interface ConditionRead {
  when: Condition;
  /** The characters the condition consumed, given back when nothing binds to it. */
  spans: Array<[number, number]>;
}

/**
 * "sellers not in context.known_sellers: don't pay them more than 3 cents", "if the payee is not in context.vendors,
 * never send more than $50": who the counterparty is decides whether the rule binds.
 */
const MEMBER =
  /^\s*(?:(?:and|but|also)\s+)?(?:(?:for|to|with)\s+)?(?:(?:if|when|where)\s+(?:the|a|an)\s+)?(?:any\s+|all\s+)?(?:sellers?|recipients?|payees?|vendors?|hosts?|domains?|services?|apis?|address(?:es)?|wallets?|counterpart(?:y|ies)|merchants?|providers?)\s+(?:that\s+|who\s+|which\s+)?(?:(?:is|are)\s*)?(not\s+|n't\s+|aren't\s+|isn't\s+)?(?:in|on|listed\s+in|found\s+in)\s+§c(\d+)\s*[:,-]?/i;

function readMember(c: Clause): ConditionRead | null {
  const m = MEMBER.exec(c.text);
  if (!m || c.used[m.index + m[0].search(/\S/)]) return null;
  const end = m.index + m[0].length;
  if (!prohibits(c.text.slice(end))) return null;
  consume(c, m.index, end);
  // "don't pay them": the pronoun is the counterparty the condition named.
  const them = /\b(?:them|they|those|these|it)\b/i.exec(c.text.slice(end));
  const spans: Array<[number, number]> = [[m.index, end]];
  if (them) {
    consume(c, end + them.index, end + them.index + them[0].length);
    spans.push([end + them.index, end + them.index + them[0].length]);
  }
  return { when: { subject: "member", path: c.refs.ctx[Number(m[2])], negated: Boolean(m[1]) || undefined, op: ">=", value: 0, text: restore(c.text.slice(m.index, end), c.refs).replace(/[:,-]\s*$/, "").trim() }, spans };
}

/** Reads a condition on the world in a prohibiting clause and consumes its words; null when there is none to read. */
export function readCondition(c: Clause, needNeg = true, pathFrom: Clause = c): ConditionRead | null {
  if (needNeg) {
    const member = readMember(c);
    if (member) return member;
  }
  const g = new RegExp(KEY.source, "gi");
  let k: RegExpExecArray | null;
  while ((k = g.exec(c.text)) !== null) {
    if (c.used[k.index]) continue;
    const start = k.index;
    const rest = c.text.slice(start + k[0].length);
    const m = CMP.exec(rest);
    if (!m) continue;
    const subject = rest.slice(0, m.index).trim().replace(PER_ASSET, "").trim();
    if (subject.split(/\s+/).length > 8 || /[,;:]/.test(subject)) continue;
    const condEnd = start + k[0].length + m.index + m[0].length;
    // The prohibition is what the condition governs: without one the clause is a threshold or a permission.
    const outside = c.text.slice(0, start) + " " + c.text.slice(condEnd);
    if (needNeg !== prohibits(outside)) continue;
    const value = Number((m[3] ?? m[5]).replace(/,/g, ""));
    if (!Number.isFinite(value)) continue;
    const op = m[1] || m[2] ? OPS[(m[1] ?? m[2]).toLowerCase()] : OR_OPS[m[7].toLowerCase()];
    const pctWritten = Boolean(m[4] ?? m[6]);
    const pathIn = /§c(\d+)/.exec(subject);
    let path: string | null = pathIn ? c.refs.ctx[Number(pathIn[1])] : null;
    let pathSpan: [number, number] | null = null;
    const priceKey = PRICE_KEY.test(k[0]);
    if (priceKey && subject !== "") continue;
    if (!path && !priceKey && !PRICE_SUBJECT.test(subject)) {
      // "the funding rate on a coin ... (rates are in context.funding_hourly_pct)": a named figure, and the one
      // context path the clause gives is where it is read. An amount of the action itself is not such a figure.
      if (ACTION_SUBJECT.test(subject) || !/[a-z]{3,}/i.test(subject)) continue;
      const paths = [...pathFrom.text.matchAll(/§c(\d+)/g)].filter((p) => !pathFrom.used[p.index as number]);
      if (paths.length !== 1) continue;
      const p = paths[0];
      path = pathFrom.refs.ctx[Number(p[1])];
      const at = p.index as number;
      const t = pathFrom.text;
      const open = t.lastIndexOf("(", at);
      const close = t.indexOf(")", at);
      const span: [number, number] = open >= 0 && close > at && !t.slice(open, at).includes(")") ? [open, close + 1] : [Math.max(0, t.slice(0, at).search(/(?:\b(?:in|at|from|per|see|under)\s+)?$/)), at + p[0].length];
      if (pathFrom === c) pathSpan = span;
      else consume(pathFrom, span[0], span[1]);
    }
    if (path === null && !priceKey && !PRICE_SUBJECT.test(subject)) continue;
    let end = condEnd;
    const tail = PERIOD_TAIL.exec(c.text.slice(end));
    if (tail) end += tail[0].length;
    const spans: Array<[number, number]> = [[start, end]];
    if (pathSpan) spans.push(pathSpan);
    // "don't open new longs on it": the pronoun is the asset the condition was read for.
    const it = /\s+(?:on|in|for)\s+(?:it|that\s+(?:one|coin|market)|them)\b/i.exec(c.text.slice(end));
    if (it) spans.push([end + it.index, end + it.index + it[0].length]);
    const fresh: Array<[number, number]> = [];
    for (const [a, b] of spans) {
      let i = a;
      while (i < b) {
        while (i < b && c.used[i]) i++;
        const from = i;
        while (i < b && !c.used[i]) i++;
        if (i > from) fresh.push([from, i]);
      }
    }
    for (const [a, b] of fresh) consume(c, a, b);
    const when: Condition = path
      ? { subject: "context", path, op, value, pct: pctWritten && !/pct|percent|perc\b|_bps\b/i.test(path) ? true : undefined, text: restore(c.text.slice(start, condEnd), c.refs).trim() }
      : { subject: "price", op, value, pct: pctWritten || undefined, text: restore(c.text.slice(start, condEnd), c.refs).trim() };
    return { when, spans: fresh };
  }
  return null;
}

/** Binds what the clause produced to its condition; with nothing to bind, the condition's words are given back. */
export function bindCondition(c: Clause, read: ConditionRead | null, produced: Constraint[]): void {
  if (!read) return;
  if (produced.length === 0) {
    for (const [a, b] of read.spans) c.used.fill(false, a, b);
    return;
  }
  for (const k of produced) k.when = read.when;
}

/**
 * "If the spread is above 4 cents, don't trade": a condition alone in its clause governs the prohibition of the next
 * clause of the sentence. Read only when that next clause prohibits and this one does not.
 */
export function readLeadingCondition(c: Clause, next: Clause | undefined): ConditionRead | null {
  if (!next || !prohibits(next.text)) return null;
  if (!/^\s*(?:and\s+|also\s+|but\s+)?(?:if|when|whenever|while|as long as|so long as|in case)\b/i.test(c.text)) return null;
  const read = readCondition(c, false, next);
  // The condition must be the whole clause, or its leftovers would be silently read past.
  if (read && /[A-Za-z0-9§]/.test(c.text.replace(/./g, (ch, i: number) => (c.used[i] ? " " : ch)).replace(/\b(?:and|also|but|then)\b/gi, ""))) {
    for (const [a, b] of read.spans) c.used.fill(false, a, b);
    return null;
  }
  return read;
}

/** "if the desk gets nervous", "when things look off": a condition keyword opening a clause. */
export const OPENS_CONDITION = /^\s*(?:and\s+|also\s+|but\s+)?(?:if|when|whenever|while|in case)\b/i;

/**
 * A condition nobody could read still governs the prohibition it introduces: "if <unread>, don't pay it" must not
 * become a ban on every payment. The prohibition's findings become questions for a human (checks/conditions.ts).
 */
export const UNREAD_CONDITION = (text: string): Condition => ({ subject: "unread", op: ">=", value: 0, text });
