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

export const HUMAN_SIGN_RE = new RegExp(
  [
    // "needs a human signer", "requires countersignature by the CFO", "requires co-signature from two stewards", "need my OK first"
    String.raw`\b(?:needs?|requires?|required|must (?:get|have)|should (?:get|have)|needs? to (?:get|have)|has to (?:get|have)|have to (?:get|have))\s+(?:(?:an?|the|my|our|two|2|both|explicit|prior|written|[\w]+['’]s|[\w]+s['’]|committee|board|council|dao|members?|stewards?|cfo|ceo|treasurer|owner|team|finance|compliance|governance|token|holder|multisig)\s+){0,3}${SIGN_NOUN}\b(?:\s+(?:by|from|of)\s+${WHO}\b)?(?:\s+first)?`,
    // "must be countersigned by the CFO", "has to be co-signed by two stewards", "must first be okayed by me"
    String.raw`\b(?:must|should|has to|have to|needs? to|is to|are to)\s+(?:first\s+)?be\s+(?:first\s+)?(?:co-?signed|counter-?signed|signed off|okayed|ok['’]?d|cleared|approved|reviewed)\s+(?:first\s+)?(?:by|with)\s+${WHO}\b`,
    // "four-eyes check before sending", "two-person review", "dual control"
    String.raw`\b(?:a\s+)?(?:four|4)[- ]eyes?(?:\s+(?:check|review|approval|sign[- ]?off|rule|principle|control))?(?:\s+(?:before|prior to)\s+(?:sending|paying|executing|signing|submitting|releasing|it goes out)(?:\s+(?:it|them))?)?|\b(?:a\s+)?(?:two[- ]person|two[- ]man|dual[- ]control|dual[- ]approval|second[- ]pair[- ]of[- ]eyes)(?:\s+(?:check|review|approval|sign[- ]?off|rule|control))?(?:\s+(?:before|prior to)\s+(?:sending|paying|executing|signing|submitting|releasing)(?:\s+(?:it|them))?)?`,
    // "get my OK first", "wait for my go-ahead", "get the owner's sign-off"
    String.raw`\b(?:get|gets|getting|wait for|obtain|obtaining)\s+(?:my|our|the owner['’]s|a human['’]s|explicit|the|a)\s+(?:ok|okay|go-?ahead|green light|sign[- ]?off|approval|yes|blessing|signature|co-?signature|countersignature)\b(?:\s+(?:by|from)\s+${WHO}\b)?(?:\s+first)?`,
  ].join("|"),
  "gi",
);
