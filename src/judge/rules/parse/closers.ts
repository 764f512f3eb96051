/**
 * Clauses that close a list of grants, read by their structure rather than as fixed sentences.
 *
 * An owner who lists what the agent may do usually ends with a clause about *the rest*: "nothing beyond these
 * four", "No other transaction is authorised by this resolution", "Any operation not listed above is prohibited",
 * "don't do other stuff", "anything else it wants to do comes to me first", "Everything not on this list needs my OK
 * first". Each is two parts:
 *  - a residue: what the grants do not cover, said positively ("anything else", "any operation not listed above",
 *    "everything not on this list", "other stuff") or negatively ("nothing else", "no other transaction", "nothing
 *    beyond these");
 *  - a verdict on it: refused ("is prohibited", "don't do", a negative residue standing alone or "is authorised"
 *    after "no other ..."), or sent to a human ("needs my OK", "comes to me first", "ask me").
 * A refused residue closes the permissions (`only_listed`); a referred one leaves what no grant names to a human
 * (`only_listed` with `ask`). Neither names a limit of its own: reading one can only narrow what was granted, and a
 * clause with anything more in it (a figure, an asset, an address, a context path, "except", "unless", "if", "but")
 * is not a closer and stays for the other readers.
 */
import type { Activity } from "../types";
import { consume, type Clause } from "../text";
import { ESCALATE_RE } from "./amounts";
import { add, type ParseState } from "./state";

/** What a grant list leaves out, said positively: "anything else", "any operation not listed above", "other stuff". */
const FAMILY_NOUN = String.raw`(?:(?:outgoing\s+|outbound\s+)?(?:payments?|transfers?|sends?|payouts?|disbursements?|withdrawals?|outflows?)|movements?\s+of\s+(?:funds|money|assets|tokens|coins)|(?:fund|money)\s+movements?|trades?|orders?|bets?|swaps?|approvals?)`;
const NOUN = String.raw`(?:actions?|activit(?:y|ies)|transactions?|operations?|things?|stuff|uses?|moves?|requests?|calls?|kinds?\s+of\s+(?:action|transaction|operation)s?|${FAMILY_NOUN})`;

/**
 * The family of activity a closer names ("every other movement of funds", "any other trade", "no other payments"):
 * the closer then speaks only about that family (checks/scope.ts). A generic noun ("action", "operation", "stuff")
 * or none at all closes every kind of action.
 */
const FAMILIES: Array<[RegExp, Activity[]]> = [
  [/\b(?:payments?|transfers?|sends?|payouts?|disbursements?|withdrawals?|outflows?|movements?\s+of\s+(?:funds|money|assets|tokens|coins)|(?:fund|money)\s+movements?|leaves?|go(?:es)?\s+out|gets?\s+(?:sent|paid)|be\s+(?:sent|moved)|moves?)\b/i, ["transfer", "payment", "withdrawal", "bridge", "internal_transfer"]],
  [/\b(?:trades?|orders?|bets?)\b/i, ["order"]],
  [/\bswaps?\b/i, ["swap"]],
  [/\bapprovals?\b/i, ["approval"]],
];
const GENERIC = /\b(?:actions?|activit(?:y|ies)|transactions?|operations?|things?|stuff|uses?|requests?|calls?|kinds?)\b/i;
export function closerFamily(text: string): Activity[] | undefined {
  if (GENERIC.test(text)) return undefined;
  const hits = FAMILIES.filter(([re]) => re.test(text));
  return hits.length === 1 ? hits[0][1] : undefined;
}
const NOT_LISTED = String.raw`(?:(?:(?:that|which)\s+)?(?:(?:is|are)\s+not|isn['’]t|aren['’]t|not)\s+(?:(?:(?:expressly|explicitly|specifically|clearly)\s+)?(?:listed|mentioned|covered|named|described|permitted|granted|allowed|authori[sz]ed|approved)(?:\s+(?:above|here|below|herein|hereby|in\s+here|in\s+(?:this|the)\s+(?:list|note|document|resolution|policy|mandate|letter|email|message)|(?:by|under)\s+(?:this|these|the)\s+(?:rules|policy|mandate|resolution|letter|document)))?|on\s+(?:this|the|that|my|our)\s+list|in\s+(?:this|the|that)\s+list|above)|(?:that\s+)?(?:I|we)\s+(?:did\s+not|didn['’]t|didnt|have\s+not|haven['’]t|havent|do\s+not|don['’]t)\s+(?:list|mention|name|cover|allow|permit|write\s+down)(?:ed)?(?:\s+(?:above|here|below))?)`;
const POSITIVE_RESIDUE = String.raw`(?:(?:any|every|all|some)thing\s+else|all\s+else|whatever\s+else|(?:for\s+)?(?:all\s+)?the\s+rest|rest|(?:any\s+|all\s+|every\s+)?other\s+${NOUN}|(?:(?:any|every|all)\s+)?(?:other\s+)?${NOUN}\s+${NOT_LISTED}|(?:anything|everything|whatever)\s+${NOT_LISTED})`;
/** Said negatively: "nothing else", "nothing beyond these four", "no other transaction", "nothing more". */
const NEGATIVE_RESIDUE = String.raw`(?:nothing\s+(?:else|more|further|beyond\s+(?:these|those|this|that|them|the\s+above|the\s+list)(?:\s+(?:\d{1,2}|two|three|four|five|six|seven|eight|nine|ten))?(?:\s+${NOUN})?|outside\s+(?:these|those|this|the\s+list|the\s+above))|no\s+other\s+${NOUN})`;
/** Who wants it, between the residue and the verdict: "anything else (it wants to do) comes to me". */
const WANTING = String.raw`(?:\s+(?:that\s+)?(?:it|the\s+(?:agent|bot|key)|you|u|he|she|they)\s+(?:wants?|would\s+like|might\s+want|may\s+want|plans?|needs?)\s+to\s+do)?`;
const REFUSED = String.raw`(?:(?:(?:is|are)\s+)?(?:strictly\s+|expressly\s+|hereby\s+)?(?:prohibited|forbidden|banned|denied|refused|rejected|declined|blocked|off[- ]limits|not\s+(?:allowed|permitted|authori[sz]ed|ok|okay|fine))|(?:must|may|shall|should|can)\s*(?:not|never|n't)\s+(?:be\s+)?(?:done|executed|made|sent|carried\s+out|happen)|(?:is|are)\s+a\s+no|(?:is|are)\s+(?:off\s+the\s+table|out\s+of\s+(?:scope|bounds)|out)|no|nope|no\s+way|never|(?:do\s+not|don['’]t|dont)(?:\s+do\s+(?:it|them|that))?|(?:just\s+)?(?:refuse|reject|decline|block|deny)(?:\s+(?:it|them|that))?|say\s+no)`;
/** Sent to a human, in the words the referral readers know and a few more a residue takes: "comes to me first". */
const TO_ME = String.raw`(?:comes?|goes?|go|come|has\s+to\s+(?:come|go)|must\s+(?:come|go)|should\s+(?:come|go))\s+(?:to|by|through|past)\s+(?:me|us|a\s+human|the\s+owner)|(?:needs?|requires?|wants?|gets?)\s+(?:my|our|a\s+human['’]?s?|the\s+owner['’]?s?)\s+(?:ok|okay|go[- ]ahead|nod|yes|say[- ]so|sign[- ]?off|approval|blessing)|run\s+(?:it\s+)?by\s+me|talk\s+to\s+me|(?:check|clear|confirm)\s+(?:it\s+|that\s+)?with\s+me|ask\s+me|ping\s+me`;
const FIRST = String.raw`(?:\s*,?\s*(?:first|beforehand|before\s+(?:doing|acting\s+on)\s+(?:it|that|anything)|before\s+(?:you\s+)?(?:do|act\s+on)\s+(?:it|that)|please|pls))*`;
const END = String.raw`\s*[.!]*\s*$`;
const LEAD = String.raw`^\s*(?:and\s+|but\s+|so\s+|also\s+|otherwise\s*,?\s*|else\s*,?\s*)*(?:for\s+)?`;

const CLOSED: RegExp[] = [
  // "Any operation not listed above is prohibited", "anything else is off-limits", "other stuff: no".
  new RegExp(String.raw`${LEAD}${POSITIVE_RESIDUE}${WANTING}\s*[:,-]?\s*${REFUSED}${END}`, "i"),
  // "nothing beyond these four", "No other transaction is authorised by this resolution", "nothing else, ever".
  new RegExp(String.raw`${LEAD}${NEGATIVE_RESIDUE}(?:\s+(?:is|are|shall\s+be|will\s+be)\s+(?:permitted|allowed|authori[sz]ed|approved|ok|okay|fine)(?:\s+(?:by|under)\s+(?:this|these|the)\s+[a-z]+)?)?(?:\s*,?\s*(?:ever|at\s+all|either|whatsoever|please|pls))*${END}`, "i"),
  // "don't do other stuff", "do nothing else", "never do anything else".
  new RegExp(String.raw`${LEAD}(?:please\s+)?(?:(?:do\s+not|don['’]t|dont|never|must\s+not|shall\s+not|may\s+not)\s+do\s+(?:anything\s+else|anything\s+${NOT_LISTED}|any\s+other\s+${NOUN}|other\s+${NOUN})|do\s+nothing\s+(?:else|more|further))${END}`, "i"),
  // "only do this stuff", "stick to these and nothing else" (the pointer names the list just written, nothing new).
  new RegExp(String.raw`${LEAD}(?:please\s+)?(?:only|just)\s+(?:do|follow|stick\s+to)\s+(?:this|these|that|those|the\s+above)(?:\s+(?:stuff|things?|rules?|tasks?|list|ones))?(?:\s*,?\s*(?:please|pls|plz|thanks|thx))*${END}`, "i"),
];
const ASK = new RegExp(String.raw`${LEAD}${POSITIVE_RESIDUE}${WANTING}\s*[:,-]?\s*(?:${TO_ME}|(?:please\s+)?(?:${ESCALATE_RE.source}))${FIRST}${END}`, "i");

/** A clause that is only a closer of the grants; read here (and consumed) when it is. */
/** How a clause closes the grants: refused, sent to a human, or not a closer at all; and over which family. */
export function closerOf(raw: string): { ask: boolean; activities?: Activity[] } | null {
  // "Hyperliquid account rules: No other activity is permitted": a heading carried onto the bullet names the list.
  const label = HEADING.exec(raw);
  const text = label && !HEADING_DANGER.test(label[0]) ? raw.slice(label[0].length) : raw;
  const ask = ASK.test(text) || ASK.test(raw);
  if (!ask && !CLOSED.some((re) => re.test(text) || re.test(raw))) return null;
  const activities = closerFamily(text);
  return { ask, ...(activities ? { activities } : {}) };
}

export function readCloser(c: Clause, st: ParseState, rule: string): boolean {
  if (c.used.some(Boolean)) return false;
  const closer = closerOf(c.text);
  if (!closer) return false;
  add(st, { kind: "only_listed", ...(closer.ask ? { ask: true } : {}), ...(closer.activities ? { activities: closer.activities } : {}), rule });
  consume(c, 0, c.text.length);
  return true;
}

/** A heading before the closer: words only, no figure, negation, grant or limit of its own. */
const HEADING = /^\s*[A-Za-z][\w'’ /-]{0,48}:\s*/;
const HEADING_DANGER = /\d|\$|\b(?:only|except|unless|not|no|never|nothing|none|allowed|permitted|forbidden|prohibited|banned|denied|else|other|rest|anything|everything|whatever|max|min|limit|cap|may|can)\b|n['’]t\b/i;
