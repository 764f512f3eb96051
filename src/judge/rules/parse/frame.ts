/**
 * The frame around a mandate: the lines an owner writes before the first rule and after the last one. A heading
 * naming the event and the chain ("Travel stipends: Lagos meetup speakers - Arbitrum One (42161)"), a trip notice
 * ("off to the andes for ~3 weeks so the bot has my HL account till I'm back"), a subject line, a greeting, "so here
 * it is:", "please read all of this before you do anything", who the instructions come from ("given on behalf of
 * Halden Row LLP in respect of its Hyperliquid sub-account"), a sign-off with a name and a date.
 *
 * What makes a line a frame is its place and its shape together, not a list of phrasings:
 * - place: it belongs to the run of lines that opens the intent or the run that closes it (a line of the same shape
 *   between two rules stays with the rule readers);
 * - shape: it carries no operator a rule is made of. No negation, no "only" / "except", no comparison or cap word, no
 *   condition, no modal that grants or requires, no verb that moves value or trades, no token, no amount (a figure is
 *   allowed only as a duration, a date, a chain id, a round or an identifier), no address and no context path.
 * And the intent must hold at least one line that is not frame: a frame frames rules, it never replaces them.
 *
 * A frame line is read as a label: the venue and chain it names narrow the scope (the wallet lives on Arbitrum, so a
 * payment on Ethereum is outside it), and every other word is a name. What it cannot do is hold an action back
 * (its proper names, durations and "while I'm away" are not limits) or scope the assets (it names none).
 * A frame that names a payee group ("... speakers") while no rule lists the recipients is settled in parse/index.ts:
 * the group is then unread, as a purpose's would be.
 */
import { KNOWN_TOKENS } from "../vocab";
import type { ParseState } from "./state";
import { withoutIdentifiers } from "./fragments";
import { closerOf } from "./closers";

/** An owner's absence is when the mandate runs, not a condition on an action: "while I'm away", "till I'm back". */
const ABSENCE =
  /\b(?:while|whilst|when|till|til|until)\s+(?:(?:i|we)\s*['’]?\s*(?:m|re|am|are|ll\s+be)|im|i\s+am|we\s+are)\s+(?:back|away|gone|off|out|offline|abroad|travel+ing|on\s+(?:leave|holiday|vacation|the\s+road|a\s+trip|parental\s+leave|sabbatical))\b|\b(?:while|whilst|till|til|until)\s+(?:i|we)\s+(?:return|get\s+back|come\s+back|travel|am\s+travel+ing)\b/gi;

/** An instruction to read the rules: "please go through all of this before you do anything", "read this first". */
const READ_FIRST =
  /\b(?:please\s+)?(?:read|go\s+through|review|look\s+(?:at|over)|take\s+note\s+of|note)\s+(?:all\s+(?:of\s+)?)?(?:this|these|the\s+following|what\s+follows|everything\s+below|the\s+(?:rules|notes|lines)\s+below)(?:\s+(?:carefully|first|properly|closely))?(?:\s+before\s+(?:you\s+)?(?:do(?:ing)?|act(?:ing)?|start(?:ing)?|touch(?:ing)?|run(?:ning)?)(?:\s+(?:anything|something))?)?/gi;

/** "what the bot may do on my account": the subject line's question, not a grant. */
const WHAT_IT_DOES = /\bwhat\s+(?:the\s+)?(?:bot|agent|it|you)\s+(?:may|can|will|should|is\s+allowed\s+to)\s+do\b|\blook(?:s|ing)?\s+after\b/gi;

/** Figures that are not quantities in a frame: durations, chain ids in parentheses, rounds, words with digits in them. */
const NOT_A_QUANTITY = [
  /~?\b\d+(?:\s*-\s*\d+)?\s*(?:days?|weeks?|wks?|months?|mos?|hours?|hrs?|years?|yrs?)\b/gi,
  /\(\s*(?:chain\s*(?:id)?\s*[:=]?\s*)?\d{1,7}\s*\)/gi,
  /\b(?:round|phase|season|cohort|batch|wave|edition|stage|vol(?:ume)?|no\.?|#)\s*\d{1,4}\b/gi,
  /\b[A-Za-z][A-Za-z-]*\d[\w-]*/g,
];

/** Chains whose names start with a token's symbol: "OP Mainnet", "BNB Chain", "Arbitrum One". */
const CHAIN_NAMES = /\b(?:op\s+mainnet|bnb\s+(?:smart\s+)?chain|arbitrum\s+one|eth(?:ereum)?\s+mainnet|avalanche\s+c-chain)\b/gi;

/** Operators a rule is made of; any one keeps the line with the rule readers. */
const OPERATOR =
  /\b(?:only|solely|exclusively|just|never|no|not|none|nothing|nobody|nowhere|except|unless|without|else|other|any|anything|anyone|everything|max(?:imum)?|min(?:imum)?|most|least|up\s+to|limit\w*|cap|caps|capped|budget|ceiling|above|below|under|over|more|less|fewer|exceed\w*|per|each|every|allow\w*|permit\w*|forbid\w*|prohibit\w*|ban|bans|banned|must|shall|should|may|can|cannot|could|would|require\w*|need\w*|approv\w*|sign[- ]?off|ask|ping|check|confirm|if|when|whenever|before|after|once|as\s+long|provided|keep|stay|stick|avoid|hold|leave|touch|restrict\w*|use|uses|using|via|through|instead|always|rules?|back|into|goes|go|going|comes|come|returned|lands?|whatever|exists?|purpose|used|for\s+\w+ing|is\s+for|are\s+for|exact\w*|in\s+charge\s+of\s+\w+ing|all|that['’]?s\s+it|that\s+is\s+it|isolated|iso|isol|cross|margin|reduce|post[- ]only|maker|taker|alo|gtc|ioc|fok|gtd|tif|slippage|slip|bps|lev|notional|twap|trigger|stop|tp|sl|mode|side|sides|yes|no)\b|n['’]t\b|[$%€£]/i;

/** Verbs that move value or trade: a line with one is a grant or a purpose, read by the rule readers. */
const VALUE_VERB =
  /\b(?:pay|pays|paid|paying|send\w*|sent|transfer\w*|trad(?:e|es|ed|ing)|buy\w*|bought|sell\w*|sold|swap\w*|stak(?:e|es|ed|ing)|unstak\w*|delegat\w*|withdraw\w*|bridg\w*|borrow\w*|lend\w*|supply\w*|deposit\w*|mov(?:e|es|ed|ing)|open\w*|clos(?:e|es|ed|ing)|long|longs|short\w*|wrap\w*|unwrap\w*|mint\w*|redeem\w*|bet|bets|betting|spend\w*|spent|invest\w*|hedg\w*|rebalanc\w*|loop\w*|farm\w*|provid\w*|orders?|leverage|perps?|spot|tops?\s+up|top-?ups?|positions?|settl\w*|disburs\w*|fund(?:s|ed|ing)?|tip(?:s|ping)?|usd\s*coin|tether|ether|bitcoin|stablecoins?|tokens?|coins?|assets?|markets?|collateral)\b/i;

/**
 * Marks that open a rule without being part of it: a postscript ("PS", "P.S.", "pps") and the operative formula of a
 * resolution ("IT IS FURTHER RESOLVED that", "BE IT RESOLVED that", "RESOLVED, that"). Read as words they became a
 * token symbol ("PS" an asset list of one, "RESOLVED" a token in the supply list).
 */
export const FRAME_MARK =
  /^\s*(?:p\.?\s?p?\.?\s?s\b\.?\s*[:,-]?|(?:(?:now,?\s+)?(?:therefore,?\s+)?(?:it\s+is|be\s+it)\s+)?(?:further\s+)?resolved(?:\s+further)?\s*[:,]?\s*(?:that\b)?)/i;

/** A group of payees a frame may name ("conference speakers", "community grants"): only a list says who is in it. */
export const PAYEE_GROUP =
  /\b(?:vendors?|suppliers?|contributors?|payees?|employees?|merchants?|creditors?|beneficiar(?:y|ies)|contractors?|freelancers?|grantees?|speakers?|winners?|moderators?|translators?|designers?|volunteers?|ambassadors?|recipients?|staff|payroll|salar(?:y|ies)|stipends?|bount(?:y|ies)|prizes?|grants?|payouts?|invoices?|reimbursements?)\b/i;

/** "Read this before acting", "IMPORTANT - please go through all of this first": about reading the rules, anywhere. */
export const isReadFirst = (sentence: string): boolean =>
  READ_FIRST.test(sentence) && /^[\s,.:!-]*(?:(?:important|note|nb|please|carefully|first|all|now|kindly)[\s,.:!-]*)*$/i.test(sentence.replace(READ_FIRST, " "));

/** Does this sentence (protected text) have the shape of a frame line? */
export function isFrameShaped(sentence: string): boolean {
  if (/§[aqhcn]\d|\bcontext\.\w|0x[0-9a-f]{6}/i.test(sentence)) return false;
  // "rest: denied" closes the list above it (closers.ts): a rule, whatever its place.
  if (closerOf(sentence)) return false;
  let t = withoutIdentifiers(sentence).replace(ABSENCE, " ").replace(READ_FIRST, " ").replace(WHAT_IT_DOES, " ").replace(CHAIN_NAMES, " chain ");
  for (const re of NOT_A_QUANTITY) t = t.replace(re, " ");
  if (/\d/.test(t)) return false;
  if ((t.match(/[A-Za-z][\w'’-]*/g) ?? []).some((w) => KNOWN_TOKENS.has(w.toLowerCase()))) return false;
  // A proper name of two or more capitalised words ("Halden Row Partners LLP", "the Investment Management
  // Agreement") names a party or a document; its words are not verbs.
  t = t.replace(/\b[A-Z][\w'’&-]*(?:\s+[A-Z][\w'’&-]*)+/g, (m, at: number) => (at === 0 || /[:,(-]\s*$/.test(t.slice(0, at)) ? m : " "));
  return !OPERATOR.test(t) && !VALUE_VERB.test(t);
}

/**
 * Indices of the sentences that open or close the intent as its frame: the leading and trailing runs of frame-shaped
 * sentences. Empty when every sentence is frame-shaped (nothing is framed) or none is at either end.
 */
export function frameSentences(sentences: readonly string[]): Set<number> {
  const shaped = sentences.map(isFrameShaped);
  const out = new Set<number>();
  if (shaped.every(Boolean)) return out;
  for (let i = 0; i < shaped.length && shaped[i]; i++) out.add(i);
  for (let i = shaped.length - 1; i >= 0 && shaped[i]; i--) out.add(i);
  return out;
}

/**
 * A frame that names who gets paid ("... speakers", "grants, round 3") names a group only a list can define: when the
 * intent may pay out and lists no recipients anywhere, the frame line is not understood (its group would otherwise
 * be a name, and any payee would pass).
 */
export function settleFramePayees(st: ParseState, lines: readonly number[]): void {
  const permitted = st.constraints.flatMap((k) => (k.kind === "permit" ? k.activities : []));
  const paysOut = permitted.length === 0 || permitted.some((a) => a === "transfer" || a === "payment");
  if (!paysOut || st.constraints.some((k) => k.kind === "beneficiary" || (k.kind === "allow" && (k.dim === "recipient" || k.dim === "spender")))) return;
  for (const i of lines) {
    const question = `Not understood: "${st.readings[i].clause}" (who belongs to the group it names is not listed).`;
    st.unknown.push(question);
    st.readings[i] = { ...st.readings[i], reading: "not understood", unread: [st.readings[i].clause], question };
  }
}
