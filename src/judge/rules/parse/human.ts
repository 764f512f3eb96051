/**
 * The many ways an owner says "a human decides this one": a signer, a signature, a co-signature or countersignature,
 * a four-eyes check, a vote, "my OK", "the go-ahead". These extend ESCALATE_RE (amounts.ts), so every reader that
 * knows a human-approval phrase (thresholds, "X needs sign-off", leverage bands) knows these too.
 *
 * Invariant: every alternative names a person or a signing act; none of them can read as a permission or a limit
 * on its own, so a match only ever turns a rule into ESCALATE, never into ALLOW.
 */

/** Who signs or approves: a person, a role or a body, possibly counted ("two stewards", "both founders"). */
const WHO = String.raw`(?:(?:the|a|an|my|our|two|2|three|3|both|all|any|one|another|a second|second)\s+)?(?:[\w'’-]+\s+){0,2}?(?:human|humans|person|people|owner|owners|me|us|cfo|ceo|cto|coo|treasurer|stewards?|signers?|signatories|committee|council|board|manager|managers|admin|operator|founders?|approvers?|team|risk officer|compliance|multisig|members?|directors?|officer|officers|controller|finance)`;

/** The signing act as a noun: "signer", "co-signature", "countersignature", "sign-off", "vote", "go-ahead", "OK". */
const SIGN_NOUN = String.raw`(?:human\s+|second\s+|manual\s+|extra\s+|another\s+)?(?:co-?signers?|counter-?signers?|signers?|co-?signatures?|counter-?signatures?|signatures?|co-?sign(?:ing)?|counter-?sign(?:ing)?|sign[- ]?offs?|votes?|go-?ahead|green light|blessing|ok|okay)`;

/** Where the signer signs: "a second signer on the Safe", "a co-signer in the multisig". */
const WHERE = String.raw`(?:\s+(?:on|of|in|from)\s+(?:the\s+|our\s+)?(?:safe|multisig|multi-sig|wallet|vault|account|treasury)\b)`;

export const HUMAN_SIGN_RE = new RegExp(
  [
    // "needs a human signer", "requires countersignature by the CFO", "requires co-signature from two stewards", "need my OK first"
    String.raw`\b(?:needs?|requires?|required|must (?:get|have)|should (?:get|have)|needs? to (?:get|have)|has to (?:get|have)|have to (?:get|have))\s+(?:(?:an?|the|my|our|two|2|both|explicit|prior|written|[\w]+['’]s|[\w]+s['’]|committee|board|council|dao|members?|stewards?|cfo|ceo|treasurer|owner|team|finance|compliance|governance|token|holder|multisig)\s+){0,3}${SIGN_NOUN}\b(?:\s+(?:by|from|of)\s+${WHO}\b)?${WHERE}?(?:\s+first)?`,
    // "a human approves first", "needs a human", "needs_human_over" (a config key): the human is the one who decides
    String.raw`\b(?:an?\s+|the\s+)?(?:human|person|operator|owner)\s+(?:approves|signs\s+off|okays|oks|confirms|decides|reviews|checks)(?:\s+(?:it|them|this|that))?(?:\s+first)?\b`,
    // "a human must approve it before", "the owner has to OK it first", "one of us should sign off on it": the
    // human is the subject of a duty to approve; the verb is theirs, never the agent's token approval
    String.raw`\b(?:(?:an?|the)\s+(?:(?:real|actual)\s+)?(?:human|person|operator|owner|signer|approver|reviewer)|one of us|someone|somebody)\s+(?:must|should|shall|will|has to|have to|needs? to|is to|ought to)\s+(?:first\s+)?(?:approve|sign\s+off(?:\s+on)?|ok|okay|confirm|review|check|see|clear|countersign|co-?sign)(?:\s+(?:it|them|this|that|each\s+one))?(?:\s+(?:first|before(?=\s*(?:$|[.;,)!]))))?\b|\bneeds?\s+(?:an?\s+)?human\b(?!\s+to\b)(?:\s+(?:review|approval|sign[- ]?off|ok|okay))?`,
    // "I want to see it first", "we'd like to review those beforehand": the owner decides before it runs
    String.raw`\b(?:i|we)\s*(?:['’]d\s+|\s+would\s+|\s+)(?:want|like|need|wish|prefer)\s+to\s+(?:see|review|check|approve|okay|ok|sign\s+off\s+on|look\s+at|vet|clear)\s+(?:it|them|this|that|those|these|each\s+one|anything|everything|any\s+(?:order|payment|transfer|trade|bet|swap)s?)\b(?:\s+(?:first|beforehand|in\s+advance|before\s+(?:it|they)\s+(?:goes|go|is|are)\s+(?:out|sent|placed)))?`,
    // "anything over $1.50 I want to see before it pays", "above that i wanna check first": the object is the
    // figure the clause opened with, so the verb may stand alone before "first" / "before ..."
    String.raw`\b(?:i|we)\s*(?:['’]d\s+|\s+would\s+|\s+)(?:want|like|need|wish|prefer)\s+to\s+(?:see|review|check|approve|okay|ok|sign\s+off|look|vet|clear)(?=\s+(?:first|beforehand|in\s+advance|before|prior\s+to)\b)`,
    // "must be countersigned by the CFO", "has to be co-signed by two stewards", "must first be okayed by me"
    String.raw`\b(?:must|should|shall|will|has to|have to|needs? to|is to|are to)\s+(?:first\s+)?be\s+(?:first\s+)?(?:co-?signed|counter-?signed|signed off|okayed|ok['’]?d|cleared|approved|reviewed)\s+(?:first\s+)?(?:by|with)\s+${WHO}\b`,
    // "four-eyes check before sending", "two-person review", "dual control"
    String.raw`\b(?:a\s+)?(?:four|4)[- ]eyes?(?:\s+(?:check|review|approval|sign[- ]?off|rule|principle|control))?(?:\s+(?:before|prior to)\s+(?:sending|paying|executing|signing|submitting|releasing|it goes out)(?:\s+(?:it|them))?)?|\b(?:a\s+)?(?:two[- ]person|two[- ]man|dual[- ]control|dual[- ]approval|second[- ]pair[- ]of[- ]eyes)(?:\s+(?:check|review|approval|sign[- ]?off|rule|control))?(?:\s+(?:before|prior to)\s+(?:sending|paying|executing|signing|submitting|releasing)(?:\s+(?:it|them))?)?`,
    // "supplies above 150k USDT: CFO sign-off first", "orders > $5k -> human approval required": a config line's
    // value is the approval itself; "first" / "required" after it says a person gives it (an approval shape such as
    // "approvals: exact only" has neither)
    // (text.ts has already written an arrow "->" as "to").
    String.raw`(?:[:→]|->|\bto\b)\s*(?:(?:a|an|the|my|our)\s+)?(?:[\w'’-]+\s+){0,2}?(?:sign[- ]?off|approval|ok|okay|go-?ahead|review|confirmation|countersignature|co-?signature)\s+(?:first|required|needed|beforehand|mandatory|in\s+advance)\b`,
    // "get my OK first", "wait for my go-ahead", "get the owner's sign-off"
    String.raw`\b(?:get|gets|getting|wait for|obtain|obtaining)\s+(?:my|our|the owner['’]s|a human['’]s|explicit|the|a)\s+(?:ok|okay|go-?ahead|green light|sign[- ]?off|approval|yes|blessing|signature|co-?signature|countersignature)\b(?:\s+(?:by|from)\s+${WHO}\b)?(?:\s+first)?`,
  ].join("|"),
  "gi",
);

/**
 * A referral: the decision is sent to someone else. Who receives it: "me", a role ("the duty risk officer", "the
 * Head of Trading", "the multisig signers", "the board"), a channel ("#hedge-desk", "on-call") or a first name
 * (a first name, "ask Lena first", is rewritten to "the owner" in spelling.ts, where case can be told). A role ends in one of these head nouns; a wallet ("the treasury") is never one, so "send it to the
 * treasury" stays a transfer.
 */
const ROLE = String.raw`(?:humans?|persons?|people|owners?|cfo|ceo|cto|coo|cio|treasurer|stewards?|signers?|signatories|committee|council|board|managers?|admins?|administrators?|operators?|founders?|approvers?|reviewers?|team|desk|officers?|compliance|multisig|multi-sig|members?|directors?|controller|finance|head|lead|supervisors?|on-?call|ops|traders?|legal|accounting|channel|group|chat|boss|partners?|custodian|guardian|me|us|myself)`;
const TARGET = String.raw`(?:me|us|myself|ourselves|someone|somebody|on-?call|#[\w-]+|(?:(?:the|a|an|our|my|your|two|2|three|3|both|all|any|one|another|a second|their)\s+)?(?:[\w'’-]+\s+){0,3}?${ROLE}(?:\s+${ROLE}\b)*(?:\s+of\s+[A-Za-z-]+(?:\s+[A-Za-z-]+)?)?)\b`;
/** What the referral asks for: "for approval", "for manual approval", "for check", "for a sign-off". */
const PURPOSE = String.raw`(?:a\s+|an\s+|the\s+|their\s+|his\s+|her\s+)?(?:(?:manual|written|explicit|prior|final|human|formal|second)\s+)?(?:approval|review|sign[- ]?off|check(?:ing)?|confirmation|decision|go-?ahead|ok|okay|countersignature|signature|vote|consideration|authori[sz]ation|verification|clearance|blessing)`;
const WAIT_FOR = String.raw`(?:a|an|the|my|our|their|his|her|explicit|written)?\s*(?:(?:[\w'’-]+\s+){0,2}?[\w'’-]+['’]s\s+)?(?:thumbs[- ]?up|ok|okay|go-?ahead|approval|sign[- ]?off|confirmation|green light|yes|reply|answer|response|countersignature|signature|decision)`;

export const REFERRAL_RE = new RegExp(
  [
    // "must be referred to the duty risk officer", "are to be submitted to the multisig signers for manual approval"
    // (the auxiliary before it, "must be", "are to be", is left to the general reader, as for any rule)
    String.raw`\b(?:first\s+)?(?:referred|submitted|escalated|routed)\s+(?:up\s+|over\s+)?(?:to|before)\s+${TARGET}(?:\s+for\s+${PURPOSE})?`,
    // "send it to me for check", "pass it to the desk for review", "escalate to #defi-ops", "refer it to the CFO"
    String.raw`\b(?:send|sending|sent|pass|passed|forward|forwarded|bring|brought|take|taken|hand|handed|put)\s+(?:(?:it|them|this|that|these|those)\s+)?(?:over\s+|up\s+)?to\s+${TARGET}\s+for\s+${PURPOSE}`,
    String.raw`\b(?:refer|submit|escalate|route)\s+(?:(?:it|them|this|that|these|those)\s+)?(?:up\s+)?to\s+${TARGET}(?:\s+for\s+${PURPOSE})?`,
    // "ask Lena before sending", "ask to me before paying", "stop and page on-call", "checking w me", "run it by the desk"
    String.raw`(?<!\b(?:per|each|every|a|one|any|the)\s)\b(?:(?:stop|pause|halt)\s+and\s+)?(?:ask(?:ing)?|ping(?:ing)?|pag(?:e|ing)|text(?:ing)?|call(?:ing)?|message|messaging|dm|notify(?:ing)?|alert(?:ing)?|consult(?:ing)?|email(?:ing)?|contact(?:ing)?|check(?:ing)?\s+(?:in\s+)?(?:with|w\/?)|run\s+(?:it|this|that|them)\s+(?:by|past)|clear\s+(?:it|this|that|them)\s+with|confirm(?:ing)?\s+with|talk(?:ing)?\s+to)\s+(?:to\s+)?${TARGET}(?=\s*(?:$|[,.;:)!]|first|before|prior|and\b|if\b|when\b|whenever\b|for\b|about\b))`,
    // "post in #treasury and wait for a thumbs-up"
    String.raw`\b(?:post|drop|raise|flag|open)\s+(?:it\s+|a\s+(?:message|request|ticket|note)\s+)?(?:in|on|to|into)\s+(?:the\s+)?(?:#[\w-]+|[\w-]+\s+(?:channel|chat|group|thread))(?:\s+channel)?\s+(?:and\s+)?wait\b(?:\s+for\s+${WAIT_FOR})?`,
    // "wait for a thumbs-up", "wait for the desk's OK", "a swap over $60k waits for the desk lead's OK"
    String.raw`\bwait(?:s|ing)?\s+for\s+${WAIT_FOR}(?:\s+(?:from|by|of)\s+${TARGET})?`,
    // "needs the approval of the board", "requires the written sign-off of the Head of Risk", "need the risk desk's sign-off"
    String.raw`\b(?:needs?|requires?|required|subject to|must (?:have|get|obtain)|only with)\s+(?:(?:the|a|an|prior|written|explicit|manual|formal)\s+)*(?:approval|sign[- ]?off|consent|authori[sz]ation|agreement|ok|okay|say-?so|blessing|countersignature|signature)\s+(?:of|from|by)\s+${TARGET}`,
    String.raw`\b(?:needs?|requires?|subject to|must (?:have|get|obtain)|only with)\s+(?:the\s+|a\s+)?(?:[\w-]+\s+){0,3}?[\w-]+(?:['’]s|s['’])\s+(?:(?:written|explicit|prior|formal)\s+)?(?:approval|sign[- ]?off|consent|ok|okay|go-?ahead|signature|countersignature|blessing|review)`,
    // "Transfers above 2,500 STRK need the council first", "requires the board beforehand": the body itself, then the action
    String.raw`\b(?:needs?|requires?)\s+${TARGET}\s+(?:first|beforehand|in\s+advance|up\s+front)\b`,
    // "require council approval", "needs board consent", "subject to committee review": a role's approval as one noun
    String.raw`\b(?:needs?|requires?|required|subject to)\s+(?:(?:a|an|the|prior|written|explicit|formal)\s+)*(?:[\w'’-]+\s+){0,2}?${ROLE}\s+(?:approval|sign[- ]?off|consent|ok|okay|go-?ahead|vote|authori[sz]ation|review|clearance)\b`,
    // "requires dual approval", "multisig sign-off", "2-of-3 signatures"
    String.raw`\b(?:(?:needs?|requires?|required|subject to|under|with)\s+)?(?:(?:a|an)\s+)?(?:dual|double|two-person|multi-?sig|multisignature|\d-of-\d|two-key|joint)\s+(?:approval|sign[- ]?off|signatures?|authori[sz]ation|control|signing)`,
    // "only after the risk desk has signed off", "not until the CFO approves"
    String.raw`\b(?:only\s+(?:after|once|when|if)|not\s+(?:before|until)|until)\s+${TARGET}\s+(?:(?:has|have|had)\s+)?(?:signed off|signs off|approved|approves|agreed|agrees|confirmed|confirms|okayed|okays|ok['’]?d|said yes|says yes|co-?signed|co-?signs|counter-?signed|counter-?signs|cleared|clears|reviewed|reviews|authori[sz]ed|authori[sz]es|given (?:the |their |a |an )?(?:ok|okay|go-?ahead|approval|sign[- ]?off))(?:\s+(?:on\s+)?(?:it|them|this|that))?`,
    // "the desk lead decides", "the CFO approves it", "have a human sign off", "get ops to approve it first"
    String.raw`\b(?:the|a|an|my|our)\s+(?:[\w'’-]+\s+){0,2}?${ROLE}\s+(?:decides|approves|signs\s+off|okays|oks|confirms|reviews)(?:\s+(?:on\s+)?(?:it|them|this|that))?\b|\b(?:(?:pause|stop|halt)\s+and\s+)?(?:have|get|let)\s+${TARGET}\s+(?:to\s+)?(?:sign\s+off|approve|review|check|confirm|ok|okay)(?:\s+(?:on\s+)?(?:it|them|this|that))?`,
    // "put it in front of me", "bring it to the treasurer", "leave it to ops", "let me decide": the decision is theirs
    String.raw`\b(?:put|place|lay|bring|take|leave|pass)\s+(?:(?:it|them|this|that|these|those)\s+)?(?:in\s+front\s+of|before|to|with|over\s+to)\s+${TARGET}(?:\s*\([^()]{1,40}\))?(?:\s+(?:and|so)\s+(?:i|we|they|he|she)\s*(?:['’]ll|\s+will|\s+can|\s+get\s+to)\s+decide)?|\blet\s+${TARGET}\s+decide\b`,
    // "hold it for the risk desk", "hold for a human"
    String.raw`\bhold\s+(?:(?:it|them|this|that)\s+)?(?:for|until)\s+${TARGET}`,
  ].join("|"),
  "gi",
);

/**
 * What may follow a referral and belongs to it: "first", "before it is sent", "prior to execution", "and wait",
 * "never alone". Read only right after a referral phrase, so these words never limit anything on their own.
 */
export const REFERRAL_TAIL = String.raw`(?:\s*,?\s*(?:first|beforehand|in advance|up front|each time|every time|please|(?:(?:and|n|&|then)\s+)?wait(?:\s+for\s+(?:an?\s+|the\s+|my\s+|our\s+)?(?:yes|reply|answer|ok|okay|go-?ahead|thumbs[- ]?up|response|confirmation))?|never alone|not alone|never on (?:its|your|their) own|(?:before|prior to|ahead of)\s+(?:(?:it|they|this|that|anything|any\s+\w+|the\s+\w+|you|we|i|u)\s+)?(?:(?:is|are|gets?|goes|go|get|can\s+be|be)\s+)?(?:sent|paid|executed|submitted|placed|signed|released|broadcast|acting|sending|paying|executing|submitting|placing|signing|releasing|moving|going out|goes out|doing (?:it|so|anything)|submission|execution|execute|send|pay|act|proceeding|proceed|doing|trading|swapping|transferring|withdrawing|borrowing|payment|transfer|sending|pays|sends|executes|trades|places|signs|submits|releases|acts|moves|goes|buys|bets|swaps|borrows|withdraws)(?:\s+(?:it|them|anything|this|that|out))?)\b){0,3}`;

/** Names that are venues, chains or sentence words, never a person asked. */
const NOT_A_NAME = /^(?:Jupiter|Uniswap|Aave|Hyperliquid|Polymarket|Chainlink|Pyth|Coinbase|Binance|Kraken|Base|Solana|Starknet|Ethereum|Arbitrum|Optimism|Polygon|The|Any|All|Each|Every|Only|Never|Before|First|Orders?|Trades?|Payments?)$/;

/**
 * "ask Lena first", "check with Marco before sending", "ping Sam": a first name after a referral verb is a person,
 * rewritten to "the owner" so the referral readers see it. Case matters here (a capitalised word only), which the
 * case-insensitive readers cannot tell.
 */
export function nameReferrals(s: string): string {
  return s.replace(
    /\b([Aa]sk|[Pp]ing|[Pp]age|[Tt]ext|[Mm]essage|DM|[Dd]m|[Nn]otify|[Cc]onsult|[Ee]mail|[Cc]heck(?:ing)? (?:in )?with|[Rr]un (?:it|this|that|them) (?:by|past)|[Tt]alk to|[Cc]lear (?:it|this|that) with|[Cc]onfirm with)\s+([A-Z][a-z]{2,})\b(?=\s*(?:$|[,.;:)!]|first\b|before\b|prior\b|and\b|if\b|when\b|for\b|about\b))/g,
    (m, verb: string, name: string) => (NOT_A_NAME.test(name) ? m : `${verb} the owner`),
  );
}
