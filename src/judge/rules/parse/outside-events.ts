/**
 * Sentences about what happens around the agent, not what the agent may do (session 24): "Fills get reviewed at
 * 18:00 UTC by the desk lead", "Ines refreshes the market list every Monday", "payroll runs on the 1st and the
 * 15th", "This mandate is reviewed by the risk committee each quarter and replaces HL-19", "Invoices are approved in
 * Notion before they reach you", "most feeds cost a few cents a call", "Rewards go to our own account", "the workshop
 * runs 12-14 May". Left unread, each held every action of a short mandate for a human.
 *
 * The shape, matched on the whole sentence: a subject that is a person, a team, a process or a thing - never the
 * agent, the owner speaking ("we", "I") or one of the agent's own actions ("payments", "orders", "transfers") - then a
 * present-tense process verb (active or passive), then a tail that only says when, where, how or by whom.
 *
 * Fail-closed invariants: nothing in the sentence may be a modal ("may", "must", "can", "should", "will"), a limiting
 * or conditional word ("only", "never", "no", "not", "except", "unless", "if", "when", "until", "before"), a cap or
 * comparison word, a verb of the agent's own actions ("pay", "send", "trade", ...), a figure with a unit (a date or a
 * time of day is the only number allowed), an address or a context reference. So "the bot trades only on Mondays",
 * "payments go out on the 1st and the 15th only", "Invoices must be approved in Notion before you pay them" and "the
 * desk lead reviews anything over $5k" stay with the rule readers (or unread, escalated). An approval is upstream
 * only when the sentence says so ("before they reach you"); "Invoices are approved by Ana" could be a hold on the
 * agent's payment and stays unread. Reading a sentence here produces nothing: it can only drop words, never grant.
 */

/** The agent, the owner's own voice and the agent's own actions: a sentence about these may be a rule. */
const AGENT_SUBJECT =
  /\b(?:you|your|u|it|its|agent|agents|bot|bots|we|i|us|me|my|this\s+(?:wallet|account|key|safe)|payments?|payouts?|transfers?|orders?|trades?|swaps?|withdrawals?|deposits?|transactions?|txs?|purchases?|bets?|wagers?|spend(?:ing)?|approvals?|bridges?|loans?|borrows?|positions?|leverage|sends?)\b/i;

/** Process verbs a person, team, process or thing does (present tense, active or passive). */
const VERB = String.raw`(?:reviews?|reviewed|process(?:es)?|processed|scheduled|calculated|refresh(?:es)?|refreshed|updates?|updated|checks?|checked|audits?|audited|reconciles?|reconciled|runs?|run|rotates?|rotated|publish(?:es)?|published|resets?|renews?|renewed|meets?|closes?|opens?|starts?|ends?|finish(?:es)?|happens?|takes?\s+place|is\s+held|are\s+held|costs?|charges?|goes|go|lands?|arrives?|syncs?|synced|signs?\s+off|signed\s+off|approves?|approved|authori[sz]ed|voted\s+on|votes?\s+on|replaces?|supersedes?|monitors?|monitored|handles?|handled|prepares?|prepared|compiles?|compiled|collects?|collected|posts?|reports?)`;

const SHAPE = new RegExp(
  String.raw`^\s*(?:(?:also|fyi|note|btw)\b[\s,:]*)?((?:[\w'’-]+\s+){0,5}?)(?:(?:is|are|gets?|get)\s+(?:usually\s+|normally\s+|typically\s+|also\s+)?)?(${VERB})\b(.*)$`,
  "i",
);

/** Approval verbs: upstream only with "before they reach you" (or the like); otherwise possibly a hold on the agent. */
const APPROVAL = /\b(?:approv\w*|authori[sz]\w*|sign(?:s|ed)?\s+off|signed\s+off|okay?ed|cleared|vetted)\b/i;
const UPSTREAM = /\bbefore\s+(?:they|it|each\s+one|an?\s+\w+|the\s+\w+)\s+(?:reach(?:es)?|gets?\s+to|comes?\s+to|lands?\s+(?:with|on\s+the\s+desk\s+of)|is\s+passed\s+to|are\s+passed\s+to)\s+(?:you|the\s+(?:agent|bot))\b/gi;

/** "Rewards go to our own account": a destination is allowed only when it is the owner's own account. */
const OWN_DESTINATION =
  /\b(?:to|into|in)\s+(?:our|the\s+owner['’]s|the\s+company['’]s)\s+(?:own\s+)?(?:main\s+|treasury\s+|cold\s+)?(?:account|wallet|safe|treasury|vault)\b/gi;

/** Dates and times of day: "18:00 UTC", "the 1st and the 15th", "12-14 May", "3 June 2026", "month end". */
const WHEN_NUMBERS = [
  /\b\d{1,2}[:.h]\d{2}\s*(?:utc|gmt|cet|cest|et|est|edt|pt|pst|pdt|bst)?\b/gi,
  /\b\d{1,2}\s*(?:am|pm)\b/gi,
  /\b\d{1,2}(?:st|nd|rd|th)\b/gi,
  /\b\d{1,2}(?:\s*[-–]\s*\d{1,2})?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b(?:\s+\d{4})?/gi,
  /\b(?:jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\s+\d{1,2}(?:\s*[-–]\s*\d{1,2})?(?:st|nd|rd|th)?\b(?:,?\s+\d{4})?/gi,
  /\b20\d{2}\b/g,
  // a document's identifier ("replaces HL-19", "supersedes OPS-4 rev 2")
  /\b[A-Z]{1,6}-\d{1,4}\b(?:\s+rev\s+\d+)?/g,
];

/** Anything that could limit, condition, grant or name an amount. */
const DANGER =
  /\b(?:may|might|must|can|cannot|could|should|shall|will|would|need|needs|needed|has\s+to|have\s+to|only|solely|exclusively|just|never|no|not|none|nothing|nobody|except|unless|without|otherwise|else|other|if|when|whenever|while|until|before|after|unless|pending|wait\w*|first|max\w*|min\w*|at\s+most|at\s+least|up\s+to|limit\w*|cap|caps|capped|budget\w*|ceiling|allow\w*|permit\w*|forbid\w*|prohibit\w*|ban\w*|block\w*|above|below|under|over|beyond|more|less|fewer|exceed\w*|anything|everything|all|any|each\s+(?:payment|order|trade|transfer)|per|pay|pays|paying|paid|send|sends|sent|transfer\w*|withdraw\w*|trade|trades|trading|traded|swap\w*|buy\w*|sell\w*|sold|stake|stakes|staking|bridge\w*|borrow\w*|lend\w*|deposit\w*|spend\w*|spent|bet|bets|betting|escalat\w*|ask|tell|notify|ping|hold|held\s+for)\b|n['’]t\b|[$€£%§#]|0x[0-9a-f]|\bcontext\./i;

export function isOutsideEvent(sentence: string): boolean {
  let t = sentence.trim().replace(/[.!]+$/, "");
  if (!t || t.length > 160 || /[:;?\n]/.test(t.replace(/\b\d{1,2}:\d{2}\b/g, ""))) return false;
  const m = SHAPE.exec(t);
  if (!m) return false;
  const subject = m[1].trim();
  // A subject is needed ("Reviews happen ..." has one); "it", "we", "the bot" and the agent's actions are not others.
  if (!subject || AGENT_SUBJECT.test(subject) || /\d/.test(subject)) return false;
  if (APPROVAL.test(t)) {
    const before = t;
    t = t.replace(UPSTREAM, " ");
    if (t === before) return false;
  }
  // "go/goes/lands" move something: only to the owner's own account.
  if (/^(?:goes|go|lands?|arrives?)$/i.test(m[2])) {
    const before = t;
    t = t.replace(OWN_DESTINATION, " ");
    if (t === before) return false;
  }
  for (const re of WHEN_NUMBERS) t = t.replace(re, " ");
  return !DANGER.test(t) && !/\d/.test(t);
}
