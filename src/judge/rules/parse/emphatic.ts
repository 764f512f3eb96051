/**
 * Short emphatic sentences owners write around a rule, read for what they forbid and nothing more.
 *
 * - A topic, then a refusal: "Borrowing - not once, not ever.", "FOK orders? never do that.", "Bridging: nope",
 *   "Leverage changes? absolutely not". The topic is what is refused; the sentence is rewritten "No <topic>." so
 *   the prohibition readers read it (split at the dash, "Borrowing" alone had read as a *permission* to borrow, and
 *   "never do that" as a ban on every order once the pronoun took the bare noun "orders" of "FOK orders").
 * - An emphatic sentence after a prohibition: "Don't even think about it.", "I mean it.", "Seriously.", "Ever.",
 *   "No exceptions.": it restates the prohibition before it and is dropped.
 *
 * Invariants (fail closed): a rewrite only ever produces a prohibition; the topic must name something the readers
 * know (an activity, an order type) and carry nothing that could narrow or reverse it (a figure, an address, a
 * context path, "only", "except", "unless", "if", a negation, a permission word), otherwise the sentence is left as
 * written and stays for the readers (unread holds). An emphatic sentence is dropped only right after a sentence that
 * prohibits (has a negation and names an activity), never after a permission ("you can borrow. I mean it." is left).
 */
import type { Activity } from "../types";
import { consume, type Clause } from "../text";
import { activityPhrases } from "./polarity";
import { add, type ParseState } from "./state";

/** One refusal: "never", "not once", "no way", "absolutely not", "never do that", "off the table". */
const REFUSAL_ONE = String.raw`(?:never(?:\s+ever)?|not|not\s+(?:even\s+)?once|not\s+ever|no(?:pe|ne)?|nah|no\s+way|hard\s+no|absolutely\s+not|(?:definitely|certainly)\s+not|not\s+(?:allowed|permitted|ok|okay)|forbidden|prohibited|banned|off[- ]limits|off\s+the\s+table|out\s+of\s+the\s+question|not\s+(?:under|in)\s+any\s+circumstances?|under\s+no\s+circumstances?|(?:never|don['’]?t|do\s+not|please\s+don['’]?t)(?:\s+(?:ever|even))?\s+(?:do|try|touch|use|place|send)\s+(?:that|it|this|them|those|these))`;
const REFUSAL = new RegExp(String.raw`^\s*${REFUSAL_ONE}(?:\s*[,;]?\s*(?:and\s+|or\s+)?${REFUSAL_ONE})*\s*[.!]*\s*$`, "i");
/** "Borrowing - ...", "FOK orders? ...", "Bridging: ...": a short topic and its separator. */
const TOPIC = /^\s*([A-Za-z][\w/+-]*(?:\s+[A-Za-z][\w/+-]*){0,4})\s*(?:[-–—:?]|,)\s*/;
/** Words a topic may not carry: they could narrow, reverse or condition what is refused. */
const TOPIC_DANGER =
  /\b(?:only|just|except|unless|but|other|else|if|when|while|until|no|not|never|none|nothing|max|min|above|below|under|over|more|less|than|up|per|each|allowed|permitted|fine|ok|okay|yes|can|may|must|should|small|large|big|some|we|i|you|it|they|he|she|agent|bot|is|are|was|were|be|been|being|has|have|had|do|does|did|gets?|got|seems?|looks?)\b|n['’]t\b|\d|§/i;
/** Order types and styles the order readers know by name. */
const ORDER_KIND = /\b(?:fok|fak|ioc|gtc|gtd|alo|post[- ]only|market\s+orders?|limit\s+orders?|twaps?|stop[- ](?:loss(?:es)?|orders?)|trigger\s+orders?)\b/i;

function namesSomething(topic: string): boolean {
  return ORDER_KIND.test(topic) || activityPhrases(topic).length > 0;
}

/** "No <topic>." for a topic + refusal written in one sentence, else null. */
function refusedTopic(s: string): string | null {
  const t = TOPIC.exec(s);
  if (!t || TOPIC_DANGER.test(t[1]) || !namesSomething(t[1])) return null;
  return REFUSAL.test(s.slice(t[0].length)) ? `No ${t[1]}.` : null;
}

/** "FOK orders?" alone (the splitter drops the "?"): a bare topic, answered by the next sentence. */
const BARE_TOPIC = /^\s*([A-Za-z][\w/+-]*(?:\s+[A-Za-z][\w/+-]*){0,4})\s*[?:]?\s*$/;

/** An emphatic sentence that only restates the prohibition before it. */
const EMPHATIC =
  /^\s*(?:and\s+|so\s+)?(?:(?:don['’]?t|do\s+not|dont)\s+(?:you\s+)?(?:even\s+)?(?:think\s+about\s+it|try\s+it|dare|go\s+there)|(?:i|we)\s+(?:really\s+)?mean\s+(?:it|this|that)|seriously|really|ever|never(?:\s+ever)?|not\s+(?:even\s+)?once|not\s+ever|no\s+exceptions?|zero\s+exceptions?|period|full\s+stop|hard\s+stop|end\s+of\s+(?:story|discussion)|(?:this|that|it)\s+is\s+(?:non[- ]negotiable|final)|no\s+matter\s+what|under\s+no\s+circumstances?)\s*[.!]*\s*$/i;
const PROHIBITS = /\b(?:no|never|not|nothing|forbidden|prohibited|banned|off[- ]limits)\b|n['’]t\b/i;

export function readEmphatic(sentences: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < sentences.length; i++) {
    const s = sentences[i];
    const rewritten = refusedTopic(s);
    if (rewritten) {
      out.push(rewritten);
      continue;
    }
    // "FOK orders?" then "never do that.": the answer refuses the topic asked about.
    const q = BARE_TOPIC.exec(s);
    const next = sentences[i + 1];
    if (q && next !== undefined && !TOPIC_DANGER.test(q[1]) && namesSomething(q[1]) && REFUSAL.test(next)) {
      out.push(`No ${q[1]}.`);
      i++;
      continue;
    }
    const prev = out.at(-1);
    if (prev !== undefined && EMPHATIC.test(s) && PROHIBITS.test(prev) && (activityPhrases(prev).length > 0 || ORDER_KIND.test(prev))) continue;
    out.push(s);
  }
  return out;
}

// ---- clause-level: short sentences after a permission ----

/**
 * "withdrawals to the treasury are ok but never unattended", "swaps fine, not without me": the permission just
 * granted in the sentence runs only with a human present, so an action of that kind is sent to one. With no
 * permission before it in the sentence it names nothing and stays unread.
 */
const UNATTENDED =
  /^\s*(?:and\s+|but\s+)?(?:never|not|no)\s+(?:(?:when|while)\s+)?(?:unattended|unsupervised|unmonitored|unwatched|alone|on\s+(?:its|your|their)\s+own|by\s+(?:itself|yourself)|autonomously|automatically|without\s+(?:me|us|a\s+human|someone|supervision|(?:my|our|a\s+human['’]?s?)\s+(?:ok|okay|approval|sign[- ]?off|say[- ]?so|go[- ]?ahead)))\s*[.!]*\s*$/i;

/**
 * "u can wrap eth to weth and back, don't care how much", "unwrapping is fine, any amount": the owner says the
 * permission just granted has no size rule. It adds nothing and removes nothing (a cap written anywhere else still
 * binds), so it is only consumed; with no permission before it in the sentence it stays for the readers.
 */
const NO_SIZE_RULE =
  /^\s*(?:and\s+|so\s+)?(?:(?:(?:i|we)\s+)?(?:don['’]?t|do\s+not|dont)\s+care\s+(?:how\s+(?:much|many|big|large)|about\s+(?:the\s+)?(?:size|amounts?))|any\s+(?:amount|size)(?:\s+(?:is\s+)?(?:fine|ok|okay))?|whatever\s+(?:amount|size)|(?:the\s+)?(?:amount|size)\s+(?:doesn['’]?t|does\s+not)\s+matter)\s*[.!]*\s*$/i;

/**
 * "px from ctx only", "use context prices", "prices come from context.prices": where prices are read. The engine
 * values every action at the context's prices and never at a price the action or its notes claim (a missing or stale
 * one is a question), so the clause restricts nothing the checks do not already do.
 */
const CTX = String.raw`(?:the\s+)?(?:ctx|context|§c\d+)`;
const PRICE_WORD = String.raw`(?:px|prices?|marks?|mark\s+prices?|quotes?|valuations?)`;
const PRICE_SOURCE = new RegExp(
  String.raw`^\s*(?:(?:${PRICE_WORD}(?:\s+(?:come|comes|are\s+taken|taken|read|used))?\s*(?:from|per|via|in|off|=|:)\s*${CTX}(?:\s+${PRICE_WORD})?)|(?:(?:only\s+)?(?:use|take|read)\s+(?:the\s+)?(?:(?:ctx|context|§c\d+)\s+${PRICE_WORD}|${PRICE_WORD}\s+(?:from|in)\s+${CTX})))(?:\s+only)?\s*[.!]*\s*$`,
  "i",
);

/** Reads the three shapes above; true when the clause was consumed (and, for "never unattended", gated). */
export function readAfterPermission(c: Clause, st: ParseState, rule: string, inherit: Activity[]): boolean {
  if (c.used.some(Boolean)) return false;
  if (PRICE_SOURCE.test(c.text)) {
    consume(c, 0, c.text.length);
    return true;
  }
  if (inherit.length === 0) return false;
  if (UNATTENDED.test(c.text)) {
    add(st, { kind: "escalate_on", activities: [...inherit], rule });
    consume(c, 0, c.text.length);
    return true;
  }
  if (NO_SIZE_RULE.test(c.text)) {
    consume(c, 0, c.text.length);
    return true;
  }
  return false;
}
