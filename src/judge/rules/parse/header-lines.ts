/**
 * Lines that frame the mandate without stating a rule (session 23): a memo's header fields ("To: execution agent",
 * "From: Head of Risk", "Re: limits effective immediately", "Subject: account limits for Q4", "Date: 3 March") and a
 * title on the first line ("Hyperliquid desk limits (v3)"). They carry rule *nouns* ("limits", "account", "margin")
 * that the leftover reader (reading.ts) counts as limits, so the whole mandate was held on a line that says nothing.
 *
 * The test is the line's structure, not its words: it is framing only when nothing in it could build a limit.
 * No negation, no exclusive word ("only", "except"), no comparison or bound ("at most", "above", "up to"), no modal
 * of permission or obligation ("may", "must", "allowed", "requires"), no condition ("if", "until", "unless"), no
 * figure (a date on a Date line, a version or a quarter are names), no address, host or context reference, and no
 * token. Rule nouns may stay: in a header they name the subject of the memo, not a bound.
 *
 * What such a line still does: it is read as a label, so the venue and chain it names narrow the scope (a memo
 * about the Hyperliquid desk does not cover a Polymarket order). What it never does: grant. An activity it names
 * ("Re: vendor payments") is not a permission (the label's implied permissions are dropped), and an asset it would
 * name makes it not framing at all (fail-closed: "Re: BTC only" is a rule).
 */
import { CHAINS, KNOWN_TOKENS, VENUES } from "../vocab";
import type { Clause } from "../text";
import { parseLabel } from "./polarity";
import type { ClauseReading } from "./reading";
import { asSymbol, type ParseState } from "./state";

/** A header field's key at the start of the line. */
const HEADER_KEY = /^\s*(?:to|from|re|subject|subj|date|cc|bcc|attn|attention|fwd?|ref|memo(?:randum)?|regarding)\s*[:-]\s*/i;

/** Operators a rule is built of; any one keeps the line with the rule readers. */
const OPERATOR =
  /\b(?:never|not|no|none|nothing|nobody|nor|without|only|solely|exclusively|just|except|excluding|unless|but|other|else|instead|max(?:imum)?|min(?:imum)?|most|least|up\s+to|above|below|under|over|beyond|more|less|fewer|than|exceed\w*|within|per|each|every|any|all|may|can|cannot|could|must|shall|should|will|would|allow\w*|permit\w*|forbid\w*|prohibit\w*|ban|bans|banned|disallow\w*|restrict\w*|block\w*|require\w*|need\w*|approv\w*|sign[- ]?off|ask|escalat\w*|confirm\w*|if|when|whenever|while|until|till|after|before|once|provided|unless|keep|stay|stick|avoid\w*|always)\b|n['’]t\b|[$%€£<>≤≥]|§[aqhcn]\d|0x[0-9a-f]{4}|\bcontext\.\w/i;

/** Names with digits in them: a quarter, a version, a revision, a document or desk number ("Q4", "v3", "rev 2", "No. 7"). */
const NAMED_FIGURE = /\b(?:q[1-4]|h[12]|fy\s?\d{2,4}|v\d+(?:\.\d+)*|rev(?:ision)?\.?\s*\d+|version\s*\d+(?:\.\d+)*|no\.?\s*\d+|#\d+|desk\s*\d+)\b|\(\s*(?:chain\s*(?:id)?\s*[:=]?\s*)?\d{1,7}\s*\)/gi;

/** A date: "24 November 2026", "2026-11-24", "Nov 3", "3/11/2026". Only on a Date line. */
const DATE =
  /\b\d{1,2}(?:st|nd|rd|th)?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?(?:,?\s+\d{4})?\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s+\d{4})?\b|\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b|\b\d{4}\b/gi;

/** Does the line (protected text) state no rule at all, whatever rule nouns it carries? */
function statesNothing(text: string, dated: boolean): boolean {
  let t = text.replace(NAMED_FIGURE, " ");
  // "Date: 24 November 2026": the month "may" is a month there, not a modal.
  if (dated) t = t.replace(DATE, " ");
  if (OPERATOR.test(t) || /\d/.test(t)) return false;
  // A token named in a frame would be a scope ("Re: BTC"): not framing. A venue or chain is a label's narrowing.
  for (const w of t.match(/[A-Za-z][\w'’-]*/g) ?? []) {
    const lw = w.toLowerCase();
    if (lw in VENUES || lw in CHAINS) continue;
    if (KNOWN_TOKENS.has(lw) || asSymbol(w) !== null) return false;
  }
  return true;
}

/** "Re: limits effective immediately", "From: Head of Risk": a header field that states no rule. */
export function isHeaderLine(sentence: string): boolean {
  const m = HEADER_KEY.exec(sentence);
  if (!m) return false;
  const key = m[0].trim().replace(/[:-]$/, "").trim().toLowerCase();
  return statesNothing(sentence.slice(m[0].length), key === "date");
}

/**
 * "Hyperliquid desk limits (v3)": the intent's first line, written without a full stop or colon, over other lines,
 * short, and stating nothing. `firstLine` is the intent's first non-blank line as the owner wrote it.
 */
export function isTitleLine(sentence: string, rule: string, firstLine: string | undefined): boolean {
  if (firstLine === undefined || rule.trim() !== firstLine.trim()) return false;
  if (/[.!?;:,]$/.test(firstLine.trim()) || firstLine.trim().split(/\s+/).length > 7) return false;
  return statesNothing(sentence, false);
}

/** Set while a framing candidate is read on its own, so that reading does not ask the same question again. */
let probing = false;

/**
 * Reads sentence `at` of the intent as a framing label when it is a header field or the title line, states nothing,
 * and the readers, given the line alone (`parse`), leave part of it unread (its rule noun): a line they read whole
 * ("Polymarket bot", "To: perps agent") keeps what they made of it. The label's venue and chain narrow the scope;
 * its implied permissions are dropped. Returns whether the line was taken.
 */
export function readFramingLine(c: Clause, at: number, intent: string, st: ParseState, parse: (text: string) => { clauses: ClauseReading[] }): boolean {
  const lines = intent.split("\n").filter((l) => l.trim() !== "");
  const candidate = isHeaderLine(c.text) || (at === 0 && isTitleLine(c.text, c.sentence, lines.length > 1 ? lines[0] : undefined));
  if (probing || !candidate) return false;
  probing = true;
  try {
    if (!parse(c.sentence).clauses.some((r) => r.reading === "not understood")) return false;
  } finally {
    probing = false;
  }
  const from = st.constraints.length;
  const permits = st.labelPermits.length;
  parseLabel(c, st, c.text.length, c.sentence);
  st.labelPermits.length = permits;
  st.readings.push({ clause: c.sentence, reading: "descriptive", constraints: Array.from({ length: st.constraints.length - from }, (_, k) => from + k), ignored: [], unread: [] });
  return true;
}
