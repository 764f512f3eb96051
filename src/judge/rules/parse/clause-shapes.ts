/**
 * Shapes of whole clauses the clause reader (index.ts) tells apart before any recogniser runs: what the owner says
 * they do themselves, a budget the owner "has", a ratification line, "no time rule", "other than" destinations, a
 * prohibition used as a key, and a fragment restating who after a prohibition.
 */
/** "I'll withdraw myself", "we handle payroll": what the owner does is background and grants the agent nothing. */
export const OWNER_STATEMENT = /^\s*(?:and\s+)?(?:I|we)(?:['’]ll|['’]m|['’]d|['’]re|['’]ve|\s+(?!may\b|can\b|must\b|should\b|allow|permit|want\b|need\b|let\b|authori[sz]e|only\b|never\b|don|do not)[a-z]+)\b/i;

/** A period a figure the owner "has" is spent over: "for the whole week", "per month", "this quarter". */
export const OWNER_BUDGET = /\b(?:for|per|a|each|every|this|in\s+a)\s+(?:the\s+)?(?:whole\s+|entire\s+)?(?:day|week|month|quarter|round|year|season|programme|program|campaign)\b|\b(?:in\s+)?total\b|\bbudget\b/i;

export const RATIFIED_WORD = /\b(?:approved|ratified|adopted|signed(?:\s+off)?|issued|drafted|endorsed)\s+(?:by|on)\b/i;
export const RATIFIED = /^\s*(?:(?:this|the|our)\s+)?(?:(?:mandate|policy|rules|charter|memo)\s+(?:was\s+|is\s+)?)?(?:approved|ratified|adopted|signed(?:\s+off)?|issued|drafted|endorsed)\s+(?:by|on)\b[^:;]*$/i;

/** "we don't restrict by day", "we don't limit the time of day": says there is no such rule. */
export const NO_TIME_RULE =
  /^\s*(?:and\s+|so\s+)?(?:(?:we|i)\s+)?(?:don['’]t|do not|won['’]t|will not|never)\s+(?:restrict|limit|care about|mind)\s+(?:(?:by|on|the|which|what)\s+)*(?:day|days|time|times|hour|hours|weekday|weekdays|weekends?|dates?|schedule|timing)(?:\s+of\s+(?:the\s+)?(?:week|day))?\s*[.!]?\s*$/i;

/** "to any address other than", "anywhere but", "to anyone except": the exception names the only destination. */
export const OTHER_THAN_DEST = /\b(?:to|into)\s+(?:any(?:one|body|where)?|an?)\s*(?:(?:address|wallet|account|recipient|destination|one)(?:es|s)?\s+)?(?:other\s+than|but|except|apart\s+from|besides)\s|\banywhere\s+(?:but|except|other\s+than)\s/i;
export const DEST_DIMS = new Set(["recipient", "spender", "contract"]);

/** A line keyed by a prohibition: "Prohibited: ...", "Not allowed: ...", "Off limits: ...". */
export const PROHIBITION_KEY = /^\s*(?:prohibited|forbidden|not allowed|not permitted|disallowed|banned|off[- ]limits|never allowed)\s*:/i;

/** "don't send money anywhere, not to me, not to anyone": a fragment naming who, after a prohibition that names nobody. */
export const RESTATED_WHO =
  /^\s*(?:and\s+|or\s+)?(?:not|nor|never|no)\s+(?:even\s+)?(?:to|for)\s+(?:me|us|you|myself|ourselves|yourself|anyone|anybody|any ?one|someone|somebody|friends|family|other people|people)(?:\s+(?:else|either))?\s*[.!]?\s*$/i;

/** A grant whose clause ends on a preposition: "may deposit into", "can withdraw from". */
export const DANGLING = /\b(?:deposit|withdraw|send|transfer|move|pay|supply|stake|delegate|lend|bridge)\w*\s+(into|onto|from|to|with)\s*$/i;
