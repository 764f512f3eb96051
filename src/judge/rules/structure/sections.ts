/**
 * Config sections and the settings under them (session 22, blind36). Owners write a policy as nested keys:
 *
 *     withdrawals:
 *       to: context.treasury
 *       require_human_above: 500
 *
 * Read line by line, "require human above: 500" was a threshold on nothing (every action held) and "to:
 * context.treasury" a destination for every action. A setting under a key that names an activity says something
 * about that activity only, so each known setting is written as the sentence the readers know, with the activity
 * as its subject ("Withdrawals above 500 USDC require human approval.", "Withdrawals only to context.treasury.").
 * Settings outside any section read the same way with no subject ("Anything above $1000 requires human
 * approval."), and "builder fees: none configured" / "approvals: none" say the thing is not done ("No builder
 * fees.").
 *
 * Invariants: only the settings below are rewritten, and each keeps its figure, its destination and its key's
 * activity; a bare figure takes a unit only from the document's single "asset:"/"token:" line, otherwise it stays
 * bare (a threshold with no unit is not read, so the actions it names are held); a trailing "# comment" is dropped
 * only when it restates the hold ("# hold for a human"), any other comment is kept as its own line.
 */

/** A key that names an activity: the settings under it are about that activity. */
const ACTIVITY_SECTION =
  /^(?:withdrawals?|withdrawing|deposits?|depositing|transfers?|sends?|payments?|payouts?|orders?|trades?|trading|swaps?|swapping|borrows?|borrowing|loans?|supply|supplying|lending|repay(?:ments?)?|bridg(?:e|es|ing)|grants?|tips?|staking|delegations?|purchases?|buys?|sells?|usd\s?sends?|spot\s?sends?)$/i;

/** "require human above", "require_approval_over", "human approval above", "escalate above", "hold above", "ask above". */
const HUMAN_KEY =
  /^(?:(?:require[sd]?|need(?:s|ed)?)\s+)?(?:(?:a\s+)?(?:human|manual|owner|my|approval|sign[- ]?off|review)\s+)?(?:approval\s+|review\s+|sign[- ]?off\s+|ok\s+)?(?:above|over|beyond|from|>)$|^(?:escalate|hold|ask|confirm|approval|review)\s+(?:above|over|beyond|>)$/i;
/** The key must name a human or an approval, not only "above" ("max above" is not a threshold). */
const NAMES_HUMAN = /\b(?:human|manual|owner|my|approval|sign[- ]?off|review|escalate|hold|ask|confirm)\b/i;

const MAX_KEY = /^(?:max(?:imum)?|cap|limit|max(?:imum)?\s+(?:amount|size|per\s+(?:tx|transaction|action))|per\s+(?:tx|transaction)|each)$/i;
const TO_KEY = /^(?:to|destination|dest|recipient|receiver|address|only\s+to)$/i;
const ON_KEY = /^(?:enabled|allowed|active|on|permitted)$/i;

/** "500", "$1000", "2,500 USDC", "1.5k": a figure with at most a unit. */
const FIGURE = /^(?:(?:US)?\$\s?)?\d[\d,]*(?:\.\d+)?\s?[kKmM]?(?:\s+[A-Za-z][A-Za-z.]{1,9})?$/;

/** A comment that only restates the hold: "# hold for a human", "# ask me", "# needs approval". */
const RESTATES_HOLD = /^(?:(?:hold|wait|ask|ping|escalate|needs?|requires?|goes?|send|route)\s+)?(?:(?:for|to|it|a|an|the|me|us|human|owner|approval|review|sign[- ]?off|manual|first|until)\s*)+$/i;

const key = (k: string): string => k.replace(/[_-]+/g, " ").replace(/\s+/g, " ").trim();
const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** The unit a bare figure takes: the document's one "asset:" / "token:" line, if any. */
function documentUnit(lines: string[]): string | null {
  const units = new Set<string>();
  for (const l of lines) {
    const m = /^[ \t]*(?:[-*•][ \t]+)?(?:asset|token|currency|denomination|stablecoin)[ \t]*[:=][ \t]*([A-Za-z][A-Za-z.]{1,9})[ \t]*$/i.exec(l);
    if (m) units.add(m[1]);
  }
  return units.size === 1 ? [...units][0] : null;
}

function withUnit(v: string, unit: string | null): string {
  const t = v.trim();
  if (/^(?:US)?\$/.test(t) || /[A-Za-z]{2,}\s*$/.test(t)) return t.replace(/^US\$/, "$");
  return unit ? `${t} ${unit}` : t;
}

/** "per deposit" for "deposits", "per withdrawal" for "withdrawals"; "each" when the key is no countable noun. */
function perOne(section: string): string {
  const one = section.toLowerCase().replace(/\s+/g, " ");
  if (/(?:ing|supply|staking|lending)$/.test(one)) return "each";
  return `per ${one.replace(/s$/, "")}`;
}

/** A stack mark for a list row ("- token: STRK"): nothing under it is rewritten. */
const ROW = "\u0000row";

const indentOf = (l: string): number => /^[ \t]*/.exec(l)?.[0].length ?? 0;
const SETTING = /^([ \t]*)(?:[-*•][ \t]+)?([A-Za-z][\w '’/>-]{0,40}?)[ \t]*[:=][ \t]*(.*?)[ \t]*$/;

export function readSections(raw: string): string {
  if (!/[:=]/.test(raw)) return raw;
  const lines = raw.split("\n");
  const unit = documentUnit(lines);
  const stack: Array<{ indent: number; name: string }> = [];
  const out: string[] = [];
  for (const line of lines) {
    if (line.trim() === "") {
      out.push(line);
      continue;
    }
    const ind = indentOf(line);
    while (stack.length && stack[stack.length - 1].indent >= ind) stack.pop();
    // "- token: STRK" and the lines under it are a row of a list (structure/rows.ts reads them as one grant): left.
    if (/^[ \t]*[-*•][ \t]+[A-Za-z][\w '’/-]{0,40}:/.test(line)) {
      stack.push({ indent: ind, name: ROW });
      out.push(line);
      continue;
    }
    if (stack.some((s) => s.name === ROW)) {
      out.push(line);
      continue;
    }
    const m = SETTING.exec(line);
    // "//" after the colon is a URL; a time "10:30" has a digit key and never matches.
    if (!m || /^\/\//.test(m[3])) {
      out.push(line);
      continue;
    }
    const [, pad, rawKey, rawValue] = m;
    const k = key(rawKey);
    const hash = rawValue.indexOf(" #") >= 0 ? rawValue.indexOf(" #") : rawValue.startsWith("#") ? 0 : -1;
    const value = (hash >= 0 ? rawValue.slice(0, hash) : rawValue).trim();
    const comment = hash >= 0 ? rawValue.slice(hash).replace(/^\s*#+\s*/, "").trim() : "";
    if (value === "") {
      stack.push({ indent: ind, name: k });
      out.push(line);
      continue;
    }
    const section = [...stack].reverse().find((s) => ACTIVITY_SECTION.test(s.name))?.name ?? null;
    const subject = section ? cap(section.toLowerCase()) : null;
    const keep = comment && !RESTATES_HOLD.test(comment) ? `\n${pad}${comment}` : "";
    let said: string | null = null;
    if (HUMAN_KEY.test(k) && NAMES_HUMAN.test(k) && FIGURE.test(value))
      said = subject ? `${subject} above ${withUnit(value, unit)} require human approval.` : `Anything above ${withUnit(value, unit)} requires human approval.`;
    // "per deposit" binds deposits only; "each" alone would be read as a cap on every action.
    else if (subject && MAX_KEY.test(k) && FIGURE.test(value)) said = `${subject} at most ${withUnit(value, unit)} ${perOne(section!)}.`;
    else if (subject && TO_KEY.test(k) && !/\b(?:any|anyone|anywhere|all)\b/i.test(value)) said = `${subject} only to ${value}.`;
    else if (subject && ON_KEY.test(k) && /^(?:true|yes|on)$/i.test(value)) said = `${subject} are allowed.`;
    else if (subject && ON_KEY.test(k) && /^(?:false|no|off)$/i.test(value)) said = `No ${section!.toLowerCase()}.`;
    else if (/^(?:none|none\s+(?:configured|set|allowed)|not\s+(?:configured|set|allowed)|n\/a)$/i.test(value) && !/\b(?:max|min|limit|cap|ceiling|floor|slippage|threshold|above|over)\b/i.test(k))
      said = `No ${k.toLowerCase()}.`;
    if (said === null) {
      out.push(line);
      continue;
    }
    out.push(`${pad}${said}${keep}`);
  }
  return out.join("\n");
}
