/**
 * TWAP rules that are not "use TWAPs": how long a TWAP runs ("a TWAP must run at least 20 minutes", "TWAPs of at
 * most 2 hours"), and which orders must go through one ("anything bigger than $1,000 goes through a TWAP").
 * A duration rule binds TWAP orders only: it must not be read as requiring every order to be a TWAP, which
 * would refuse a plain limit order the owner never meant to touch.
 */
import { scan, type Clause } from "../text";
import { add, type ParseState } from "./state";

const UNIT = String.raw`(minutes?|mins?|m|hours?|hrs?|h)`;
const MIN_WORDS = String.raw`at\s+least|a\s+minimum\s+of|no\s+less\s+than|not\s+less\s+than|minimum(?:\s+of)?|min\.?|>=|≥`;
const MAX_WORDS = String.raw`at\s+most|a\s+maximum\s+of|no\s+more\s+than|not\s+more\s+than|maximum(?:\s+of)?|max\.?|up\s+to|<=|≤`;
const SUBJECT = String.raw`\b(?:(?:a|an|the|each|every|any|all)\s+)?twaps?(?:\s+orders?)?`;
const VERB = String.raw`(?:(?:must|should|shall|has\s+to|have\s+to|needs?\s+to|is\s+to|are\s+to|will)\s+)?(?:always\s+)?(?:run|last|span|be\s+spread|be\s+stretched|take|be|go|runs|lasts)?\s*(?:over|for|across)?`;

/** "a TWAP must run at least 20 minutes", "TWAPs: min 20 min", "twap duration at most 2h". */
const DURATION = new RegExp(
  String.raw`${SUBJECT}(?:\s+(?:duration|length|runtime|run\s+time))?\s*[:=]?\s*${VERB}\s*(?:(${MIN_WORDS})|(${MAX_WORDS}))\s*(\d+(?:\.\d+)?)\s*${UNIT}\b(?:\s+(?:long|each))?`,
  "gi",
);
/** "no TWAP shorter than 20 minutes", "never run a twap for less than 15 min". */
const NO_SHORTER = new RegExp(String.raw`\b(?:no|never(?:\s+(?:run|use|send|place))?)\s+(?:a\s+|any\s+)?twaps?(?:\s+orders?)?\s+(?:(shorter|faster|quicker)\s+than|(longer|slower)\s+than|(?:running\s+|over\s+|for\s+)?(less|more)\s+than)\s*(\d+(?:\.\d+)?)\s*${UNIT}\b`, "gi");

const minutes = (n: string, unit: string): number => Number(n) * (/^h/i.test(unit) ? 60 : 1);

export function parseTwapDuration(c: Clause, st: ParseState, rule: string): void {
  scan(c, DURATION, (m) => {
    const n = minutes(m[3], m[4]);
    add(st, m[1] ? { kind: "twap_duration", min: n, rule } : { kind: "twap_duration", max: n, rule });
  });
  scan(c, NO_SHORTER, (m) => {
    const n = minutes(m[4], m[5]);
    const floor = !!m[1] || m[3]?.toLowerCase() === "less";
    add(st, floor ? { kind: "twap_duration", min: n, rule } : { kind: "twap_duration", max: n, rule });
  });
}

/**
 * "anything bigger than $1,000 goes through a TWAP", "orders above 5k must be sent as TWAPs": the order-type rule
 * that follows binds only orders above the figure. Returns the figure (USD) and consumes the phrase, or null.
 */
const ABOVE = /\b(?:anything|everything|any\s+(?:order|trade|position)|orders?|trades?|positions?|(?:any|all)\s+size)\s+(?:(?:that\s+is|that['’]s|which\s+is)\s+)?(?:bigger|larger|above|over|greater|more)(?:\s+than)?\s+\$\s?(\d[\d,]*(?:\.\d+)?)\s*(k|m)?(?:\s*(?:usd|dollars|notional))?\s+(?:in\s+notional\s+)?(?:goes|go|must\s+go|should\s+go|has\s+to\s+go|have\s+to\s+go|needs?\s+to\s+go|must\s+be\s+(?:sent|done|placed|executed|run)|should\s+be\s+(?:sent|done|placed|executed|run)|gets?\s+(?:sent|done|placed|executed|run)|is\s+(?:sent|done|placed|executed|run)|are\s+(?:sent|done|placed|executed|run))\s+(?:through|via|as|by|with|using|in)\s+(?:an?\s+)?(?=twaps?\b|limit\b|post[- ]only\b|alo\b|gtc\b)/i;

export function readSizeThreshold(c: Clause): number | null {
  let above: number | null = null;
  scan(c, ABOVE, (m) => {
    const v = Number(m[1].replace(/,/g, "")) * (m[2] ? (m[2].toLowerCase() === "k" ? 1e3 : 1e6) : 1);
    if (!Number.isFinite(v)) return false;
    above = v;
  });
  return above;
}
