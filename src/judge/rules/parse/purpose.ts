/**
 * Purpose statements: "this wallet just tops up our keeper bots with SOL", "This account is for pay the salaries of
 * our team on Starknet", "ok so it pays our two freelancers on base in usdc", "The prediction-market wallet exists
 * to take positions on ...". The activity, asset, chain and recipient group they name are read by the ordinary
 * permission reader (polarity.ts), which makes them the scope: an activity outside a stated purpose is not
 * permitted. What this file adds is reading the words that say *whose* purpose it is and *what is described*, so
 * they are not mistaken for limits nobody read:
 *
 * - the subject ("this wallet", "the prediction-market wallet", "it") is the account itself, not a payee;
 * - "our spot ETH holdings" describes what is hedged, not a market type; "our two auditors" counts a group;
 * - a lead-in aside ("As discussed on Thursday's call,") cites a conversation;
 * - "It can open shorts on the ETH perpetual", "The agent shorts the ETH perp": shorts are the stated activity, so
 *   an order that opens a long is held for a human (never allowed on this reading);
 * - "leverage 5x at most, cross margin": a margin mode listed beside a leverage cap.
 *
 * Invariants: nothing here consumes a negation, "only", a figure or a token; a subject is consumed only when a
 * purpose verb follows it ("is for", "exists to", "pays", "tops up", ...), never one naming someone else's wallet
 * ("the vendor wallet", "our cold wallet"). A purpose never removes a limit another clause states.
 */
import type { Activity } from "../types";
import { scan, type Clause } from "../text";
import { add, type ParseState } from "./state";
import type { Constraint } from "../types";
import { isRecipientNoun } from "./reading";

const LEAD = String.raw`^\s*(?:(?:hello|hi|hey|ok(?:ay)?|so|well|and|also|basically|note|fyi)\b[\s,!:]*)*`;
/** Words before "wallet" that make it someone else's wallet: then it may be a payee, and stays for the readers. */
const OTHERS = /\b(?:vendor|vendors|recipient|destination|payee|receiving|target|counterparty|external|exchange|deposit|cold|hot|hardware|personal|other|their|his|her|your|user|customer|client|supplier|contractor|freelancer|team|member|employee)\b/i;
const SUBJECT = new RegExp(
  String.raw`${LEAD}(?:(?:this|the|our|my)\s+((?:[\w-]+\s+){0,3}?)(?:wallet|account|agent|bot|safe|vault|address|one|key|signer|sub-?account|escrow|multisig)|it)(?:\s+it)?(?=\s+(?:(?:is|['’]s)\s+(?:(?:only|just|solely|exclusively|purely|mainly|mostly)\s+)?(?:for|used\s+(?:only\s+)?(?:for|to)|meant\s+(?:for|to)|here\s+to|there\s+to|set\s+up\s+(?:for|to)|dedicated\s+to)\b|exists?\s+(?:(?:only|just|solely)\s+)?(?:to|for)\b|(?:(?:only|just|solely|exclusively|purely|mainly)\s+)?(?:pays|tops|sends|swaps|wraps|unwraps|converts|trades|buys|sells|shorts|hedges|holds|handles|manages|operates|runs|bets|stakes|delegates|supplies|lends|funds|refills|covers|settles|moves)\b))`,
  "i",
);

/** The owner's voice: "We use this account to pay ...", "I only use the bot for ...". A purpose, not a remark. */
const OWNER_PURPOSE = new RegExp(
  String.raw`${LEAD}(?:we|i)\s+(?:only\s+|just\s+|mainly\s+|mostly\s+)?use\s+(?:this|the|our|my)\s+((?:[\w-]+\s+){0,2}?)(?:wallet|account|agent|bot|safe|vault|address|key|sub-?account)\s+(?:only\s+|just\s+|solely\s+|exclusively\s+)?(?:to|for)\b`,
  "i",
);

/** A clause that states what the account is for (its subject is the account or the owner using it). */
export const isPurposeClause = (text: string): boolean => SUBJECT.test(text) || OWNER_PURPOSE.test(text);

/** Consume the subject of a purpose statement at the start of a clause. */
export function consumePurposeSubject(c: Clause): void {
  scan(c, SUBJECT, (m) => !(m[1] && OTHERS.test(m[1])));
  scan(c, OWNER_PURPOSE, (m) => !(m[1] && OTHERS.test(m[1])));
}

/**
 * "my polymarket bets on the elections", "exists to take positions on the Fed's rate decisions": on a prediction
 * venue the object of the bets is a category of markets, written the way the market-category reader reads one
 * ("... markets"). An object with a figure, a token or a limiting word is left as it is.
 */
export function markBetTopics(text: string): string {
  return text.replace(
    /\b((?:bets?|betting|wagers?|positions?)\s+on\s+)((?:the\s+)?[A-Za-z][\w'’ -]{1,60}?)(?=\s*(?:[.;,:!?\n)]|$))/gi,
    (m, head: string, obj: string) =>
      /\b[A-Z]{2,}\b/.test(obj) || /\bmarkets?\b|\d|\b(?:only|never|not|no|max|min|limit|cap|under|over|above|below|except|unless|per|each|up|more|less|than|at|if|when)\b/i.test(obj)
        ? m
        : `${head}${obj} markets`,
  );
}

const NUMBER_WORD = String.raw`(?:two|three|four|five|six|seven|eight|nine|ten|a\s+couple\s+of|a\s+few|several|both|\d{1,2})`;
/** Group nouns a count may precede ("our two auditors"): a count of people or wallets, never an amount. */
const GROUP = String.raw`(?:freelancers?|contractors?|auditors?|vendors?|suppliers?|keepers?|keeper\s+bots?|bots?|team\s+members?|employees?|staff|contributors?|grantees?|payees?|recipients?|wallets?|sub-?accounts?|validators?|partners?|advisors?|members?|devs?|developers?|designers?|engineers?|interns?|writers?|translators?|lawyers?|accountants?|moderators?|creators?|artists?|employees?|people|hires?)`;

const EVERY = String.raw`(?:(?:every\s+(?:\d+(?:\.\d+)?\s*|few\s+|couple\s+(?:of\s+)?)?(?:s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|days?|mornings?|nights?|evenings?|weekdays?|blocks?)|hourly|daily|nightly|(?:once|twice)\s+(?:a|an|per)\s+(?:minute|hour|day|night))\b)`;
const CRON = String.raw`(?:(?:on|via|from|as|by|off)\s+(?:a\s+|the\s+)?(?:cron(?:\s*job)?|scheduler|timer|schedule))`;
/** The agent's run schedule: "runs on a cron every 30 min", "polls hourly", "is triggered by the scheduler". */
const SCHEDULE = new RegExp(
  String.raw`\b(?:runs?|running|wakes?\s+up|polls?|ticks?|fires?|(?:gets?|is)\s+(?:run|scheduled|triggered|called|invoked|kicked\s+off))\s+(?:${CRON}\s*(?:,\s*)?${EVERY}?|${EVERY}(?:\s*${CRON})?)`,
  "gi",
);

/**
 * Descriptions inside a clause: the held position a hedge protects ("our spot ETH holdings"), a group's size ("our
 * two auditors"), and an aside that cites a conversation ("As discussed on Thursday's call,").
 */
export function consumeDescriptions(c: Clause): void {
  scan(c, /\b(?:our|the|my|its|their)\s+(spot)(?=\s+(?:[A-Z][A-Za-z0-9]{1,9}\s+)?(?:holdings?|bags?|book|inventory|stack|balances?|exposure|reserves?|stash)\b)/g, () => undefined);
  // "The hedge is never bigger than 30 ETH short": the side of the position the figure measures (the size check
  // takes the position's size either way, so a long of the same size is held to it as well).
  if (/\b(?:hedge|position)\b/i.test(c.text)) scan(c, /(?<=\b\d[\d,.]*\s*[A-Z][A-Za-z0-9]{1,9}\s+)(?:short|long)\b(?=\s*(?:[,.;)]|$))/g, () => undefined);
  // "the USDC we receive from customers": where funds come from, not who is paid.
  scan(c, /\b(?:(?:we|i|you|it|they)\s+)?(?:receive|received|get|got|collect|collected|earn|earned|take\s+in)\s+from\s+(?:our\s+|the\s+|its\s+|their\s+)?(?:customers?|clients?|users?|buyers?|merchants?|subscribers?)\b/gi, () => undefined);
  // "It pays two vendors, in USDC only:" counts the group its list gives, like "our two vendors".
  scan(c, new RegExp(String.raw`(?<=\b(?:our|my|the|its|their|these|those|pays|pay|paying)\s+)${NUMBER_WORD}(?=\s+(?:[a-z-]+\s+)?${GROUP}\b)`, "gi"), () => undefined);
  // "pays for transcription with x402 from my wallet", "buys the reports out of our balance": where the money comes
  // from, at the end of a clause that pays or buys, is the account itself, not a payee or a limit.
  scan(c, /\b(?:from|out\s+of)\s+(?:my|our|this|the)\s+(?:own\s+)?(?:wallet|account|balance|funds|money)(?=\s*(?:[,.;)]|$))/gi, (m) =>
    /\b(?:pay|pays|paying|paid|buy|buys|buying|purchas\w+|spend|spends|spending|fund|funds)\b/i.test(c.text.slice(0, m.index)),
  );
  // "runs on a cron every 30 min", "wakes up hourly": when the bot is run, not how often it may act. Never after a
  // bound word ("at most every 30 min", "only hourly", "not more than daily"): that is a rate the readers must see.
  scan(c, SCHEDULE, (m) => !/\b(?:only|at\s+most|max(?:imum)?|no\s+more|not|never|no|than|limit\w*|cap\w*|up\s+to)\s*(?:\w+\s+){0,2}$/i.test(c.text.slice(0, m.index)));
  scan(
    c,
    /^\s*(?:as|like)\s+(?:(?:we|i)\s+)?(?:discussed|agreed|mentioned|promised|requested|planned|decided|said|noted)\s+(?:(?:on|in|at|during|over|after)\s+(?:the\s+|our\s+|my\s+|your\s+|last\s+|this\s+)?(?:\w+['’]s\s+)?(?:\w+\s+)?(?:call|meeting|chat|thread|email|sync|standup|stand-up|review|offsite|session))?\s*,/gi,
    (m) => !/\b(?:only|never|not|no|max|limit|cap|must|may|can|\d)\b/i.test(m[0]),
  );
}

/**
 * "It can open shorts on the ETH perpetual", "The agent shorts the ETH perp to hedge ...": the agent's side is short.
 * Read as an order permission whose other side (a buy that opens or adds to a long) is held for a human.
 */
export function parseShortPurpose(c: Clause, st: ParseState, rule: string): void {
  const re =
    /(?<=\b(?:it|the\s+(?:agent|bot)|this\s+(?:agent|bot)|you|the\s+account)\s+(?:(?:can|may|will|is\s+to|is\s+allowed\s+to)\s+)?)(?:(?:open|opens|take|takes|put\s+on|puts\s+on|go|goes|add|adds)\s+(?:an?\s+|new\s+)?shorts?(?=\s+(?:on|in)\b)|shorts(?=\s+(?:the\s+)?(?:[A-Z][A-Za-z0-9]{1,9}|perp|perps|perpetuals?)\b))/gi;
  scan(c, re, () => {
    add(st, { kind: "permit", activities: ["order", "cancel"] as Activity[], rule });
    add(st, { kind: "side", allowed: "short", escalate: true, rule });
  });
}

/** "..., never long", "no shorts": a fragment that restates the side after a side rule. */
export function parseSideFragment(c: Clause, st: ParseState, rule: string): void {
  scan(c, /^\s*(?:and\s+|but\s+)?(?:never|not|no)\s+(long|short)s?\s*$/gi, (m) => {
    add(st, { kind: "side", allowed: m[1].toLowerCase() === "long" ? "short" : "long", rule });
  });
}

/** "leverage 5x at most, cross margin": a margin mode listed beside a leverage rule is the mode required. */
export function parseListedMarginMode(c: Clause, st: ParseState, rule: string): void {
  if (!/\bleverage\b/i.test(c.text)) return;
  scan(c, /(?<=,\s*|\band\s+)(cross|isolated)[- ]margin(?:\s+mode)?(?=\s*(?:[,;.)]|$))/gi, (m) => {
    add(st, { kind: "margin_mode", mode: m[1].toLowerCase() as "cross" | "isolated", rule });
  });
}

/**
 * "The desk runs this bot overnight when nobody is watching the screens": who operates the agent and when. Its
 * subject is the owner's side, not the agent, and nothing in it limits (a "when nobody is watching" clause
 * describes the hours, it does not forbid anything).
 */
const OPERATOR =
  /^\s*(?:the|our)\s+(?:desk|team|ops(?:\s+team)?|trading\s+desk|traders?|owners?|founders?|operators?|analysts?|admins?|company|fund|firm|cfo|treasurer|board|council|committee)\s+(?:runs?|uses?|operates?|starts?|monitors?|watches|reviews?|checks?|turns\s+on|switches\s+on|built|set\s+up|deployed|launched|started)\s+(?:this|the|our)\s+(?:bot|agent|account|wallet|strategy)\b/i;
const WHEN_AWAY =
  /\b(?:when|while|whenever)\s+(?:nobody|no\s+one|none\s+of\s+us|we|i|the\s+team|the\s+desk)\s*(?:is|are|['’]re|['’]s|am)?\s*(?:not\s+)?(?:watching|around|awake|online|asleep|sleeping|away|busy|offline|at\s+(?:the\s+)?(?:desk|screens?|office|computer))(?:\s+(?:the\s+)?(?:screens?|markets?|charts?|desk))?\b/gi;
const OPERATOR_DANGER =
  /\b(?:only|solely|exclusively|never|no|not|none|nothing|except|unless|without|max(?:imum)?|min(?:imum)?|at most|at least|up to|must|shall|should|may|can|cannot|limit\w*|cap\w*|budget|allowed|permitted|forbidden|prohibited|above|below|under|over|per|if|until|after|before|between)\b|n['’]t\b|\d|[$%]|§[aqhcn]\d/i;

/**
 * "The desk trades elsewhere", "our accountant handles the payroll", "the treasurer reviews fills on Fridays": what a
 * person other than the agent does. Its verb is theirs, so it grants the agent nothing (it had made "The desk trades
 * elsewhere" a permission to trade, under a mandate whose key only does housekeeping). Only without a rule word.
 */
const OTHERS_DO =
  /^\s*(?:and\s+)?(?:the|our|my)\s+(?:(?:trading|ops|finance|risk|treasury|research)\s+)?(?:desk|team|traders?|treasurer|accountants?|bookkeeper|partner|wife|husband|family|board|committee|council|ops|finance|humans?|staff|owners?|founders?|cfo|coo|ceo|analysts?|colleagues?|manager|boss|assistant|admins?)\s+(?!(?:may|can|must|will|shall|should|is|are|has|have|gets?)\b)[a-z]+(?:s|ed)\b/i;

export const isOperatorStatement = (text: string): boolean =>
  (OPERATOR.test(text) || OTHERS_DO.test(text)) && !OPERATOR_DANGER.test(text.replace(WHEN_AWAY, " "));

/** A purchase over x402: a buying verb in a clause that names x402. */
const X402_PURCHASE = /^(?=.*\bx402\b).*\b(?:buys?|buying|purchas\w+|pays?\s+for|paying\s+for)\b/i;
/** "from data providers", "from third-party vendors": the kind of seller an x402 purchase is made from. */
const X402_SELLER = /\bfrom\s+(?:(?:the|various|different|third[- ]party|[a-z]+)\s+){0,2}(?:vendors?|providers?|sellers?|publishers?|merchants?|services?|sources?|sites?|apis?)\b/gi;

/**
 * "purchases research PDFs from publishers via x402": buying over x402 is paying per request (the buying verb alone
 * reads as trading), and the seller group is description (the guard below keeps the rest of the purpose in view).
 */
export function readX402Purchase(c: Clause, st: ParseState, rule: string): void {
  if (!X402_PURCHASE.test(c.text)) return;
  add(st, { kind: "permit", activities: ["payment"], rule });
  scan(c, X402_SELLER, (m) => !/\b(?:only|listed|approved|these|those|our)\b/i.test(m[0]));
}

/**
 * A purpose whose object nobody read must not scope nothing. When a purpose statement permits moving value and the
 * intent names no recipient list anywhere, or permits betting and names no market list, or permits trading and
 * names no asset or market, the words it left (who is paid, what is bet on, what is traded: "the design agency",
 * "the Fed's decisions", "the majors") are what limits it: the clause is not understood rather than a permission
 * for everything. Before the subject was read, the unread "wallet" held these clauses by accident.
 */
export function guardPurposeObjects(st: ParseState): void {
  const listed = (dims: string[]) => st.constraints.some((k) => k.kind === "allow" && dims.includes(k.dim) && (k.values.length > 0 || (k.refs?.length ?? 0) > 0));
  // An x402 host list names who is paid per request: it is a payee list for this guard.
  const hasRecipients = listed(["recipient", "spender", "host"]);
  const hasMarkets = listed(["market", "topic", "outcome"]);
  const payeeList = st.constraints.some(
    (k) => k.kind === "allow" && k.dim === "recipient" && (k.values.length > 0 || (k.refs?.length ?? 0) > 0) && (k.activities.length === 0 || k.activities.some((a) => a === "transfer" || a === "payment")),
  );
  st.readings.forEach((r, idx) => {
    if (!isPurposeClause(r.clause)) return;
    // "ok so it pays our two freelancers on base" beside "only to the addresses in context.freelancers": the group the
    // purpose names is the list another sentence gives; the list restricts the payees either way.
    // A capitalised word right before the group ("our Discord moderators", "the Lisbon contractors") names the group.
    const namesGroup = (w: string): boolean => /^[A-Z][a-z]/.test(w) && new RegExp(String.raw`\b${w}\s+${GROUP}\b`).test(r.clause);
    if (r.reading === "not understood" && payeeList && r.unread.length > 0 && r.unread.every((w) => isRecipientNoun(w) || namesGroup(w))) {
      const at = st.unknown.indexOf(r.question ?? "");
      if (at >= 0) st.unknown.splice(at, 1);
      const { question: _settled, ...rest } = r;
      st.readings[idx] = { ...rest, reading: r.constraints.length ? "constraint" : "descriptive", ignored: [...r.ignored, ...r.unread], unread: [] };
      return;
    }
    if (r.reading === "not understood" || r.ignored.length === 0) return;
    const produced = r.constraints.map((i) => st.constraints[i]).filter((k): k is Constraint => !!k);
    const acts = produced.flatMap((k) => (k.kind === "permit" ? k.activities : []));
    const moves = acts.some((a) => a === "transfer" || a === "payment");
    const trades = acts.some((a) => a === "order" || a === "swap");
    const ownList = produced.some((k) => k.kind === "allow" && ["asset", "market", "topic", "outcome"].includes(k.dim));
    // "buys single company filings from data providers via x402": a purchase per request pays whoever serves the
    // resource, so what is bought and from what kind of seller describe the use; caps, hosts and networks limit it.
    const open = (moves && !hasRecipients && !X402_PURCHASE.test(r.clause)) || (trades && (st.prediction ? !hasMarkets : !ownList));
    if (!open) return;
    const question = `Not understood: "${r.clause.length > 160 ? `${r.clause.slice(0, 150)}…` : r.clause}" (could not read: ${r.ignored.slice(0, 6).join(", ")}).`;
    st.unknown.push(question);
    st.readings[idx] = { ...r, reading: "not understood", unread: r.ignored, ignored: [], question };
  });
}
