/**
 * Clause numbers in front of sentences: "2.1 The Manager shall ...", "2.2 No single order shall ...", "(3) Leverage
 * ...". Agreements and policies number every sentence; the number was read as a figure nobody used, so every rule so
 * numbered was a clause not understood. outline.ts lays out numbered headings; this pass reads numbered sentences.
 *
 * A number is taken for a clause number only when the intent numbers at least two sentences the same way and the word
 * after it starts a sentence (a capitalised word that is not a unit): "2.5 ETH per order" and "2 SOL max" keep their
 * figures, and so does a lone "1.5 Leverage is fine" that nothing else in the intent echoes.
 */
const NUMBER = /^(?:\d{1,2}(?:\.\d{1,2}){1,2}\.?|\(\d{1,2}(?:\.\d{1,2})?\)|\d{1,2}\)|\([a-h]\))\s+(?=[A-Z][a-z])/;
/** Capitalised words that are units or assets, not the start of a sentence: "2.5 Ether", "1.2 Bitcoin". */
const UNIT = /^(?:ether|eth|bitcoin|btc|sol|solana|dollars?|usd|usdc|tokens?|shares?|units?|percent|contracts?|lots?)\b/i;

const numbered = (s: string): RegExpExecArray | null => {
  const m = NUMBER.exec(s);
  return m && !UNIT.test(s.slice(m[0].length)) ? m : null;
};

export function stripClauseNumbers(sentences: string[]): string[] {
  if (sentences.filter((s) => numbered(s)).length < 2) return sentences;
  return sentences.map((s) => {
    const m = numbered(s);
    return m ? s.slice(m[0].length) : s;
  });
}
