/**
 * Words a careful reader may leave, because a constraint the same clause produced already carries their role:
 *
 * - a restated limit word with no figure of its own beside a cap ("each order under 2.5k, thats the ceiling");
 * - a restated closer beside an allowlist of the kind it names ("only to the wallets in context.x and to no other
 *   wallet", "only pay api.x.example, nobody else", "token: USDC # nothing else, ever");
 * - a reason after a prohibition ("don't add api wallets, got burned that way last year", "never bridge, because
 *   the bridges get hacked");
 * - a caution beside a limit ("leverage up to 5x is fine dont go nuts", "don't get greedy");
 * - "more with my ok" after a per-action cap: above the cap a human decides (the cap becomes that threshold).
 *
 * Everything else stays unread and holds the action: a second figure, "except", "unless", "if", "but", "without",
 * a negation that is not one of these shapes, another asset or activity. Each shape is anchored to the clause's
 * tail and checked against what the clause produced, so a closer beside no list, a limit word beside no cap or a
 * reason beside a permission (which a condition could narrow) is left for the reader to escalate.
 */
import type { Constraint, ListDim } from "../types";
import { consume, isUsed, scan, unexplained, type Clause } from "../text";
import { NEG_RE } from "./polarity";
import { isLimiting } from "./reading";

const NEG_RE_ONE = new RegExp(NEG_RE.source, "i");

type Span = [number, number];

/** The kinds of list a closer's noun may restate ("no other wallet" restates a recipient list). */
const NOUN_DIMS: Array<[RegExp, ListDim[]]> = [
  [/^(?:tokens?|assets?|coins?|currenc(?:y|ies)|stablecoins?)$/, ["asset", "assetClass"]],
  [/^(?:wallets?|address(?:es)?|recipients?|payees?|vendors?|people|persons?|accounts?|counterpart(?:y|ies)|destinations?|validators?|grantees?|contractors?|suppliers?|employees?|one|body)$/, ["recipient", "spender"]],
  [/^where$/, ["recipient"]],
  [/^(?:ones?|list)$/, ["asset", "assetClass", "recipient", "spender", "market", "marketType", "topic", "host", "chain", "venue", "contract"]],
  [/^(?:markets?|perps?|pairs?|instruments?)$/, ["market", "asset", "marketType", "topic"]],
  [/^(?:hosts?|sites?|apis?|services?|providers?|endpoints?|domains?|sellers?|merchants?)$/, ["host", "recipient"]],
  [/^(?:chains?|networks?)$/, ["chain"]],
  [/^(?:venues?|exchanges?|protocols?|platforms?|dexe?s?|pools?|contracts?|routers?)$/, ["venue", "contract", "spender"]],
];

// "nobody else", "and to no other wallet", "nothing beyond those", "# the only destination", at the clause's end.
// Also in brackets ("payees: context.payees (nobody else)"), in a learner's order ("to nobody other"), and by place
// ("nowhere else", a list of destinations). "don't send to anyone else" is left to the negation readers, which read
// it as a prohibition of every destination off the lists.
const CLOSER_TAIL =
  /(?:^|,\s*|\s+)(?:\(\s*)?(?:#\s*)?(?:and\s+)?(?:(?:to|for|with|on|in|from|through|via)\s+)?(?:(?:nothing|nobody|no[\s-]?(one|body))\s+(?:else|other|beyond\s+(?:those|these|that|this|them|it))|no\s+others?(?:\s+([a-z]+))?|(?:the|our|my)\s+only\s+([a-z]+)|no(where)\s+else)(?:,?\s+(?:ever|at\s+all))?\s*\)?\s*[.!]*\s*$/i;

interface Held {
  span: Span;
  /**
   * A closer restates a list of one of these kinds ("any": every list); a reason needs a prohibition; "more with my
   * ok" needs one per-action cap, which it turns into the threshold above which a human decides.
   */
  role: ListDim[] | "any" | "reason" | "human-above" | "emphasis";
}
const held = new WeakMap<Clause, Held[]>();

function hold(c: Clause, m: RegExpExecArray | null, role: Held["role"]): void {
  if (!m || m.index === 0 || isUsed(c, m.index, m.index + m[0].length)) return;
  consume(c, m.index, m.index + m[0].length);
  held.set(c, [...(held.get(c) ?? []), { span: [m.index, m.index + m[0].length], role }]);
}

/**
 * Before the negation scan: a closer or a reason at the clause's end is taken out provisionally, so "... permitted
 * only to X and to no other wallet" is read as the permission it is rather than as a prohibition, and "don't add api
 * wallets, got burned before" as the prohibition without the words that could narrow it. `settleTails` gives the
 * words back when the clause produced nothing that carries their role.
 */
export function holdTails(c: Clause): void {
  const r = REASON_TAIL.exec(c.text);
  if (r && inertReason(r[0]) && NEG_RE_ONE.test(c.text.slice(0, r.index))) hold(c, r, "reason");
  // The closer first: it may end in the same emphasis ("nothing else, ever").
  holdCloser(c);
  hold(c, MORE_WITH_OK.exec(c.text), "human-above");
  hold(c, EMPHASIS_TAIL.exec(c.text), "emphasis");
}

function holdCloser(c: Clause): void {
  const m = CLOSER_TAIL.exec(c.text);
  // "Please no other coins" is a prohibition of its own: a closer only rides on a rule written before it.
  if (!m || !/[A-Za-z0-9§]/.test(c.text.slice(0, m.index).replace(/\b(?:please|pls|plz|and|so|also|just|but|then|ok|okay)\b/gi, ""))) return;
  const noun = (m[1] ?? m[2] ?? m[3] ?? m[4] ?? "").toLowerCase();
  const dims = noun ? NOUN_DIMS.find(([re]) => re.test(noun))?.[1] : "any";
  if (dims) hold(c, m, dims);
}

const listOf = (k: Constraint, dims: ListDim[] | "any"): boolean =>
  k.kind === "only_listed" || (k.kind === "allow" && (dims === "any" || dims.includes(k.dim)) && (k.values.length > 0 || (k.refs?.length ?? 0) > 0));

const perActionCaps = (cs: Constraint[], from: number): number[] =>
  cs.map((k, i) => (i >= from && k.kind === "cap" && k.period === "action" ? i : -1)).filter((i) => i >= 0);

function carried(h: Held, cs: Constraint[], from: number): boolean {
  const produced = cs.slice(from);
  if (h.role === "reason") return produced.length > 0 && produced.every((k) => k.kind === "forbid" || k.kind === "deny");
  if (h.role === "human-above") return perActionCaps(cs, from).length === 1;
  if (h.role === "emphasis") return produced.some((k) => k.kind !== "permit");
  const dims = h.role;
  return produced.some((k) => listOf(k, dims));
}

/** After the clause was parsed (its constraints are `cs` from `from` on): keep what a constraint carries, give back the rest. */
export function settleTails(c: Clause, cs: Constraint[], from: number): void {
  const hs = held.get(c);
  if (!hs) return;
  held.delete(c);
  for (const h of hs) {
    if (!carried(h, cs, from)) {
      for (let i = h.span[0]; i < h.span[1]; i++) c.used[i] = false;
    } else if (h.role === "human-above") {
      const i = perActionCaps(cs, from)[0];
      const cap = cs[i] as Extract<Constraint, { kind: "cap" }>;
      cs[i] = { kind: "escalate_above", limit: cap.limit, scope: cap.scope, inclusive: false, rule: cap.rule };
    }
  }
}

/** Scan the unconsumed tail of the clause; consume a match only when every character of it is still free. */
function takeTail(c: Clause, re: RegExp): boolean {
  const m = re.exec(c.text);
  if (!m || isUsed(c, m.index, m.index + m[0].length)) return false;
  consume(c, m.index, m.index + m[0].length);
  return true;
}

const CAP_KINDS = new Set<Constraint["kind"]>(["cap", "leverage_cap", "slippage_cap", "escalate_above", "price_cap", "fee_rate_cap"]);

// "thats the ceiling", "that's the hard max", "(hard cap)", "firm limit": the limit word alone, no figure, not "limit orders".
const LIMIT_RESTATED =
  /(?:^|[,(\s])\s*(?:(?:that['’]?s|thats|that\s+is|this\s+is|it['’]?s|is)\s+)?(?:as\s+)?(?:the|a|my|our)?\s*(?:hard|firm|absolute|strict|real|upper|top)?\s*(?:ceiling|cap|limit|max(?:imum)?)\s*\)?(?=\s*[,.;!]?\s*$)/i;

// "got rekt that way last year", "because the bridges get hacked": a reason after the rule, to the clause's end.
const REASON_TAIL =
  /(?:,\s*|\s+[-(]\s*|\s+)(?:(?:because|cause|cuz|coz|bc|since)\b|(?:(?:we|i)\s+)?(?:got|get|were|was|have\s+been|['’]ve\s+been)\s+(?:rekt|burned|burnt|hacked|drained|wrecked|scammed|rugged|exploited|phished|bitten|stung)\b|(?:learned|learnt)\s+(?:that|this|it)\s+the\s+hard\s+way\b|for\s+(?:obvious|good|safety|security|tax|compliance|legal|regulatory)\s+reasons\b|\(\s*(?:too|way\s+too|very|super)\s+[a-z]+\s*\))[^§\d$%]*$/i;

/** Narrative words a reason may carry ("got drained that way before", "last year"). */
const STORY = /^(?:before|last|ago|once|twice|years?|months?|weeks?|days?|times?|since|because|cause|cuz|coz|bc)$/i;

/**
 * A reason is dropped only when nothing in it could be a rule of its own: no limiting word, asset, venue or chain
 * ("never short, since we only go long on BTC" keeps its "only ... BTC" unread).
 */
const inertReason = (tail: string): boolean => (tail.match(/[A-Za-z][A-Za-z'’-]*/g) ?? []).every((w) => STORY.test(w) || !isLimiting(w));

// "dont go nuts", "don't get greedy", "nothing crazy": a caution, not a second limit.
const CAUTION =
  /(?:^|,\s*|\s+)(?:(?:but|and|just|so)\s+)?(?:(?:don['’]t|do\s+not|never)\s+(?:go|get|be)\s+(?:too\s+)?(?:nuts|crazy|wild|overboard|greedy|silly|stupid|dumb|reckless|mad|cute|carried\s+away)|nothing\s+(?:crazy|wild|silly|stupid))(?:\s+with\s+(?:it|that|this|size|sizing|leverage))?\s*[.!]*\s*$/i;

// "isolated or cross both fine", "either margin mode is ok": says there is no margin rule.
const NO_MARGIN_RULE =
  /(?:^|,\s*|\s+)(?:(?:isolated|cross)(?:\s+margin)?\s+(?:or|and|\/)\s+(?:isolated|cross)(?:\s+margin)?|either\s+margin(?:\s+mode)?)\s*,?\s*(?:are\s+|is\s+)?(?:both\s+)?(?:fine|ok|okay|allowed)\s*[.!]*\s*$/i;

// "more with my ok", "bigger ones need my ok": above the cap just read, a human decides.
const MORE_WITH_OK =
  /(?:^|,\s*|\s+)(?:and\s+)?(?:anything\s+|any\s+)?(?:more|larger|bigger|higher|above\s+(?:that|this|it)|over\s+(?:that|this|it)|beyond\s+(?:that|this|it))(?:\s+ones)?\s+(?:(?:only\s+)?with|needs?|requires?|after|w)\s+(?:my|our|the\s+owner['’]s|a\s+human['’]s|explicit)\s+(?:ok|okay|approval|sign[- ]?off|go[- ]?ahead|say[- ]?so|permission|consent|blessing)(?:\s+first)?\s*[.!]*\s*$/i;

// ", seriously", "- hard stop", "no excuses", "not even once": emphasis after a rule, never a rule of its own.
const EMPHASIS =
  String.raw`(?:seriously|honestly|obviously|really|please|pls|thanks|thank\s+you|hard\s+stop|end\s+of\s+story|no\s+discussion|no\s+excuses?|not\s+(?:even\s+)?once|not\s+ever|never\s+ever|no\s+matter\s+what|(?:not\s+)?(?:under|in|for)\s+(?:any|no)\s+(?:condition|conditions|circumstances?|reason|case)|at\s+all|ever)`;
// Only after a comma or a dash: "withdrawals to context.x are fine" must keep its last word.
const EMPHASIS_TAIL = new RegExp(String.raw`(?:,\s*|\s+[-–]\s*)${EMPHASIS}\s*[.!]*\s*$`, "i");

/**
 * Fragments the clause splitter cut from the rule before them, each restating it: "orders up to $500, no more",
 * "max 3x, never higher", "not a cent more" after a cap; "only ETH and BTC, nothing more" after a list; "never
 * withdraw, not even once" after a rule. None has a figure, an activity or an asset of its own.
 */
const FRAGMENTS: Array<[RegExp, (k: Constraint) => boolean]> = [
  [new RegExp(CAUTION.source.replace("(?:^|,\\s*|\\s+)", "^\\s*"), "i"), (k) => CAP_KINDS.has(k.kind)],
  [/^\s*(?:and\s+)?(?:never|not|no|nothing|none)\s+(?:(?:a|one|single)\s+(?:cent|penny|dollar|bit|unit)\s+)?(?:more|higher|bigger|larger|greater|above|over|beyond)(?:\s+than\s+(?:that|this|it))?(?:,?\s+(?:ever|at\s+all))?\s*[.!]*\s*$/i, (k) => CAP_KINDS.has(k.kind)],
  [new RegExp(NO_MARGIN_RULE.source.replace("(?:^|,\\s*|\\s+)", "^\\s*"), "i"), () => true],
  // "never sell, not even to take profit": the ban on selling (or closing) already covers every reason to sell.
  [/^\s*(?:and\s+)?not\s+even\s+(?:to|for|when|if|at)\s+(?:(?:take|taking|lock|locking|book|booking|cut|cutting|exit|exiting|close|closing|realis\w*|realiz\w*)\s+)?(?:(?:a|in|some|the|my|our)\s+)?(?:profits?|gains?|losses?|a\s+loss|it|them|out|positions?|stop[- ]loss)?\s*[.!]*\s*$/i, (k) => (k.kind === "side" && k.allowed === "buy") || (k.kind === "position_rule" && k.forbids === "close")],
  [/^\s*(?:and\s+)?nothing\s+(?:more|further)\s*[.!]*\s*$/i, (k) => k.kind === "allow" && (k.values.length > 0 || (k.refs?.length ?? 0) > 0)],
  [new RegExp(String.raw`^\s*(?:and\s+)?${EMPHASIS}\s*[.!]*\s*$`, "i"), (k) => k.kind !== "permit"],
];

/**
 * "Output goes to context.wallet, never anywhere else", "pay context.payees, nobody else": a clause cut from the
 * destination list before it in the sentence that only closes that list again. Read before the negation readers
 * (which would take "anywhere else" as a destination of its own).
 */
const DEST_CLOSER =
  /^\s*(?:and\s+)?(?:(?:(?:never|not)\s+(?:to\s+)?)?any(?:where|one|body)\s+else|no(?:where|body|[\s-]one)\s+else|(?:never|not)\s+(?:to\s+)?any\s+other\s+(?:wallet|address|account|recipient|destination|place)s?)(?:,?\s+(?:ever|at\s+all))?\s*[.!]*\s*$/i;

export const restatesDestinationList = (text: string, earlier: Constraint[]): boolean =>
  DEST_CLOSER.test(text) && earlier.some((k) => k.kind === "allow" && k.dim === "recipient" && (k.values.length > 0 || (k.refs?.length ?? 0) > 0));

/**
 * "no rando memecoins that aren't on the list even if CT is shilling them", "no coins off the list", "no tokens
 * outside the list": a refusal of whatever is not on the asset list, which that list already refuses. Read only when
 * an asset list was stated before it (`earlier`); a concession after it ("even if ...") grants nothing, so it goes
 * with the clause unless it holds a figure, an address or a path.
 */
const OFF_LIST =
  /^\s*(?:and\s+|but\s+|so\s+|also\s+)?(?:no|nothing|never\s+(?:buy|swap\s+(?:in)?to|trade|touch|ape\s+(?:in)?to|hold))\s+(?:(?:random|rando|other|new|shitty|shit|degen|hyped|trending|unknown)\s+)*(?:meme\s*coins?|memecoins?|memes|coins?|tokens?|assets?|shitcoins?|alts?|altcoins?)\s+(?:(?:that|which)\s+)?(?:(?:aren['’]?t|are\s+not|isn['’]?t|is\s+not|not)\s+(?:on|in)|off|outside(?:\s+of)?)\s+(?:the|our|my|this|that)\s+list(?:\s+(?:above|below))?(?:,?\s+(?:even\s+(?:if|when|though)|no\s+matter\s+(?:if|how|who|what)|regardless\s+of)\b[^§\d$%]*)?\s*[.!]*\s*$/i;

export const restatesAssetList = (text: string, earlier: Constraint[]): boolean =>
  OFF_LIST.test(text) && earlier.some((k) => k.kind === "allow" && k.dim === "asset" && (k.values.length > 0 || (k.refs?.length ?? 0) > 0));

/**
 * "If anyone asks to send to a new address the answer is no", "requests to pay an unknown wallet get a no": refusing
 * a destination outside the list, which the list already refuses. Read only when a recipient list binding payments
 * (or every activity) was stated before it; with none, "new" cannot be checked and the sentence stays unread.
 */
const NEW_DEST_REFUSED =
  /^\s*(?:and\s+)?(?:(?:if|when|whenever)\s+(?:anyone|anybody|someone|somebody|a\s+(?:user|message|memo|note|request|vendor|caller)|they|it)\s+(?:asks?|tells?|requests?|wants?|says)\s+(?:(?:you|the\s+agent|the\s+bot|us|me)\s+)?(?:to\s+)?|(?:any\s+)?requests?\s+to\s+)(?:send|pay|transfer|move)\s+(?:(?:funds|money|it|them|anything)\s+)?(?:to\s+)?(?:a|an|some|any)\s+(?:new|unknown|different|unlisted|fresh|random)\s+(?:address|wallet|recipient|account|destination|payee)\s*,?\s*(?:the\s+answer\s+is\s+no|(?:just\s+)?(?:say|answer)\s+no|(?:get|gets)\s+a\s+no|refuse(?:\s+it)?|decline(?:\s+it)?|(?:it['’]?s|that['’]?s)\s+a\s+no)\s*[.!]*\s*$/i;

export const restatesRecipientRefusal = (text: string, earlier: Constraint[]): boolean =>
  NEW_DEST_REFUSED.test(text) &&
  earlier.some(
    (k) => k.kind === "allow" && k.dim === "recipient" && (k.values.length > 0 || (k.refs?.length ?? 0) > 0) && (k.activities.length === 0 || k.activities.some((a) => a === "transfer" || a === "payment")),
  );

/** A clause that only restates a rule of the same sentence before it (`earlier`): consumed whole, so it reads as background. */
export function isRestatementFragment(c: Clause, earlier: Constraint[]): boolean {
  if (isUsed(c, 0, c.text.length)) return false;
  const hit = FRAGMENTS.find(([re, by]) => re.test(c.text) && earlier.some(by));
  if (!hit) return false;
  consume(c, 0, c.text.length);
  return true;
}

/** The word a config key or a label uses for the list it heads ("chains = ethereum, arbitrum", "recipient: context.x"). */
const DIM_WORDS: Array<[RegExp, ListDim]> = [
  [/\b(?:chains?|networks?)\b/gi, "chain"],
  [/\b(?:venues?|exchanges?|protocols?|platforms?)\b/gi, "venue"],
  [/\b(?:recipients?|payees?|destinations?|counterpart(?:y|ies))\b/gi, "recipient"],
  [/\bspenders?\b/gi, "spender"],
  [/\bhosts?\b/gi, "host"],
];

const lists = (ks: Constraint[]): Set<ListDim> =>
  new Set(ks.flatMap((k) => ((k.kind === "allow" || k.kind === "deny") && (k.values.length > 0 || (k.refs?.length ?? 0) > 0) ? [k.dim] : [])));

/** The nearest non-blank, non-punctuation character on one side of [start, end) is part of what a reader consumed. */
function besideRead(c: Clause, start: number, end: number): boolean {
  const near = (i: number, step: number): boolean => {
    while (i >= 0 && i < c.text.length && /[\s,:;()]/.test(c.text[i])) i += step;
    return i >= 0 && i < c.text.length && c.used[i];
  };
  return near(start - 1, -1) || near(end, 1);
}

/**
 * The words that head or close a list the clause produced: its dimension named again ("chains = ethereum, arbitrum"),
 * and an "only" right beside what was read when nothing else is left ("Payees: context.payees only").
 */
function tolerateListWords(c: Clause, ks: Constraint[]): void {
  const dims = lists(ks);
  if (dims.size === 0) return;
  for (const [re, dim] of DIM_WORDS) if (dims.has(dim)) scan(c, re, () => undefined);
  // Only when nothing else is left: beside an ignored word ("USDC only, variable rate") "only" may be what keeps a
  // rule the readers passed over from being allowed unread.
  if (!ks.some((k) => k.kind === "allow") || unexplained(c).some((w) => w.toLowerCase() !== "only")) return;
  scan(c, /\bonly\b/gi, (m) => besideRead(c, m.index, m.index + m[0].length));
}

/**
 * After a clause was parsed: take out the leftovers whose role a produced constraint carries. `produced` are the
 * clause's constraints (indices into `cs`, which may be rewritten: a cap followed by "more with my ok").
 */
export function tolerateLeftovers(c: Clause, cs: Constraint[], produced: number[]): void {
  if (produced.length === 0) return;
  const ks = produced.map((i) => cs[i]).filter(Boolean);
  tolerateListWords(c, ks);
  takeTail(c, NO_MARGIN_RULE);
  const caps = ks.filter((k) => CAP_KINDS.has(k.kind));
  if (caps.length) {
    takeTail(c, CAUTION);
    takeTail(c, LIMIT_RESTATED);
  }
  // A reason can only be dropped beside a prohibition: reading it or not, the action is forbidden the same.
  const r = REASON_TAIL.exec(c.text);
  if (r && inertReason(r[0]) && ks.every((k) => k.kind === "forbid" || k.kind === "deny")) takeTail(c, REASON_TAIL);
}
