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
import { consume, type Clause } from "../text";
import { ESCALATE_RE } from "./amounts";
import { add, type ParseState } from "./state";

/** What a grant list leaves out, said positively: "anything else", "any operation not listed above", "other stuff". */
const NOUN = String.raw`(?:actions?|activit(?:y|ies)|transactions?|operations?|things?|stuff|uses?|moves?|requests?|calls?|kinds?\s+of\s+(?:action|transaction|operation)s?)`;
const NOT_LISTED = String.raw`(?:(?:that|which)\s+)?(?:(?:is|are)\s+not|isn't|aren't|not)\s+(?:(?:listed|mentioned|covered|named|described|permitted|granted|allowed)(?:\s+(?:above|here|below|in\s+(?:this|the)\s+(?:list|note|document|resolution|policy)))?|on\s+(?:this|the|that|my|our)\s+list|in\s+(?:this|the|that)\s+list|above)`;
const POSITIVE_RESIDUE = String.raw`(?:(?:any|every|all|some)thing\s+else|all\s+else|whatever\s+else|(?:any\s+|all\s+)?other\s+${NOUN}|(?:(?:any|every|all)\s+)?(?:other\s+)?${NOUN}\s+${NOT_LISTED}|(?:anything|everything|whatever)\s+${NOT_LISTED})`;
/** Said negatively: "nothing else", "nothing beyond these four", "no other transaction", "nothing more". */
const NEGATIVE_RESIDUE = String.raw`(?:nothing\s+(?:else|beyond\s+(?:these|those|this|that|them|the\s+above|the\s+list)(?:\s+(?:\d{1,2}|two|three|four|five|six|seven|eight|nine|ten))?(?:\s+${NOUN})?|outside\s+(?:these|those|this|the\s+list|the\s+above))|no\s+other\s+${NOUN})`;
/** Who wants it, between the residue and the verdict: "anything else (it wants to do) comes to me". */
const WANTING = String.raw`(?:\s+(?:that\s+)?(?:it|the\s+(?:agent|bot|key)|you|u|he|she|they)\s+(?:wants?|would\s+like|might\s+want|may\s+want|plans?|needs?)\s+to\s+do)?`;
const REFUSED = String.raw`(?:(?:(?:is|are)\s+)?(?:strictly\s+|expressly\s+|hereby\s+)?(?:prohibited|forbidden|banned|denied|off[- ]limits|not\s+(?:allowed|permitted|authori[sz]ed|ok|okay|fine))|(?:must|may|shall|should|can)\s*(?:not|never|n't)\s+(?:be\s+)?(?:done|executed|made|sent|carried\s+out|happen)|(?:is|are)\s+a\s+no|no)`;
/** Sent to a human, in the words the referral readers know and a few more a residue takes: "comes to me first". */
const TO_ME = String.raw`(?:comes?|goes?|go|come|has\s+to\s+(?:come|go)|must\s+(?:come|go)|should\s+(?:come|go))\s+(?:to|by|through|past)\s+(?:me|us|a\s+human|the\s+owner)|(?:needs?|requires?|wants?|gets?)\s+(?:my|our|a\s+human['’]?s?|the\s+owner['’]?s?)\s+(?:ok|okay|go[- ]ahead|nod|yes|say[- ]so|sign[- ]?off|approval|blessing)|run\s+(?:it\s+)?by\s+me|talk\s+to\s+me`;
const FIRST = String.raw`(?:\s*,?\s*(?:first|beforehand|before\s+(?:doing|acting\s+on)\s+it|please|pls))*`;
const END = String.raw`\s*[.!]*\s*$`;
const LEAD = String.raw`^\s*(?:and\s+|but\s+|so\s+|also\s+|otherwise\s*,?\s*|else\s*,?\s*)*(?:for\s+)?`;

const CLOSED: RegExp[] = [
  // "Any operation not listed above is prohibited", "anything else is off-limits", "other stuff: no".
  new RegExp(String.raw`${LEAD}${POSITIVE_RESIDUE}${WANTING}\s*[:,-]?\s*${REFUSED}${END}`, "i"),
  // "nothing beyond these four", "No other transaction is authorised by this resolution", "nothing else, ever".
  new RegExp(String.raw`${LEAD}${NEGATIVE_RESIDUE}(?:\s+(?:is|are|shall\s+be|will\s+be)\s+(?:permitted|allowed|authori[sz]ed|approved|ok|okay|fine)(?:\s+(?:by|under)\s+(?:this|these|the)\s+[a-z]+)?)?(?:\s*,?\s*(?:ever|at\s+all|either|whatsoever|please|pls))*${END}`, "i"),
  // "don't do other stuff", "do nothing else", "never do anything else".
  new RegExp(String.raw`${LEAD}(?:please\s+)?(?:(?:do\s+not|don't|dont|never|must\s+not|shall\s+not|may\s+not)\s+do\s+(?:anything\s+else|any\s+other\s+${NOUN}|other\s+${NOUN})|do\s+nothing\s+else)${END}`, "i"),
];
const ASK = new RegExp(String.raw`${LEAD}${POSITIVE_RESIDUE}${WANTING}\s*[:,-]?\s*(?:${TO_ME}|(?:please\s+)?(?:${ESCALATE_RE.source}))${FIRST}${END}`, "i");

/** A clause that is only a closer of the grants; read here (and consumed) when it is. */
export function readCloser(c: Clause, st: ParseState, rule: string): boolean {
  if (c.used.some(Boolean)) return false;
  const ask = ASK.test(c.text);
  if (!ask && !CLOSED.some((re) => re.test(c.text))) return false;
  add(st, ask ? { kind: "only_listed", ask: true, rule } : { kind: "only_listed", rule });
  consume(c, 0, c.text.length);
  return true;
}
