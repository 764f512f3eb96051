/**
 * Sentences that describe instead of limiting, recognised by their form rather than their words:
 *
 * - history and habit: "Last month we spent about $2k on data", "Over the past year we have mostly traded BTC",
 *   "The team tends to keep tickets small", "Larkspur was founded in 2019", "notes: mostly trades SOL";
 * - purpose: "..., so that hedges go on quickly when the spot book moves";
 * - section headings: "Limits.", "Background", "Risk limits:";
 * - statements about the document: "Everything else in this document is background and does not change the
 *   limits above".
 *
 * Each is read only when it carries no word that could state a rule (RULE_WORD): "We usually cap orders at
 * $500" or "Historically we never withdrew" stay with the rule readers, and are escalated if unread. A
 * descriptive clause produces no constraint and grants nothing, so reading one too eagerly can only drop words
 * that were not a rule.
 */

const RULE_WORD =
  /\b(?:only|solely|exclusively|never|no|not|none|nothing|nobody|except|unless|without|max(?:imum)?|min(?:imum)?|at most|at least|up to|must|shall|should|may|can|cannot|will|always|allowed|permitted|forbidden|prohibited|banned|disallowed|restricted|blocked|limit(?:s|ed)?|cap(?:s|ped)?|budget|ceiling|require[sd]?|requirement|needs?|approv\w*|sign[- ]?off|escalat\w*|exceed\w*|above|below|under|beyond|more than|less than|fewer than|if|until|per)\b|n['’]t\b|§[aqhcn]\d/i;

/** A past time, a habit or a history: what the owner did or usually does. */
const HISTORY =
  /\b(?:usually|mostly|typically|normally|generally|often|mainly|primarily|largely|historically|previously|traditionally|occasionally|sometimes|rarely|tends?\s+to|used\s+to|in\s+the\s+past|so\s+far|to\s+date|(?:last|past|previous)\s+(?:week|month|quarter|year|season|time|night|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|over\s+the\s+(?:past|last)\s+(?:\w+\s+)?(?:days?|weeks?|months?|quarters?|years?)|(?:\d+|a|two|three|few|several)\s+(?:days?|weeks?|months?|years?)\s+ago|(?:was|were)\s+(?:founded|set up|started|created|launched|established|built|formed)|(?:that|which|it)\s+(?:was|were))\b/i;

/** The words "over the past year" use are not the cap word "over". */
const HISTORY_OVER = /\bover\s+the\s+(?:past|last)\b/gi;

export function isNarrative(text: string): boolean {
  if (!HISTORY.test(text)) return false;
  return !RULE_WORD.test(text.replace(HISTORY_OVER, " "));
}

/** "so that hedges go on quickly", "in order to settle invoices": a purpose, not a condition. */
export function isPurpose(text: string): boolean {
  return /^\s*(?:so\s+that|so\s+as\s+to|in\s+order\s+(?:to|that))\b/i.test(text) && !RULE_WORD.test(text);
}

const HEADING_WORDS = new Set(
  (
    "background purpose context overview summary scope definitions definition notes note limits limit rules rule restrictions " +
    "constraints controls requirements guidelines policy mandate details general introduction why what how risk trading spending " +
    "payment payments operational operations governing law miscellaneous other and of the key agent agents terms conditions " +
    "schedule section article annex appendix exhibit part chapter objective objectives goals goal instructions permissions"
  ).split(" "),
);

/**
 * "Limits.", "Risk limits:", "Terms and conditions": a heading with nothing after it. Only headings whose words
 * would otherwise read as a limit are taken here; "Trading bot" stays a label that says what the agent does.
 */
export function isHeading(text: string): boolean {
  const words = text.replace(/[:.\s]+$/, "").trim().split(/\s+/);
  return (
    words.length > 0 && words.length <= 5 && words.every((w) => HEADING_WORDS.has(w.toLowerCase())) &&
    words.some((w) => /^(?:limits?|restrictions|constraints|requirements|controls|permissions|conditions)$/i.test(w))
  );
}

/** "Everything else in this document is background (and does not change the limits above)". */
const META =
  /^\s*(?:and\s+)?(?:everything|anything|all|the\s+rest)\s+(?:else\s+)?(?:in|of)\s+(?:this|the)\s+(?:document|memo|note|text|policy|mandate|brief|file|page)\s+(?:is|are)\s+(?:just\s+|only\s+|purely\s+)?(?:background|context|informational|for\s+information|for\s+context)\b(?:\s+(?:for|to)\s+(?:the|this)\s+(?:agent|bot|reader))?\s*$|^\s*(?:and\s+)?(?:it\s+|this\s+|that\s+)?(?:does|do)\s+not\s+(?:change|alter|override|affect|modify|replace|relax|loosen)\s+(?:the|any|these|those)\s+(?:limits|rules|restrictions|constraints)(?:\s+(?:above|below|here|stated|set out))?\s*$/i;

export const isMeta = (text: string): boolean => META.test(text);
