/**
 * Numbered section headings and the document title above them (session 23). Owners structure a mandate as
 *
 *     hl scalper settings
 *     1. market
 *     SOL perp only
 *     2. withdrawals
 *     never
 *
 * or "§3 Margin." / "Section 2 - Order size" over the rule they head. Read line by line, a heading's rule noun
 * ("Leverage", "Margin", "Order limit") was a clause not understood that held every action; and titles.ts, which
 * only sees a title after a blank line, took the document title as the title of every line below it ("hl scalper
 * settings: withdrawals" read as a permission to withdraw, "Polymarket bot: Prohibited:" as a ban of the venue).
 *
 * This pass only lays the outline out so titles.ts can read it: a heading recognised by its shape gets a blank line
 * before it and loses its number, so it heads the lines under it ("withdrawals: never", read as "No withdrawals"
 * by titles.ts); a document title directly over a heading gets a blank line after it, so it heads nothing and is
 * read alone. Nothing is dropped and no word is changed except the section number.
 *
 * Shape of a heading: a section mark ("§3", "Section 2 -", "Part IV:", "1." / "2)") followed by at most four plain
 * words, no figure, no word that states a rule (only, never, may, allowed, ...), optionally a trailing colon or full
 * stop, and a line under it that is not itself a numbered item (a run of "1. withdrawals / 2. transfers" is a list,
 * not two headings). Refused: a numbered line with a rule word ("1. BTC only") stays an item; a document title over a
 * heading is split off only when it does not prohibit (a "Prohibited" title keeps its block, and its polarity).
 */

/** "§3", "§ 3.1", "Section 2 -", "Part IV:", "Art. 5", "1.", "2)": the mark that numbers a section. */
const MARK = /^[ \t]*(?:§[ \t]*\d{1,2}(?:\.\d{1,2})*\.?|(?:section|sec\.?|part|article|art\.?|clause)[ \t]+(?:\d{1,2}(?:\.\d{1,2})*|[ivx]{1,4})[a-z]?\.?|\d{1,2}[.)]|[IVX]{1,4}[.)])[ \t]*(?:[-–—:][ \t]*)?/i;

/** What a heading may say: plain words, no figure, no sentence punctuation inside. */
const HEADING_TEXT = /^[A-Za-z][A-Za-z'’&/ -]{0,40}$/;

/** A word that states a rule: a line with one is a rule or an item, never a heading. */
const RULE_WORD = /\b(?:allowed|permitted|only|just|may|can|must|should|shall|never|not|no|none|ok|okay|fine|forbidden|prohibited|banned|except|unless|if|when|max|min|at most|up to|above|below|under|over|each|per)\b|n['’]t\b/i;

/** Titles that prohibit: what follows them keeps their polarity (titles.ts), so nothing around them is moved. */
const NEGATIVE = /^(?:prohibited|forbidden|not allowed|not permitted|disallowed|banned|off[- ]limits|never|don['’]?ts|do not|no[- ]go(?:es)?|prohibitions|hard no)\b/i;

const words = (t: string): number => t.trim().split(/\s+/).length;

/** The heading's text when the line is a numbered heading ("2. order size" -> "order size"), else null. */
function numberedHeading(line: string): string | null {
  const m = MARK.exec(line);
  if (!m || m[0].trim() === "") return null;
  const rest = line.slice(m[0].length).trim().replace(/[:.]\s*$/, "").trim();
  // "1." alone, or "1) BTC only": no heading text, or a rule.
  if (!rest || !HEADING_TEXT.test(rest) || words(rest) > 4 || RULE_WORD.test(rest)) return null;
  return rest;
}

/** A line that heads lines under it without being a numbered one: "Allowed:", "Prohibited:", "Risk:". */
const COLON_TITLE = /^[ \t]*[A-Za-z][A-Za-z'’&/ -]{0,30}:[ \t]*$/;

/** A document title: a short line of plain words that says no rule ("Polymarket bot", "hl scalper settings"). */
function isDocumentTitle(line: string): boolean {
  const t = line.trim();
  return HEADING_TEXT.test(t) && words(t) <= 5 && !RULE_WORD.test(t) && !NEGATIVE.test(t);
}

export function readOutline(raw: string): string {
  if (!raw.includes("\n")) return raw;
  const lines = raw.split("\n");
  const heading = lines.map((l, i) => {
    const text = numberedHeading(l);
    const next = lines[i + 1];
    // The line under it must be its body: not blank, not the next numbered line of a list.
    if (text === null || next === undefined || next.trim() === "" || MARK.test(next)) return null;
    return text;
  });
  const first = lines.findIndex((l) => l.trim() !== "");
  const next0 = lines[first + 1];
  // The document title over the first heading (or over "Allowed:" / "Prohibited:" lines) heads nothing itself.
  const titleOver = next0 !== undefined && isDocumentTitle(lines[first]) && (heading[first + 1] !== null || COLON_TITLE.test(next0));
  if (!titleOver && !heading.some((h) => h !== null)) return raw;
  // Inside a prohibiting block ("Prohibited:" then numbered lines) the numbers are its items: leave the text alone.
  for (let i = 0; i < lines.length; i++) {
    if (heading[i] === null) continue;
    for (let j = i - 1; j >= 0 && lines[j].trim() !== ""; j--) if (NEGATIVE.test(lines[j].trim().replace(/:$/, "").trim()) && COLON_TITLE.test(lines[j])) return raw;
  }
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const h = heading[i];
    if (h !== null) {
      if (out.length && out[out.length - 1].trim() !== "") out.push("");
      out.push(h);
      continue;
    }
    out.push(line);
    if (i === first && titleOver) out.push("");
  }
  return out.join("\n");
}
