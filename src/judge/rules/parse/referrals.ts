/**
 * Referrals: the owner sends a decision to a human (ESCALATE_RE knows the phrases, human.ts), in shapes the
 * threshold readers of amounts.ts do not see, and says that some things need nobody.
 *
 * - A band: "Between 500 and 2000 USDC you must ask me", "$40-150 ask me first". A human decides from the band's
 *   lower end (inclusive); above the band nothing permits the action either, so it is held too (a hard cap written
 *   elsewhere still blocks it).
 * - The line below a referral: "Until 500 USDC you can pay direct" is a cap, and when a human takes over at the
 *   same figure (a band or "above 500 ask me") the cap is that line, not a refusal (settleReferrals).
 * - "No need to ask": "cancels are always OK, no need to ask me", "repaying never needs anyone's sign-off". It is
 *   read as background only when every activity it names is permitted by another rule; it never permits anything
 *   itself, and when nothing else permits what it names, it stays a question for a human.
 * - Doubt: "if anything's off, ping me", "when in doubt, ask". The engine already holds what it cannot establish,
 *   so a vague doubt adds nothing; a doubt about something named ("if you're not sure whether an address is one of
 *   ours") is read only when the rules check that thing (a recipient list, a market category, an asset list).
 * - A list restated as a referral: "If the supplier is not in the list, don't pay, send it to me for check": the
 *   recipient list already refuses it; with no such list the sentence is a question.
 * - "Anything these rules don't cover: escalate to #defi-ops": an action no rule permits is held, not refused.
 * - "never alone" after a referral belongs to it.
 */
import type { Activity, Constraint, ListDim } from "../types";
import { consume, parseNumber, scan, type Clause } from "../text";
import { impliedActivities } from "../checks/scope";
import { ESCALATE_RE, namedScope } from "./amounts";
import { add, asSymbol, uniq, type ParseState } from "./state";

const ESC = `(?:${ESCALATE_RE.source})`;
const NUM = String.raw`\d[\d,]*(?:\.\d+)?`;

// ---- bands and the line below a referral ----

const BAND = new RegExp(
  String.raw`(?:\b(?:between|from)\s+(\$)?(${NUM})\s*(k)?(?:\s*(?!(?:and|to|up|or|through|until|till)\b)(usd|usdc|usdt|dollars?|bucks|[A-Z]{2,6})(?=\s+(?:and|to|up|through|until|till)\b))?\s*(?:and|to|up\s+to|through|until|till|-)\s*(\$)?(${NUM})\s*(k)?|(\$)(${NUM})\s*(k)?\s*-\s*(\$)?(${NUM})\s*(k)?|^\s*(\$)?(${NUM})\s*(k)?\s*(?:to|-|–)\s*(\$)?(${NUM})\s*(k)?)(?:\s*(usd|usdc|usdt|dollars?|bucks|[A-Za-z]{2,6})\b)?`,
  "gi",
);
const UNTIL = new RegExp(String.raw`\b(?:up\s+)?(?:until|till|til)\s+(\$)?(${NUM})\s*(k)?(?:\s*(usd|usdc|usdt|dollars?|bucks|[A-Za-z]{2,6})\b)?`, "gi");

function unitOf(dollar: string | undefined, word: string | undefined, st: ParseState): string | null {
  if (dollar) return "USD";
  if (!word) return st.stableOnly ? "USD" : null;
  if (/^(?:usd|dollars?|bucks)$/i.test(word)) return "USD";
  return asSymbol(word);
}

/** "Between 500 and 2000 USDC you must ask me", "$40-150 ask me first": a human from the lower end. */
export function parseReferralBand(c: Clause, st: ParseState, rule: string): void {
  const esc = new RegExp(ESC, "i").exec(c.text);
  if (esc && !c.used[esc.index]) {
    let read = false;
    scan(c, BAND, (m) => {
      // A bare "25 to 75 text me first" opens its clause: the band is its subject ("150 to 600 STRK: wait for my OK").
      // "from 1 dollar up to 10 dollars": the low end may carry its own unit word (group 4); a token named on the
      // low end and another on the high end is no band of one unit.
      if (m[4] && m[20] && unitOf(undefined, m[4], st) !== unitOf(undefined, m[20], st)) return false;
      const unit = unitOf(m[1] ?? m[5] ?? m[8] ?? m[11] ?? m[14] ?? m[17], m[20] ?? m[4], st) ?? st.bareUnit ?? null;
      const low = parseNumber(m[2] ?? m[9] ?? m[15], m[3] ?? m[10] ?? m[16]);
      const high = parseNumber(m[6] ?? m[12] ?? m[18], m[7] ?? m[13] ?? m[19]);
      if (!unit || low === null || high === null || !(low < high)) return false;
      add(st, { kind: "escalate_above", limit: { value: low, unit }, scope: namedScope(c.text), inclusive: true, rule });
      read = true;
    });
    if (read) {
      consume(c, esc.index, esc.index + esc[0].length);
      scan(c, /\b(?:if|when|whenever|for|anything|any(?:thing)?\s+in\s+between)\b/gi, () => undefined);
    }
  }
  // "Until 500 USDC you can pay direct": a cap; settleReferrals makes it the line when a human takes over there.
  scan(c, UNTIL, (m) => {
    const unit = unitOf(m[1], m[4], st);
    const v = parseNumber(m[2], m[3]);
    if (!unit || v === null) return false;
    add(st, { kind: "cap", limit: { value: v, unit }, period: "action", scope: namedScope(c.text), strict: false, rule });
  });
}

// ---- "no need to ask" ----

export const NO_ASK = new RegExp(
  [
    String.raw`\b(?:there\s+is\s+|there['’]s\s+)?no\s+need\s+(?:to\s+)?(?:ask|check(?:\s+(?:with|w\/?))?|ping|confirm(?:\s+with)?)(?:\s+(?:me|us|anyone|anybody|first))*`,
    String.raw`\b(?:is|it['’]s|it\s+is)\s+not\s+(?:necessary|needed|required)\s+(?:to\s+)?(?:ask|check\s+(?:with|w\/?)|ping|confirm\s+with)(?:\s+(?:me|us|anyone|anybody|first))*`,
    String.raw`\b(?:(?:you|u|it|the\s+(?:bot|agent))\s+)?(?:don['’]t|do\s+not|doesn['’]t|does\s+not|won['’]t|will\s+not|never)\s+(?:ever\s+)?(?:need|needs|have|has)\s+to\s+(?:ask|check\s+(?:with|w\/?)|ping|confirm\s+with|get\s+(?:approval|sign[- ]?off|permission))(?:\s+(?:me|us|anyone|anybody|the\s+owner|first|for\s+(?:it|them|those|these|that)))*`,
    String.raw`\b(?:never|don['’]t|do\s+not|doesn['’]t|does\s+not|won['’]t|will\s+not)\s+(?:ever\s+)?(?:needs?|requires?)\s+(?:(?:anyone['’]s|anybody['’]s|someone['’]s|my|our|a|an|any|the\s+owner['’]s|human|manual|explicit)\s+)*(?:sign[- ]?off|approval|ok|okay|permission|go-?ahead|confirmation|review|countersignature|signature|(?:second\s+|another\s+)?(?:co-?|counter-?)?signers?|co-?signatures?|human)`,
    String.raw`\b(?:no|without)\s+(?:sign[- ]?off|approval|permission|ok|confirmation|review)\s+(?:is\s+)?(?:needed|required|necessary)`,
  ].join("|"),
  "gi",
);
const PERMISSIVE_FILLER = /\b(?:(?:is|are)\s+)?always\s+(?:ok|okay|fine|allowed)\b|\bjust\s+do\s+(?:it|them|em|'em|so)\b|\bgo\s+ahead\b|\bfeel\s+free\b|\b(?:are|is)\s+(?:fine|ok|okay)\b/gi;
/** What a "no need to ask" clause may name, and the activity each is. */
const NAMED: Array<[RegExp, Activity[]]> = [
  [/\bcancel\w*(?:\s+orders?)?/gi, ["cancel"]],
  // "Revoking an allowance (setting it to zero) never needs a co-signer": a revoke is an approval of nothing.
  [/\brevok\w*(?:\s+(?:an?|the|any|all|our)\s+(?:allowances?|approvals?))?(?:\s*\(\s*(?:i\.e\.\s*|that is,?\s*)?(?:setting|set|reducing|lowering|cutting)\s+(?:it|them|the\s+\w+)\s+(?:back\s+)?to\s+(?:0|zero)\s*\))?/gi, ["approval"]],
  [/\brepay\w*(?:\s+(?:the\s+)?(?:debt|loans?))?/gi, ["repay"]],
  [/\b(?:reduce[- ]only\s+)?(?:clos(?:es|e|ing)|exits?|reductions?|reducing)\b(?:\s+(?:positions?|orders?|trades?)\b)?|\breduce[- ]only\s+(?:orders?|sells?)/gi, ["order"]],
  [/\bwithdraw\w*/gi, ["withdrawal"]],
  [/\b(?:deposit\w*|suppl(?:y|ies|ying))\b/gi, ["supply"]],
  [/\bswap\w*/gi, ["swap"]],
  [/\b(?:orders?|trades?|trading)\b/gi, ["order"]],
];
/** A narrowing word: the clause is more than "no need to ask", so it is left to the other readers. */
const NARROWING = /\d|(?<!reduce[- ])\b(?:only|except|unless|but|if|when|above|over|below|under|until|max(?:imum)?|up to|more|less|never\s+(?!needs?|requires?)|context)\b/i;

/** "cancels + reduce-only closes u don't need to ask me, just do em": nothing for a human; grants nothing. */
export function parseNoAsk(c: Clause, st: ParseState, rule: string): boolean {
  const m = new RegExp(NO_ASK.source, "i").exec(c.text);
  // A revoke's gloss "(setting it to zero)" names no figure to narrow by.
  const rest = (c.text.slice(0, m?.index ?? 0) + " " + c.text.slice(m ? m.index + m[0].length : 0)).replace(/\(\s*(?:i\.e\.\s*|that is,?\s*)?(?:setting|set|reducing|lowering|cutting)\s+(?:it|them|the\s+\w+)\s+(?:back\s+)?to\s+(?:0|zero)\s*\)/gi, " ");
  if (!m || NARROWING.test(rest)) return false;
  const saved = c.used.slice();
  const acts: Activity[] = [];
  for (const [re, a] of NAMED) scan(c, re, () => void acts.push(...a));
  if (acts.length === 0) {
    c.used = saved;
    return false;
  }
  consume(c, m.index, m.index + m[0].length);
  scan(c, PERMISSIVE_FILLER, () => undefined);
  st.referrals.push({ rule, needs: { activities: uniq(acts) } });
  return true;
}

// ---- doubt ----

const DOUBT_WHO = String.raw`(?:(?:you|u)(?:['’]re|\s+are|\s+r)|ur|i['’]m|we['’]re|it['’]s|it\s+is|things?\s+(?:are|is|looks?|seems?)|anything(?:['’]s|\s+is|\s+looks?|\s+seems?)?|something(?:['’]s|\s+is|\s+looks?|\s+seems?)?|stuff\s+(?:looks?|seems?|is))`;
const DOUBT_WHAT = String.raw`(?:not\s+(?:sure|clear|certain|obvious)|unsure|unclear|uncertain|in\s+(?:any\s+)?doubt|doubtful|(?:a\s+(?:bit|little)\s+)?(?:off|weird|odd|strange|fishy|suspicious|wrong|unusual|sketchy|shady))`;
const DOUBT = String.raw`(?:if|when|whenever|in\s+case)\s+(?:${DOUBT_WHO}\s+)?${DOUBT_WHAT}(?:\s+(?:about|whether|if|that)\s+([^,.;]{1,100}?))?`;
const DOUBT_CLAUSE = new RegExp(String.raw`^\s*(?:and\s+|but\s+|also\s+)?(?:(?:please\s+)?${ESC}\s+${DOUBT}|${DOUBT}\s*,?\s*(?:then\s+)?(?:please\s+)?${ESC})\s*[.!]?\s*$`, "i");

/** Which list a doubt's subject is about; null when it names something the rules could not be checking. */
function doubtDim(subject: string): ListDim[] | null {
  if (/\b(?:address(?:es)?|recipients?|payees?|wallets?|vendors?|suppliers?|counterpart(?:y|ies)|destinations?|ours|our\s+own|belongs?\s+to\s+us|contractors?|freelancers?|grantees?)\b/i.test(subject)) return ["recipient"];
  if (/\b(?:markets?|elections?|categor(?:y|ies)|events?|questions?)\b/i.test(subject)) return ["topic", "market"];
  if (/\b(?:tokens?|assets?|coins?|mints?)\b/i.test(subject)) return ["asset"];
  return null;
}

/** "If something looks weird, ping me", "If you're not sure whether an address is one of ours, ask Lena first". */
export function parseDoubt(c: Clause, st: ParseState, rule: string): boolean {
  const m = DOUBT_CLAUSE.exec(c.text);
  if (!m) return false;
  const subject = m.slice(1).find((g) => g !== undefined && !/^\s*$/.test(g));
  if (subject !== undefined) {
    const dims = doubtDim(subject);
    if (!dims) return false;
    st.referrals.push({ rule, needs: { dims } });
  }
  consume(c, 0, c.text.length);
  return true;
}

// ---- sentences: a list restated as a referral, "anything not covered: escalate" ----

const PAYEE_NOUN = String.raw`(?:supplier|vendor|payee|recipient|address|wallet|contractor|freelancer|counterparty|grantee|destination|receiver)s?`;
const REFUSE = String.raw`(?:(?:do\s+)?not|don['’]t|never)\s+(?:pay|send)(?:\s+(?:it|them|anything))?`;
const LIST_REFERRAL = new RegExp(
  String.raw`^\s*(?:and\s+)?(?:if|when|whenever|should|in\s+case)\s+(?:the|a|an|any|some)\s+${PAYEE_NOUN}\s+(?:is|are)(?:n['’]t|\s+not)\s+(?:in|on|part\s+of)\s+(?:the|that|this|our|my)\s+(?:\w+\s+)?(?:list|registry|allowlist|whitelist|book)\b\s*,?\s*(?:then\s+)?(?:${REFUSE}(?:\s*[,;]?\s*(?:and\s+|but\s+)?(?:please\s+)?${ESC})?|(?:please\s+)?${ESC})\s*[.!]?\s*$`,
  "i",
);
const NOT_COVERED = String.raw`(?:(?:that\s+)?(?:these|the|this|our|my)\s+(?:rules?|policy|note|list|doc(?:ument)?|guidelines?)\s+(?:don['’]t|doesn['’]t|do\s+not|does\s+not)\s+(?:cover|mention|address)|(?:that\s+)?(?:is\s+|are\s+)?not\s+(?:covered|listed|mentioned|addressed)(?:\s+(?:here|above|below|by\s+(?:these|the|this)\s+(?:rules?|policy)))?|(?:that\s+)?(?:isn['’]t|aren['’]t)\s+(?:covered|listed|mentioned)(?:\s+(?:here|above|below))?|outside\s+(?:of\s+)?(?:these|this|the)\s+(?:rules?|policy|list))`;
const ASK_OTHERWISE = new RegExp(
  String.raw`^\s*(?:and\s+)?(?:for\s+)?(?:anything|everything|whatever|any\s+(?:action|case|situation|request|thing))\s+${NOT_COVERED}\s*[:,-]?\s*(?:please\s+|just\s+)?${ESC}\s*[.!]?\s*$`,
  "i",
);

/** A whole sentence that is a referral about the rules themselves; true when it was read here. */
export function readReferralSentence(s: string, rule: string, st: ParseState): boolean {
  if (ASK_OTHERWISE.test(s)) {
    add(st, { kind: "only_listed", ask: true, rule });
    st.readings.push({ clause: rule, reading: "constraint", constraints: [st.constraints.length - 1], ignored: [], unread: [] });
    return true;
  }
  if (LIST_REFERRAL.test(s)) {
    st.referrals.push({ rule, needs: { dims: ["recipient"] } });
    st.readings.push({ clause: rule, reading: "descriptive", constraints: [], ignored: [], unread: [] });
    return true;
  }
  return false;
}

/**
 * "If a payment is over 3,000 USDC, don't send it: put it in front of me": the refusal only says what the referral
 * does (the agent holds it for a human), it bans nothing. Read as a prohibition it had refused every payment.
 * The refusal is dropped only when a referral follows it directly, so the sentence is read as a human line.
 */
const HELD_REFUSAL = new RegExp(
  String.raw`(,\s*|;\s*|:\s*|\s+[-–]\s+|^\s*)(?:but\s+|then\s+|and\s+)?(?:don['’]?t|do\s+not|never)\s+(?:send|pay|execute|place|submit|sign|release|process|do|make)\s+(?:it|them|that|this|those|the\s+\w+)(?:\s+(?:yet|straight\s+away|right\s+away|directly))?\s*(?:[:;,-]|\s+(?:and|but|just|instead|rather))\s*(?=(?:and\s+|then\s+|but\s+)?(?:please\s+|instead\s+|rather\s+|just\s+)?(?:${ESC}))`,
  "gi",
);
export function withoutHeldRefusal(s: string): string {
  return new RegExp(ESC, "i").test(s) ? s.replace(HELD_REFUSAL, (_m, pre: string) => (/[-–]/.test(pre) ? ", " : pre)) : s;
}

/** ", never alone" after "needs the approval of the board": part of the referral. */
export function isReferralTail(text: string, sentence: string): boolean {
  return /^\s*(?:and\s+|but\s+)?(?:never|not)\s+(?:alone|on\s+(?:its|your|their|his|her)\s+own|by\s+(?:itself|yourself|themselves))\s*[.!]?\s*$/i.test(text) && new RegExp(ESC, "i").test(sentence);
}

// ---- after the whole intent is read ----

const PERMISSIVE_RULE = /\b(?:can|may|fine|ok|okay|direct(?:ly)?|freely|go ahead|just)\b/i;
const STRICT_RULE = /\b(?:max(?:imum)?|never|not|no|at most|cap(?:ped)?|limit(?:ed)?|must|shall|ceiling)\b|n['’]t\b/i;

/**
 * Once every rule is known: a permissive cap at a human's line becomes that line; a "no need to ask" naming an
 * activity nothing else permits, and a doubt or restated list about a list the rules do not check, are questions.
 */
export function settleReferrals(st: ParseState): void {
  const lines = st.constraints.filter((k): k is Extract<Constraint, { kind: "escalate_above" }> => k.kind === "escalate_above");
  st.constraints.forEach((k, i) => {
    if (k.kind !== "cap" || k.period !== "action" || k.limitOf || !PERMISSIVE_RULE.test(k.rule) || STRICT_RULE.test(k.rule)) return;
    const line = lines.find((e) => e.limit.unit === k.limit.unit && e.limit.value === k.limit.value);
    if (line) st.constraints[i] = { kind: "escalate_above", limit: k.limit, scope: k.scope, inclusive: false, rule: k.rule };
  });
  const permitted = new Set<Activity>([...st.constraints.flatMap((k) => (k.kind === "permit" ? k.activities : [])), ...impliedActivities(st.constraints)]);
  if (permitted.has("order")) permitted.add("cancel");
  for (const r of st.referrals) {
    const missing = r.needs.activities
      ? r.needs.activities.filter((a) => !permitted.has(a))
      : (r.needs.dims ?? []).some((d) => st.constraints.some((k) => (k.kind === "allow" || k.kind === "deny") && k.dim === d && (k.values.length > 0 || (k.refs?.length ?? 0) > 0) || (k.kind === "host_payee" && d === "recipient")))
        ? []
        : ["list"];
    if (missing.length === 0) continue;
    const question = `Not understood: "${r.rule}" (${r.needs.activities ? "no other rule permits what it names" : "the rules check no such list"}).`;
    st.unknown.push(question);
    const at = st.readings.findIndex((x) => x.clause === r.rule || r.rule.startsWith(x.clause) || x.clause.startsWith(r.rule.replace(/…$/, "")));
    if (at >= 0) st.readings[at] = { ...st.readings[at], reading: "not understood", unread: [...st.readings[at].unread, ...missing], question };
  }
}
