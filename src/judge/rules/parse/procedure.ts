/**
 * Sentences about the mandate rather than rules of it, read as descriptive (session 22, blind36):
 * - a record of how the rules were adopted: "Resolution 9 of the Loomwork DAO (passed 212-14), adopted by on-chain
 *   vote on 4 March (quorum reached, 81% in favour)", "Treasury Rule 4 - adopted by on-chain vote on 12 June";
 * - reporting after the fact: "Aave positions are reported weekly to the finance committee", "Grants above 2,500
 *   STRK are reported to the council after the fact". A report is made after the action ran; it neither holds the
 *   action for anyone nor grants anything, so its subject's figure is no threshold and no cap;
 * - the route for exceptions: "Exceptions require the written sign-off of the Head of Risk". An action the rules do
 *   not allow is already refused (BLOCK) or held; the sentence adds no limit and lifts none;
 * - "If you are unsure whether a payment fits, ask me": the engine already holds what it cannot read.
 *
 * Invariant: each shape is matched on the whole sentence, and a sentence holding any word that could hold an action
 * for someone before it runs ("first", "before", "prior", "until", "for approval", "must", "need", "wait") or that
 * limits or grants ("only", "never", "no", "may", "allowed", "up to", "max") is never one of them, so "Transfers
 * above 2,500 STRK are reported to the council for approval first" stays a rule.
 */
import { CHAINS, VENUES } from "../vocab";
import { asSymbol } from "./state";

/** Words that make a sentence a rule: a hold before the action, a limit, a grant, a negation. */
const RULE_WORDS =
  /\b(?:first|before|beforehand|prior|until|unless|pending|awaiting|wait\w*|approv\w*|confirm\w*|must|shall|should|need\w*|has to|have to|only|never|not|no|none|nothing|except|may|can|cannot|allowed|permitted|forbidden|prohibited|banned|max\w*|min\w*|up to|at most|at least|limit\w*|cap|caps|capped|budget|ceiling|per|each|every|always|if|when|whenever|send|pay|transfer|withdraw|trade|swap|stake|borrow|bridge)\b|n['’]t\b/i;

/** Pieces of a record of adoption: who voted, how, when, with what tally. */
const RECORD_BITS: RegExp[] = [
  // "(passed 212-14)", "(quorum reached, 81% in favour)", "(unanimous)"
  /\(\s*(?:(?:passed|adopted|carried|approved|ratified)\s+\d+\s*[-–:]\s*\d+|quorum\s+(?:reached|met|achieved)|\d{1,3}(?:\.\d+)?\s*%\s+(?:in\s+favou?r|for|yes|approval)|unanimous(?:ly)?|\d+\s+(?:votes?\s+)?(?:for|in\s+favou?r)(?:\s*(?:,|and|to)\s*\d+\s+against)?|\d+\s+against)(?:\s*[,;]\s*(?:quorum\s+(?:reached|met|achieved)|\d{1,3}(?:\.\d+)?\s*%\s+(?:in\s+favou?r|for|yes|approval)|unanimous(?:ly)?|\d+\s+against))*\s*\)/gi,
  // "adopted by on-chain vote on 4 March", "passed by token vote", "ratified at the general meeting of 3 May 2026"
  /\b(?:passed|adopted|ratified|approved|enacted|carried|agreed)\s+(?:by|on|via|through|in|at|with)\s+(?:an?\s+|the\s+)?(?:(?:on-?chain|off-?chain|snapshot|token|member|members['’]?|holder|unanimous|general|annual|extraordinary|council|board|dao)\s+)*(?:vote|votes|ballot|poll|referendum|meeting|assembly|snapshot|governance)\b(?:\s+(?:on|of)\s+(?:\d{1,2}(?:st|nd|rd|th)?\s+[A-Z][a-z]+|[A-Z][a-z]+\s+\d{1,2}(?:st|nd|rd|th)?)(?:,?\s+\d{4})?)?/gi,
  // "passed 212-14", "quorum reached", "81% in favour"
  /\b(?:passed|adopted|carried)\s+\d+\s*[-–:]\s*\d+\b|\bquorum\s+(?:reached|met|achieved)\b|\b\d{1,3}(?:\.\d+)?\s*%\s+in\s+favou?r\b/gi,
];

/** What is left of a record: a document's name ("Resolution 9 of the Loomwork DAO", "Treasury Rule 4"), or nothing. */
const DOC_NAME =
  /^(?:(?:the\s+)?(?:[A-Z][\w-]*\s+){0,3}(?:resolution|rule|proposal|motion|policy|directive|decision|ordinance|bylaw|charter|mandate|instruction|amendment|standard)\s*(?:no\.?\s*|#)?[\dA-Z][\w.-]*(?:\s+(?:of|from|by)\s+(?:the\s+)?[A-Z][\w-]*(?:\s+[A-Z][\w-]*){0,3})?|(?:this|the)\s+(?:resolution|rule|policy|mandate|proposal|motion)(?:\s+(?:was|is))?)?$/i;

function isRecord(s: string): boolean {
  let rest = s;
  let hit = false;
  for (const re of RECORD_BITS)
    rest = rest.replace(re, () => {
      hit = true;
      return " ";
    });
  if (!hit) return false;
  rest = rest.replace(/\s+[-–—]\s+|[,;:.]/g, " ").replace(/\s+/g, " ").trim();
  return DOC_NAME.test(rest) && !RULE_WORDS.test(rest);
}

/** "Aave positions are reported weekly to the finance committee", "grants above 2,500 STRK are disclosed afterwards". */
const REPORT =
  /^[^.;:!?]{1,120}?\b(?:is|are|will\s+be|gets?|get|shall\s+be)\s+(?:also\s+)?(?:reported|disclosed|logged|recorded|published|summari[sz]ed|notified|announced|posted|shared)\b(?:\s+(?:weekly|monthly|daily|quarterly|afterwards|after\s+the\s+fact|retrospectively|in\s+arrears|every\s+(?:week|month|quarter|day)|each\s+(?:week|month|quarter)|once\s+a\s+(?:week|month|quarter)|(?:in|on|to|with)\s+(?:the\s+)?(?:[\w'’-]+\s+){0,3}?(?:committee|council|board|team|finance|dao|members|forum|report|sheet|channel|treasurer|cfo|owner|stewards?|governance|me|us)))*\s*[.!]?$/i;

/** "Exceptions require the written sign-off of the Head of Risk", "Any exception needs board approval". */
const EXCEPTION_ROUTE =
  /^(?:any\s+|all\s+)?(?:exceptions?|deviations?|departures?|waivers?|overrides?)(?:\s+(?:to|from)\s+(?:this|these|the)\s+(?:rules?|policy|limits?|mandate|letter))?\s+(?:require|requires|need|needs|are\s+subject\s+to|is\s+subject\s+to|must\s+have|must\s+be\s+approved\s+by|must\s+be\s+signed\s+off\s+by|go\s+(?:to|through))\b[^.;!?]{1,90}[.!]?$/i;

/**
 * "If you are unsure whether a payment fits, ask me", "When in doubt, check with Dana", "if unsure - ask". Only a doubt
 * about the rules themselves: a doubt about a new criterion ("whether a wallet belongs to us") states that criterion,
 * and stays with the readers that hold it (referrals).
 */
const ASK_IF_UNSURE =
  /^(?:if|when|whenever)\s+(?:(?:you(?:['’]re|\s+are)?|u\s+r|ur|it(?:['’]s|\s+is)|you\s+feel)\s+)?(?:unsure|not\s+sure|uncertain|in\s+doubt|unclear|doubtful)(?:\s+(?:whether|if)\s+(?:a|an|the|this|that|some|any)?\s*(?:payment|order|trade|transfer|action|request|purchase|bet|swap|transaction|it|something|anything)\s+(?:fits|is\s+(?:allowed|ok|okay|fine|covered|permitted|in\s+scope|within\s+(?:the|these)\s+(?:rules|limits))|qualifies|is\s+covered))?\s*(?:,|-|–|then)?\s*(?:just\s+|please\s+)?(?:ask|check\s+with|ping|email|message|call|consult)\s+(?:me|us|the\s+owner|[\w'’-]+(?:\s+[\w'’-]+){0,2})\s*(?:first)?\s*[.!]?$/i;

export function isProcedure(s: string): boolean {
  const t = s.trim();
  if (isRecord(t)) return true;
  if (ASK_IF_UNSURE.test(t)) return true;
  if (EXCEPTION_ROUTE.test(t)) return true;
  // A report restricts nothing only when nothing else in the sentence could hold or limit the action.
  // The tail after the verb is fixed by REPORT (a period, "after the fact", to whom); the subject is checked here.
  const verb = /\b(?:is|are|will\s+be|gets?|shall\s+be)\s+(?:also\s+)?(?:reported|disclosed|logged|recorded|published|summari[sz]ed|notified|announced|posted|shared)\b/i.exec(t);
  return REPORT.test(t) && verb !== null && !RULE_WORDS.test(t.slice(0, verb.index));
}

/**
 * A lead-in to the rules: "On behalf of the X family office you are authorised to manage the office's Aave v3
 * position on Ethereum within these limits:", "Finance has asked us to put proper limits in place, so from today
 * the agent must follow these rules:", "After Thursday's call, here is the agreed scope for the treasury agent".
 * The sentence points at what follows; it is read as a label (its venue and chain narrow the scope, parse/index.ts),
 * never as a permission. Only when, once the pointer is taken out, nothing in it could limit or grant: no negation,
 * only/except, figure, token, address, context path, cap or comparison word, condition or activity verb other than
 * "manage"/"run"/"operate".
 */
const POINTER: RegExp[] = [
  // "... within these limits:", "... must follow these rules:", "... as follows:", "... the following rules:"
  /(?:,?\s*(?:so\s+)?(?:from\s+(?:today|now\s+on|this\s+date)\s*,?\s+)?(?:the\s+agent|you|it|the\s+bot|we)\s+(?:must|shall|should|will|are\s+to|is\s+to|need\s+to|have\s+to|has\s+to)\s+(?:follow|observe|respect|obey|stick\s+to|comply\s+with|work\s+(?:within|under))|\s+(?:within|under|subject\s+to|according\s+to|on|with)|\s+(?:is|are)(?:\s+as\s+follows)?)?\s+(?:these|the\s+following|the\s+limits\s+below|the\s+rules\s+below)(?:\s+(?:rules|limits|terms|conditions|restrictions|guardrails|constraints|parameters|settings|guidelines|instructions|boundaries))?\s*:\s*$/i,
  /\s+as\s+follows\s*:\s*$/i,
  // "x402 budget, uptime-monitor bot:": a heading naming the budget or rules of something, over the lines that state
  // them (a period word in it, "weekly budget:", is danger: the lines under it would lose their period)
  /(?<=^(?:[\w'’-]+\s+){0,3})(?:budget|limits|rules|scope|policy|settings|guardrails|mandate)(?:\s*,\s*[\w'’ -]{1,40})?\s*:\s*$/i,
  // "here is the agreed scope for the treasury agent", "here are the new rules for the bot:"
  /(?:^|,\s*)here\s+(?:is|are)\s+(?:the|our|your)\s+(?:(?:agreed|new|updated|revised|final|current)\s+)?(?:scope|rules|limits|mandate|policy|setup|terms|guardrails|boundaries)(?:\s+for\s+(?:the\s+|our\s+|my\s+)?[\w -]{1,40}?)?\s*[.:]?\s*$/i,
];
const LEAD_IN_DANGER =
  /\b(?:never|not|no|none|nothing|only|just|solely|exclusively|except|unless|max\w*|min\w*|cap|caps|budget|up\s+to|at\s+most|at\s+least|above|below|under|over|more|less|if|when|unless|until|before|may|can|cannot|allowed|permitted|forbidden|prohibited|banned|send|pay|transfer|withdraw|trade|swap|stake|borrow|lend|bridge|approve|buy|sell|spend|only|daily|weekly|monthly|yearly|annual\w*|day|days|week|weeks|month|months|year|years|total\w*|per|each|every)\b|n['’]t\b|\$|%|§[a-z]\d|\d/i;

export function isLeadIn(s: string): boolean {
  const t = s.trim();
  for (const re of POINTER) {
    const m = re.exec(t);
    if (!m) continue;
    const rest = t
      .slice(0, m.index)
      // "After Thursday's call, ...", "Per the ops review, ...": where the rules come from (never "Per day, ...")
      .replace(/^(?:after|following|further\s+to|(?:as\s+)?per|as\s+agreed\s+(?:on|in|at))\s+([^,]{1,40})(?:,\s*|$)/i, (m: string, what: string) =>
        /\b(?:day|week|month|year|quarter|order|trade|transfer|payment|request|call|tx|transaction)s?\b/i.test(what) && !/\b(?:call|meeting|review|chat|discussion)\b/i.test(what) ? m : " ")
      .replace(/\b(?:authori[sz]ed|empowered|appointed|engaged|instructed)\s+to\s+(?:manage|run|operate|look\s+after|handle)\b/gi, " ")
      // "on behalf of the X family office", "put proper limits in place": who speaks and why, no rule
      // "Aave v3": a protocol's version, not a quantity; "x402" is a payment rail
      .replace(/\bv\d+(?:\.\d+)*\b|\bx402\b/gi, " ")
      .replace(/\b(?:put|set|have)\s+(?:proper\s+|clear\s+|some\s+|formal\s+)?(?:limits|rules|guardrails|controls)\s+in\s+place\b/gi, " ");
    const words = rest.split(/\s+/).map((w) => w.replace(/[^\w.]/g, ""));
    return !LEAD_IN_DANGER.test(rest) && !words.some((w) => asSymbol(w) !== null && !(w.toLowerCase() in VENUES) && !(w.toLowerCase() in CHAINS));
  }
  return false;
}
