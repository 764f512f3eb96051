/**
 * Marks owners put in front of a rule line, and the switches of a config blob:
 * - a ticked box ("[x]", "☑") or a tick emoji ("✅", "✔️", "👍") says the line is in force: the mark goes and the
 *   line reads as written; an empty box ("[ ]") may mean "not enabled", so that line is left as it is (and read as
 *   whatever it says, or not understood);
 * - a cross emoji ("❌", "🚫", "⛔", "✖️") forbids what the line names: "❌ spot trading" is "Prohibited: spot
 *   trading" (a key that never grants, parse/index.ts); "❌ any host not named above" closes the list: "Nothing else.";
 * - blob switches that say nothing about actions: "enabled: true", "version: 4", "schema: v2" are labels;
 *   "everything_else: deny", "default: deny", "else: reject" close the permissions ("Nothing else.");
 * - "key = value" lines are "key: value" lines (the config readers know the colon), and "recipient = self" says
 *   the proceeds go back to the wallet the action is sent from;
 * - after a table, "anything not in a row: no", "nothing off it", "only these rows" close the permissions.
 */

const TICK = /^([ \t]*(?:[-*•][ \t]+)?)(?:\[[xX✓✔]\]|☑️?|✅|✔️?|👍|🟢)[ \t]*(?:(?:✅|✔️?|👍|🟢)[ \t]*)?/gmu;
const CROSS = /^([ \t]*(?:[-*•][ \t]+)?)(?:\[[xX✓✔]\][ \t]*)?(?:❌|🚫|⛔|✖️?|🔴|👎)[ \t]*(.+?)[ \t]*$/gmu;

/** "any host not named above", "anything not listed", "anyone else": the list written is the only one. */
const REST = /^(?:any\s+other\s+[a-z]+|(?:any|every)\s*(?:thing|one|body)\s+else)\s*[.!]?$|^(?:any(?:thing|one|body)?|every(?:thing|one)|all)\b(?:\s+(?:other\s+)?[a-z]+)?\s+(?:else\b|not\s+(?:named|listed|mentioned|covered|in\s+(?:the\s+)?(?:list|table|rows?))(?:\s+(?:above|here|below))?)\s*[.!]?$/i;

const COMPARATIVE = /^(?:more|greater|bigger|larger|higher)\s+than\b|^(?:over|above|anything\s+(?:over|above))\s+[$\d]/i;

const LABEL_SWITCH = /^([ \t]*(?:[-*•][ \t]+)?)(?:enabled|active|on|version|schema|schema version|rev|revision)[ \t]*[:=][ \t]*(?:true|yes|on|v?\d+(?:\.\d+)*)[ \t]*,?[ \t]*$/i;
const DENY_REST = /^([ \t]*(?:[-*•][ \t]+)?)(?:everything[ _]else|anything[ _]else|default|else|other(?:wise|s)?|fallback|\*)[ \t]*[:=][ \t]*["']?(?:deny|denied|reject|rejected|block|blocked|no|forbidden|prohibited)["']?[ \t]*,?[ \t]*$/gim;

const KEY_EQ = /^([ \t]*(?:[-*•][ \t]+)?[A-Za-z][\w /.-]{0,40}?)[ \t]+=[ \t]+(?=[^=\s])/gm;
const SELF_LINE = /^([ \t]*(?:[-*•][ \t]+)?)(?:recipient|receiver|to|destination|dest|payout|proceeds|output)(?:[ \t]+(?:address|wallet))?[ \t]*:[ \t]*(?:self|me|myself|own(?:[ \t]+wallet)?|this[ \t]+wallet|sender|the[ \t]+sender)[ \t]*(?:only)?[ \t]*\.?[ \t]*$/gim;
/** "Anyone or anything not in a row: no", "nothing off it", "only these rows": a table's rows are the only grants. */
const TABLE_CLOSER =
  /(?:^|(?<=[,:;.]\s*))(?:(?:any(?:one|thing|body)?|every(?:one|thing))(?:\s+or\s+any(?:one|thing|body))?\s+not\s+(?:in|on)\s+(?:a|any|the|this|these)\s+(?:rows?|table|sheet|list)\s*[:,-]?\s*(?:no|not allowed|denied|deny|never|is not allowed)|nothing\s+(?:off|outside(?:\s+of)?)\s+(?:it|this|the\s+(?:sheet|table|list))|(?:no,?\s+)?only\s+(?:these|the(?:se)?\s+listed)\s+rows|only\s+(?:what|who|whoever|those|the\s+ones)\s+(?:is|are)\s+(?:on|in)\s+(?:this|the|these)\s+(?:sheet|table|list|rows?))\s*[.!:]?(?=\s*(?:\n|$))/gim;

/** A key naming an activity ("withdrawals:", "usd_send:"): a switch under it turns that activity on. */
const ACTIVITY_KEY = /\b(?:withdraw\w*|transfer\w*|send\w*|pay\w*|swap\w*|trad\w*|borrow\w*|lend\w*|suppl\w*|approv\w*|stak\w*|bridg\w*|deposit\w*|orders?|leverage|margin|short\w*|sell\w*|buy\w*|delegat\w*|vaults?)\b/i;

const indent = (l: string): number => /^[ \t]*/.exec(l)?.[0].length ?? 0;

export function readMarks(raw: string): string {
  let s = raw;
  if (/[|,]/.test(s)) s = s.replace(TABLE_CLOSER, "Nothing else.");
  if (/[\u2600-\u27ff\u{1f300}-\u{1faff}\u2b55☑]|\[[xX✓✔ ]\]/u.test(s)) {
    s = s.replace(CROSS, (_m, pre: string, body: string) => {
      const b = body.replace(/[.;]\s*$/, "");
      if (REST.test(b)) return `${pre}Nothing else.`;
      // "❌ more than $0.25 for one request": a bound, read as "never more than ...".
      return COMPARATIVE.test(b) ? `${pre}Never ${b}.` : `${pre}Prohibited: ${b}.`;
    });
    s = s.replace(TICK, "$1");
    // An empty box may mean "not in force": the line is kept with a word no reader reads past.
    s = s.replace(/^([ \t]*(?:[-*•][ \t]+)?)\[ \][ \t]*/gm, "$1not ticked: ");
  }
  if (!/[:=]/.test(s)) return s;
  s = s.replace(KEY_EQ, "$1: ").replace(SELF_LINE, "$1proceeds go only to this wallet.");
  // A switch under a key of its own ("withdrawals:" then "  enabled: true") says something about that key: kept.
  const lines = s.split("\n");
  return lines
    .filter((line, i) => {
      if (!LABEL_SWITCH.test(line)) return true;
      const prev = lines.slice(0, i).reverse().find((l) => l.trim() !== "");
      return prev !== undefined && /:\s*$/.test(prev) && indent(line) > indent(prev) && ACTIVITY_KEY.test(prev);
    })
    .join("\n")
    .replace(DENY_REST, "$1Nothing else.");
}
