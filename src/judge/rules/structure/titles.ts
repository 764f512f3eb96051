/**
 * A bare section title on a line of its own, its rule lines under it ("Margin" then "isolated, at most 3x";
 * "Off limits" then "withdrawals" and "spot trading"). Read on its own, a child line loses what the title says
 * about it: "withdrawals" under "Off limits" had read as a *permission* to withdraw. So each child is written
 * with its title as a key ("Margin: isolated, at most 3x"), and a title that prohibits ("Prohibited", "Off
 * limits", "Not allowed") becomes "Prohibited:" on every child, a key the parser never lets grant anything
 * (parse/index.ts: a prohibition key that yields a permission leaves the line not understood).
 *
 * A title is a short line without sentence punctuation or figures, at the start or after a blank line, with at
 * least one non-blank line under it; the block ends at the next blank line. A child already written as
 * "key: value" keeps its own key (the title is then only a heading). Titles that only name the document part
 * ("Rules", "Limits", "Notes") are headings and dropped, as before.
 */

const NEGATIVE_TITLE =
  /^(?:prohibited|forbidden|not allowed|not permitted|disallowed|banned|off[- ]limits|never|don['’]?ts|do not|no[- ]go(?:es)?|prohibitions|restrictions on|hard no)(?:\s+(?:activities|actions|items|things|list|ever))?$/i;

/** Titles that name a part of the document, not what its lines are about. */
const HEADING_ONLY = /^(?:(?:the|our|standing|house|general|other|basic|main)\s+)?(?:rules|limits|notes|settings|policy|guidelines|guardrails|constraints|overview|details|summary)$/i;

/** A body that only refuses: "never", "none", "not allowed", "off". */
const NEGATIVE_BODY = /^(?:never|no|none|nope|not allowed|not permitted|forbidden|prohibited|banned|disabled|off|not ever)$/i;

const TITLE = /^[A-Za-z][A-Za-z'’&/ -]{0,40}$/;

/** A line that says a rule itself ("USDC payments allowed", "BTC only") is a rule, not a title. */
const RULE_WORD = /\b(?:allowed|permitted|only|may|can|must|should|shall|never|not|no|ok|okay|fine|forbidden|prohibited|banned|except|unless)\b/i;

function isTitle(line: string): boolean {
  const t = line.trim().replace(/:$/, "").trim();
  if (!TITLE.test(t) || t.split(/\s+/).length > 4) return false;
  return NEGATIVE_TITLE.test(t) || (!/[.!?;,]/.test(t) && !RULE_WORD.test(t));
}

/** "- withdrawals", "• spot trading", "1) borrowing": the list mark is layout. */
const stripMark = (line: string): string => line.replace(/^[ \t]*(?:[-*•·]|\d{1,2}[.)])[ \t]+/, "").trim();

/** A bullet item: "- x", "• x", "1) x", indented or not. */
const BULLET = /^[ \t]*(?:[-*•·]|\d{1,2}[.)])[ \t]+\S/;

/** "any other recipient", "anyone else", "anything not listed": the rest, beside the items that were named. */
const OTHER_THAN_LISTED = /^(?:any\s+other\s+(?:recipients?|address(?:es)?|wallets?|destinations?|payees?|hosts?|tokens?|assets?|markets?|venues?|chains?|networks?|protocols?|contracts?)|any(?:one|body|thing|where)\s+else|anything\s+not\s+(?:listed|named)(?:\s+above)?)$/i;

/** Up to five plain words ("TWAP orders", "usdSend and spotSend", "builder fee approvals"). */
const BARE_NOUNS = /^[A-Za-z][\w'’/&-]*(?:\s+[A-Za-z][\w'’/&-]*){0,4}$/;
/** Words that narrow or bound what is prohibited: such a line is not a bare kind of action. */
const NARROWS = /\b(?:except|unless|other|than|but|only|to|from|into|above|below|over|under|more|less|beyond|without|if|when|after|before|any|all|every|anything|anyone|no|not|never|none)\b/i;

/** A child that is already "key: value" (not a time "10:30", not an address or URL). */
const KEYED = /^[A-Za-z][\w '’/-]{0,40}:(?!\/\/)\s+\S/;

export function readTitles(raw: string): string {
  if (!raw.includes("\n")) return raw;
  const lines = raw.split("\n");
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const next = lines[i + 1];
    // "Forbidden:" ending in a colon over bullet items needs no blank line before it: the bullets are its block. Only a
    // prohibiting title: its polarity is what the items would lose; any other colon title over bullets ("Risk limits:")
    // is read as before.
    const colonOverBullets = /:\s*$/.test(line) && next !== undefined && BULLET.test(next) && NEGATIVE_TITLE.test(line.trim().replace(/:$/, "").trim());
    const startsBlock = i === 0 || lines[i - 1].trim() === "" || colonOverBullets;
    if (!startsBlock || next === undefined || next.trim() === "" || !isTitle(line)) {
      out.push(line);
      continue;
    }
    // "Largest order" over "$6,000 notional": a cap's key the readers know ("Max order").
    const title = line.trim().replace(/:$/, "").trim().replace(/^(?:biggest|largest|highest)\b/i, "Max");
    const negative = NEGATIVE_TITLE.test(title);
    let j = i + 1;
    // A title over "key: value" lines is their heading: kept as its own line, read (or not) as before.
    if (!negative && !HEADING_ONLY.test(title) && KEYED.test(stripMark(next))) out.push(line);
    for (; j < lines.length && lines[j].trim() !== "" && (!colonOverBullets || BULLET.test(lines[j])); j++) {
      const child = stripMark(lines[j]);
      if (!child) continue;
      const body = child.replace(/[.;]\s*$/, "");
      // "Forbidden: any other recipient": the items above are the only ones (as a crossed "any other host", marks.ts).
      if (negative && OTHER_THAN_LISTED.test(body)) out.push("Nothing else.");
      // "TWAP orders" under "Prohibited": a bare noun phrase is "No TWAP orders.", which every reader of a kind of
      // action knows (order types, permissions); anything with an exception or a bound keeps the key that never grants.
      else if (negative && BARE_NOUNS.test(body) && !NARROWS.test(body)) out.push(`No ${body}.`);
      else if (negative) out.push(`Prohibited: ${body}.`);
      // "withdrawals" over "never": the body alone says the titled thing is not done.
      else if (NEGATIVE_BODY.test(body) && !HEADING_ONLY.test(title)) out.push(`No ${title}.`);
      else if (HEADING_ONLY.test(title) || KEYED.test(child)) out.push(`${body}.`);
      else out.push(`${title}: ${body}.`);
    }
    i = j - 1;
  }
  return out.join("\n");
}
