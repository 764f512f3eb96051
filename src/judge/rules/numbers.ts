/**
 * Numbers as owners write them, rewritten to digits before the rules are read: "five percent" -> "5%",
 * "four hundred HYPE" -> "400 HYPE", "two thousand dollars" -> "2000 dollars", "half a SOL" -> "0.5 SOL",
 * "a quarter of" -> "25% of", and a k/m figure with no unit ("3k notional", "1.5k/day") -> "$3k" (a figure with a
 * thousands suffix and no token after it is money). A number word is rewritten only when a unit, a percent sign,
 * a multiplier or a cap word follows, so "no one", "one of" and "the only one" stay words.
 */
import { asSymbol } from "./parse/state";

const UNITS: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
  thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19, twenty: 20, thirty: 30,
  forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90,
};
const SCALES: Record<string, number> = { hundred: 100, thousand: 1e3, million: 1e6, billion: 1e9 };

const WORD = String.raw`(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)`;
const SCALE = String.raw`(?:hundred|thousand|million|billion)`;
/** "four hundred", "twenty-five", "two thousand five hundred", "a hundred", "1.5 million". */
const NUMBER_WORDS = new RegExp(
  String.raw`\b((?:(?:a|${WORD}(?:[- ]${WORD})?|\d+(?:\.\d+)?)\s+${SCALE}(?:\s+(?:and\s+)?${WORD}(?:[- ]${WORD})?(?:\s+${SCALE})?)*|${WORD}(?:[- ]${WORD})?))\b`,
  "gi",
);

function wordsToNumber(text: string): number | null {
  let total = 0;
  let cur = 0;
  for (const w of text.toLowerCase().split(/[\s-]+/)) {
    if (w === "and") continue;
    if (w === "a") cur = 1;
    else if (/^\d/.test(w)) cur = Number(w);
    else if (w in UNITS) cur += UNITS[w];
    else if (w in SCALES) {
      if (SCALES[w] === 100) cur = (cur || 1) * 100;
      else {
        total += (cur || 1) * SCALES[w];
        cur = 0;
      }
    } else return null;
  }
  const n = total + cur;
  return Number.isFinite(n) ? n : null;
}

/** The figure a text starts with, in digits ("1,500 dollars") or words ("one thousand five hundred, ..."). */
export function leadingNumber(text: string): { value: number; length: number } | null {
  const digits = /^\d[\d,]*(?:\.\d+)?(?![\d.])/.exec(text);
  if (digits) return { value: Number(digits[0].replace(/,/g, "")), length: digits[0].length };
  const m = new RegExp(NUMBER_WORDS.source, "i").exec(text);
  const value = m && m.index === 0 ? wordsToNumber(m[0]) : null;
  return m && value !== null ? { value, length: m[0].length } : null;
}

/** What may follow a number word for it to be a quantity. */
const FOLLOWS_QUANTITY =
  /^\s*(?:%|percent\b|per\s*cent\b|bps\b|basis\b|x\b|times\b|dollars?\b|bucks\b|usd\b|cents?\b|k\b|(?:max(?:imum)?|at most|or less|tops)\b|(?:orders?|trades?|swaps?|payments?|transfers?|calls?|requests?)\s+(?:per|a|each)\b)/i;

function followsQuantity(rest: string): boolean {
  if (FOLLOWS_QUANTITY.test(rest)) return true;
  const m = /^\s*([A-Za-z][A-Za-z0-9]{1,9})\b/.exec(rest);
  return !!m && asSymbol(m[1]) !== null;
}

/** Cap words a number may follow ("max four", "no more than two"). */
const CAP_BEFORE = /(?:max(?:imum)?|at most|up to|no more than|not more than|under|below|over|above|exceed(?:s|ing)?|cap(?:ped)?(?: at)?|limit(?:ed)?(?: to)?|budget(?: of)?|than|of)\s*$/i;

const RESTATED =
  /((?:US)?\$?\s?(\d[\d,]*(?:\.\d+)?)\s?([kKmM])?(?:\s*(?:USD|USDC|dollars?))?)\s*\(\s*(?:US)?\$?\s?(\d[\d,]*(?:\.\d+)?)\s?([kKmM])?\s*(?:USD|USDC|(?:US\s+|U\.S\.\s+)?dollars?|bucks)?\s*\)/g;

function parseFigure(n: string, k: string | undefined): number {
  const v = Number(n.replace(/,/g, ""));
  return /m/i.test(k ?? "") ? v * 1e6 : /k/i.test(k ?? "") ? v * 1e3 : v;
}

export function normaliseNumbers(s: string): string {
  // "half a SOL", "half of context.x", "a quarter of": fractions.
  s = s.replace(/\bhalf\s+(?:a|an|one)\s+(?=[A-Za-z$])/gi, "0.5 ");
  s = s.replace(/\b(?:a\s+)?quarter\s+of\b/gi, "25% of").replace(/\bhalf\s+of\b/gi, "50% of");
  // "half the wallet's balance", "a third of our float": a share of a figure.
  s = s.replace(/\bhalf\s+(?=(?:the|our|its|my|your|this|that)\b)/gi, "50% of ").replace(/\b(?:a|one)\s+third\s+of\b/gi, "33.33% of");
  s = s.replace(NUMBER_WORDS, (m: string, _g: string, offset: number, whole: string) => {
    if (/^\d+(?:\.\d+)?$/.test(m)) return m;
    const rest = whole.slice(offset + m.length);
    const before = whole.slice(Math.max(0, offset - 24), offset);
    const hasScale = new RegExp(String.raw`\b${SCALE}\b`, "i").test(m);
    // "a hundred" alone is fine; a bare "one"/"a" needs a unit after it or a cap word before it.
    if (!hasScale && !followsQuantity(rest) && !CAP_BEFORE.test(before)) return m;
    if (/^a$/i.test(m)) return m;
    const n = wordsToNumber(m);
    return n === null ? m : String(n);
  });
  // "two and one-half per cent", "3 and a half %": a whole number and a half (after the number words are digits).
  s = s.replace(/\b(\d+)\s+and\s+(?:a|one)[- ]half\b(?=\s*(?:per\s?cent|percent|%|x\b|times\b))/gi, (_m, n: string) => `${n}.5`);
  s = s.replace(/(\d)\s*(?:percent|per\s*cent)\b/gi, "$1%");
  // "five times (5x)", "5 times": a leverage multiple, written once.
  s = s.replace(/\b(\d+(?:\.\d+)?)\s+times\b(?:\s*\(\s*\1\s*x\s*\))?/gi, "$1x").replace(/\b(\d+(?:\.\d+)?)x\s*\(\s*\1\s*x\s*\)/gi, "$1x");
  // "3k notional", "1.5k/day", "10k": a thousands figure with no token after it is money.
  s = s.replace(/(^|[^\w$.,])(\d+(?:\.\d+)?)\s?([kKmM])\b(?!\s*(?:[A-Za-z][A-Za-z0-9]{1,9}))/g, (m, pre: string, n: string, k: string) => `${pre}$${n}${k.toLowerCase()}`);
  s = s.replace(/(^|[^\w$.,])(\d+(?:\.\d+)?)\s?([kKmM])\s+([A-Za-z][A-Za-z0-9]{1,9})\b/g, (m, pre: string, n: string, k: string, w: string) =>
    asSymbol(w) !== null || /^(?:usd|dollars?|bucks)$/i.test(w) ? m : `${pre}$${n}${k.toLowerCase()} ${w}`,
  );
  // "$4,000 (four thousand dollars)", "2.5k (2,500) USDC": the same figure written twice is one figure.
  s = s.replace(RESTATED, (m, first: string, n1: string, k1: string | undefined, n2: string, k2: string | undefined) =>
    parseFigure(n1, k1) === parseFigure(n2, k2) ? first : m,
  );
  return s;
}
