/**
 * Activities the owner keeps for themselves: "Selling is my call, not yours", "Leave withdrawals to me", "Dana does
 * all withdrawals herself", "I'll handle the transfers myself", "I decide when to close", "Only I move money off the
 * exchange". Each says the agent may not do it, and is rewritten as the prohibition the negative reader reads
 * ("no selling", "never close").
 *
 * Before this, the same sentences read as background ("I'll withdraw myself") or, worse, as a permission ("Only I
 * move money off the exchange" permitted transfers; "Withdrawals are handled by me personally" let a withdrawal
 * through). A rewrite only ever adds a "no"/"never": what it names is then either read as a forbidden activity or left
 * unread by the negative reader, which escalates. It never drops a figure, a list or an exception: a phrase that
 * carries "except", "unless", "above", "over" or a figure is left as written.
 */
import { asSymbol } from "./parse/state";
import { CHAINS, VENUES } from "./vocab";

/**
 * Who may be keeping the decision: the owner, a named person, a desk, a human. The patterns are case-sensitive so that
 * a name is a capitalised word ("up to Dana"), never "up to you" or "up to date".
 */
const WHO = String.raw`(?:me|myself|us|ourselves|the\s+owner|the\s+desk|the\s+(?:treasurer|cfo|pm|portfolio\s+manager|risk\s+officer|team|ops\s+team)|a\s+human|[A-Z][a-z]+)`;
const WHOSE = String.raw`(?:my|our|the\s+owner['’]s|the\s+desk['’]s|the\s+(?:treasurer|cfo|pm|team)['’]s|a\s+human['’]s|[A-Z][a-z]+['’]s)`;

/** The activity phrase, one to six words, ending before the predicate; no figures or exception words inside. */
const NP = String.raw`((?:(?!(?:except|unless|above|over|under|below|more|less)\b)[A-Za-z][\w'’-]*\s+){0,5}?(?!(?:except|unless|above|over|under|below)\b)[A-Za-z][\w'’-]*)`;

const KEPT = String.raw`(?:(?:entirely|strictly|solely|always|only)\s+)?(?:${WHOSE}\s+(?:call|decision|job|responsibility|business|department|choice)|up\s+to\s+${WHO}|handled\s+by\s+${WHO}(?:\s+personally)?|done\s+by\s+${WHO}(?:\s+personally)?|reserved\s+(?:for|to)\s+${WHO}|for\s+${WHO}\s+to\s+(?:do|decide|handle|make)|${WHO}\s+to\s+decide)`;

const REWRITES: Array<[RegExp, (m: string, ...g: string[]) => string]> = [
  // "Selling is my call, not yours", "withdrawals are handled by me personally", "closing positions is up to me".
  [new RegExp(String.raw`(^|[\n.;:!?]\s*|,\s*|\b(?:and|but)\s+)${NP}\s+(?:is|are|stays?|remains?)\s+${KEPT}(?:\s*,?\s*not\s+(?:yours|the\s+(?:bot|agent)['’]?s?))?\b`, "g"), (_m, lead, np) => `${lead}no ${said(np)}`],
  // "Leave withdrawals to me", "leave the selling to Dana".
  [new RegExp(String.raw`\b(?:[Pp]lease\s+)?[Ll]eav(?:e|ing)\s+(?:all\s+)?(?:the\s+)?${NP}\s+to\s+${WHO}\b`, "g"), (_m, np) => `no ${said(np)}`],
  // "I'll handle the transfers myself", "Dana does all withdrawals herself".
  [new RegExp(String.raw`\b(?:I|we|[A-Z][a-z]+)(?:['’]ll|\s+will)?\s+(?:do|does|handle|handles|make|makes|take\s+care\s+of|takes\s+care\s+of|manage|manages|run|runs)\s+(?:all\s+)?(?:the\s+|any\s+)?${NP}\s+(?:myself|ourselves|himself|herself|themselves|personally)\b`, "g"), (_m, np) => `no ${np}`],
  // "I'll withdraw myself", "I'll sell myself if needed": the verb the owner keeps.
  // A tail saying when the owner does it ("when I need cash") goes with it.
  [/\bI(?:['’]ll|\s+will)?\s+((?:withdraw|sell|close|transfer|send|bridge|unstake|undelegate|borrow|approve)\w*)\s+(?:myself|personally)\b(?:\s+(?:when(?:ever)?|if|as)\s+(?:I|we)\s+(?:need|want)\b[^.;,\n]*)?/gi, (_m, verb) => `never ${verb}`],
  // "I decide when to sell", "the owner decides whether to withdraw".
  [new RegExp(String.raw`\b(?:I|we|${WHO})\s+decides?\s+(?:when|whether|if)\s+to\s+([a-z]+)\b`, "g"), (_m, verb) => `never ${verb}`],
  // "Only I move money off the exchange", "only the owner may withdraw".
  // The subject is a whole word on the same line: "USDC on Base only" then a paragraph opening "If ..." is not "only I".
  // A capitalised word that names a venue, chain or asset is what is permitted, not who: "Only Polymarket orders".
  [new RegExp(String.raw`\b[Oo]nly[ \t]+(I|we|${WHO})\b[ \t]+(?:(?:can|may|get\s+to|am\s+allowed\s+to|is\s+allowed\s+to)\s+)?(?=[a-z])`, "g"), (m, who) => (namesAThing(who) ? m : "never ")],
];

/** A venue, chain or asset name ("Polymarket", "Base", "Solana"): never a person keeping an activity. */
const namesAThing = (word: string): boolean => {
  const w = word.toLowerCase();
  return w in VENUES || w in CHAINS || asSymbol(word) !== null;
};

/** "no sells" reads as a ban on orders; "no selling" as the buy side only. */
const said = (np: string): string => (/^(?:the\s+)?sell(?:s|\s+orders?)?$/i.test(np.trim()) ? "selling" : np);

export function reservedToOwner(s: string): string {
  let out = s;
  for (const [re, to] of REWRITES) out = out.replace(re, (m: string, ...g: unknown[]) => (/\d|[$%]/.test(m) ? m : to(m, ...(g.filter((x) => typeof x === "string" || x === undefined).map((x) => x ?? "") as string[]))));
  return out;
}
