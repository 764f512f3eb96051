/**
 * Rules about what an order does to the position it meets, rather than about the order itself:
 * "never close positions (I do the closing myself)", "no flipping", "don't add to a losing position" /
 * "never average down". Each becomes a `position_rule`; whether an order closes, flips or adds is a fact from
 * context.positions, decided in checks/positions.ts (no positions: a human decides).
 */
import { scan, type Clause } from "../text";
import { add, type ParseState } from "./state";

const NEG = String.raw`(?:no|never|not|do not|don't|dont|must not|mustn't|cannot|can't|should not|shouldn't|may not|won't|will not)`;
const OBJ = String.raw`(?:(?:a|an|the|any|my|our|your|its|open|existing|current|of\s+the)\s+){0,3}`;
/** A narrowing word after the rule ("never close positions at a loss") makes it another rule: left unread. */
const NARROWED = /^\s*(?:at|below|above|under|over|when|if|unless|before|after|without|except|in\s+(?:a\s+)?(?:loss|profit|the\s+red|the\s+green)|for\s+(?:a|less|more))\b/i;

/** "never close positions", "never you close the positions", "closing positions is not allowed", "no closing". */
const NO_CLOSE = new RegExp(
  String.raw`\b${NEG}\s+(?:ever\s+)?(?:you\s+|u\s+|the\s+(?:agent|bot)\s+)?(?:close|exit|unwind)\s+${OBJ}(?:positions?|trades?|longs?|shorts?|anything)\b|\bno\s+closing(?:\s+${OBJ}(?:positions?|trades?))?\b|\bclosing\s+(?:${OBJ}(?:positions?|trades?)\s+)?(?:is|are)\s+(?:not\s+(?:allowed|permitted)|forbidden|prohibited|off[- ]limits)\b`,
  "gi",
);
/** "the closing I make myself by hand", "I do the closing myself": who closes, beside a rule that the agent does not. */
const OWNER_CLOSES = /\b(?:(?:the\s+)?closing\s+(?:is\s+)?(?:I|we)\s+(?:make|do|handle|will\s+do)(?:\s+(?:it|them))?|(?:I|we)(?:['’]ll|\s+will)?\s+(?:do|handle|make)\s+(?:the\s+|all\s+)?closing(?:\s+(?:of\s+)?(?:positions?|trades?))?)\s*(?:myself|ourselves)?(?:\s+(?:by\s+hand|manually))?\b|\b(?:that\s+is|that['’]s|closing\s+is)\s+(?:my|our)\s+job\b/gi;

/** "in one order", "in a single trade": the one order a flip happens in. */
const ONE_ORDER = String.raw`(?:\s+(?:in|with|within)\s+(?:a\s+single|one(?:\s+single)?|the\s+same|a)\s+(?:order|trade|transaction|go))?`;

/** "no flipping", "never flip a position", "never go from long to short (or short to long) in one order". */
const NO_FLIP = new RegExp(
  String.raw`\b(?:no|never|don't|dont|do not)\s+(?:ever\s+)?(?:flip(?:ping|s)?|revers(?:e|ing|als?))(?:\s+${OBJ}(?:positions?|longs?|shorts?|sides?|directions?|exposure))?(?:\s+(?:from\s+)?(?:long|short)\s+(?:to|into)\s+(?:long|short))?${ONE_ORDER}\b|\b${NEG}\s+(?:ever\s+)?(?:go|turn|switch)\s+(?:straight\s+)?from\s+(?:a\s+)?(long|short)\s+(?:to|into)\s+(?:a\s+)?(long|short)\b(?:\s*\(?\s*or\s+(?:from\s+)?(?:long|short)\s+to\s+(?:long|short)(?:\s+either)?\s*\)?)?${ONE_ORDER}`,
  "gi",
);

/** "don't add to a losing position", "never average down", "no adding to losers", "never add to positions in the red". */
const NO_ADD_LOSING = new RegExp(
  String.raw`\b${NEG}\s+(?:ever\s+)?(?:add(?:ing)?\s+to|increas(?:e|ing)|doubl(?:e|ing)\s+(?:down\s+)?on|scal(?:e|ing)\s+into)\s+${OBJ}(?:losing|losers?|underwater|red)\s*(?:positions?|trades?|longs?|shorts?)?\b|\b${NEG}\s+(?:ever\s+)?(?:add(?:ing)?\s+to|increas(?:e|ing))\s+${OBJ}(?:positions?|trades?)\s+(?:that\s+(?:is|are)\s+|which\s+(?:is|are)\s+)?(?:losing(?:\s+money)?|underwater|in\s+the\s+red|at\s+a\s+loss)\b|\b${NEG}\s+(?:ever\s+)?averag(?:e|ing)\s+down\b|\bno\s+averaging\s+down\b`,
  "gi",
);

export function parsePositionRules(c: Clause, st: ParseState, rule: string): void {
  let close = false;
  scan(c, NO_CLOSE, (m) => {
    if (NARROWED.test(c.text.slice(m.index + m[0].length))) return false;
    close = true;
    add(st, { kind: "position_rule", forbids: "close", rule });
  });
  if (close) scan(c, OWNER_CLOSES, () => undefined);
  scan(c, NO_FLIP, (m) => {
    // "never go from long to long" says nothing; only a change of direction is a flip.
    if (m[1] && m[2] && m[1].toLowerCase() === m[2].toLowerCase()) return false;
    add(st, { kind: "position_rule", forbids: "flip", rule });
  });
  scan(c, NO_ADD_LOSING, (m) => {
    if (NARROWED.test(c.text.slice(m.index + m[0].length)) && !/^\s*at\s+a\s+loss/i.test(c.text.slice(m.index + m[0].length))) return false;
    add(st, { kind: "position_rule", forbids: "add_losing", rule });
  });
  // "But never you close the positions": the clause split left its conjunction behind.
  if (st.constraints.some((k) => k.kind === "position_rule" && k.rule === rule)) scan(c, /^\s*(?:but|and|also|however)\b,?/gi, () => undefined);
}
