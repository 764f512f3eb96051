/**
 * How owners group digits and where they put the unit, read once for the whole intent before anything else reads
 * a figure: "12.500,00 USD", "25.000 USD ... 0,5 ETH", "2 000 USDC", "1'500", "USDC 2,000", "USD 5k".
 *
 * A dot followed by exactly three digits ("1.500") is a thousands separator to a Spanish or German writer and a
 * decimal point to an English one, and the two readings are a thousand times apart. Which one is dangerous depends
 * on the rule (read as 1.5, a cap is strict but a floor lets nearly anything through; read as 1,500, the reverse),
 * so it is never guessed. It is settled only by the writer's own evidence in the same text:
 * - a restatement beside it: "1.500 dollars (one thousand five hundred)", "25.000 (25,000) USDC";
 * - the intent's other figures: a decimal comma ("0,5 ETH"), dot thousands with a comma decimal ("12.500,00") or
 *   several dot groups ("1.500.000") make the dots thousands, unless the same text also writes a decimal point
 *   ("0.5") or comma thousands ("2,500"); comma thousands ("2,500") with no European figure make it a decimal point.
 * Otherwise it is wrapped in AMBIGUOUS marks, which `protect` turns into a placeholder no figure reader sees: the
 * clause stays not understood (ESCALATE), and the bound envelope reads it at its smaller value only, so an action
 * under both readings of a cap is still allowed and nothing between them ever is.
 */
import { leadingNumber } from "./numbers";

/** Marks around a figure with two readings; `protect` (text.ts) holds it as a placeholder. */
export const AMBIGUOUS = "\u2051";
export const AMBIGUOUS_RE = /\u2051([^\u2051\s]{1,20})\u2051/g;

const NOT_BEFORE = String.raw`(?<![\w.,'’\u2051])`;
const NOT_AFTER = String.raw`(?![\w'’\u2051]|[.,]\d)`;
/** "12.500,00", "1.250,50": dot thousands, comma decimals. */
const EU_FULL = new RegExp(String.raw`${NOT_BEFORE}(\d{1,3}(?:\.\d{3})+),(\d{1,2})${NOT_AFTER}`, "g");
/** "1.500.000": several dot groups. */
const EU_GROUPS = new RegExp(String.raw`${NOT_BEFORE}\d{1,3}(?:\.\d{3}){2,}${NOT_AFTER}`, "g");
/** "0,5 ETH", "2,75 %": a decimal comma (thousands take three digits). */
const EU_DECIMAL = new RegExp(String.raw`${NOT_BEFORE}\d{1,3},\d{1,2}(?![\d'’\u2051]|[.,]\d)`);
/** "2,500", "1,250.50": comma thousands. */
const EN_GROUPS = new RegExp(String.raw`${NOT_BEFORE}\d{1,3}(?:,\d{3})+(?:\.\d+)?${NOT_AFTER}`);
/** "0.5", "1.25", "0.0005": a decimal point that is not three digits long. */
const EN_DECIMAL = new RegExp(String.raw`${NOT_BEFORE}\d+\.(?:\d{1,2}|\d{4,})(?![\d'’\u2051]|[.,]\d)`);
/** "1.500", "25.000": one dot group, the form with two readings. */
const ONE_GROUP = new RegExp(String.raw`${NOT_BEFORE}([1-9]\d{0,2})\.(\d{3})${NOT_AFTER}`, "g");
/** "2 000", "25 000 USD", "1'500", "1’250": space or apostrophe thousands (never a decimal mark). */
const SPACED = /(?<![\w.,'’\u2051])\d{1,3}(?:[ \u00a0\u202f'’]\d{3})+(?![\w'’]|[.,]\d|[ \u00a0\u202f]\d)/g;

type Convention = "eu" | "en" | null;

function convention(s: string): Convention {
  const eu = EU_FULL.test(s) || EU_GROUPS.test(s) || EU_DECIMAL.test(s);
  EU_FULL.lastIndex = 0;
  EU_GROUPS.lastIndex = 0;
  const en = EN_GROUPS.test(s);
  if (eu && !en && !EN_DECIMAL.test(s)) return "eu";
  if (en && !eu) return "en";
  return null;
}

/** The figure a parenthesis right after a figure restates ("1.500 dollars (one thousand five hundred ...)"). */
function restated(after: string): { value: number; at: number; length: number } | null {
  const m = /^\s*(?:[A-Za-z$€]{1,8}\s*)?\(\s*(?:US)?[$€]?\s?/.exec(after);
  const n = m ? leadingNumber(after.slice(m[0].length)) : null;
  return m && n ? { ...n, at: m[0].length } : null;
}

export function readSeparators(raw: string): string {
  if (!/\d[.,'’ \u00a0\u202f]\d/.test(raw)) return raw;
  let s = raw.replace(SPACED, (m) => m.replace(/[ \u00a0\u202f'’]/g, ""));
  const conv = convention(s);
  s = s.replace(EU_FULL, (_m, int: string, dec: string) => `${int.replace(/\./g, "")}.${dec}`);
  s = s.replace(EU_GROUPS, (m) => m.replace(/\./g, ""));
  // Built piece by piece: the restatement that settled a figure is said once ("1500 dollars (, as in Spain)").
  let out = "";
  let from = 0;
  for (const m of s.matchAll(ONE_GROUP)) {
    const [whole, int, frac] = m;
    const at = m.index + whole.length;
    const said = restated(s.slice(at));
    const reading = said?.value === Number(int + frac) ? int + frac : said?.value === Number(`${int}.${frac}`) ? whole : null;
    out += s.slice(from, m.index);
    from = at;
    if (said && reading) {
      out += reading + s.slice(at, at + said.at);
      from = at + said.at + said.length;
      // "25.000 (25,000) USDC": nothing else in the parenthesis, so it goes.
      const close = /^\s*(?:USD|USDC|USDT|dollars?|euros?|EUR)?\s*\)/i.exec(s.slice(from));
      if (close) {
        out = out.replace(/\s*\(\s*(?:US)?[$€]?\s?$/, "");
        from += close[0].length;
      }
    } else if (!said && conv === "eu") out += int + frac;
    else if (!said && conv === "en") out += whole;
    else out += AMBIGUOUS + whole + AMBIGUOUS;
  }
  return out + s.slice(from);
}

/** "USDC 2000", "USD 5k", "EUR 1200": a currency code written before its figure goes after it, as the readers expect. */
export function unitFirst(s: string): string {
  // "10¢", "25 ¢": cents, which the amount reader counts as a hundredth of a dollar.
  s = s.replace(/(\d[\d,]*(?:\.\d+)?)\s?¢/g, "$1 cents");
  // "500$", "12000$ notional", "2.5k$": the dollar sign after the figure, as many owners write it; before it, as the
  // readers expect. Not "$500$" (already a dollar figure) and not a sign glued to a word ("500$USD" stays as written).
  s = s.replace(/(?<![\w$.,])(\d[\d,]*(?:\.\d+)?)(\s?[kKmM])?\s?\$(?![\w$\d])/g, (_m, fig: string, k: string | undefined) => `$${fig}${(k ?? "").trim()}`);
  // "60 US dollars", "60 U.S. dollars", "USD 60 dollars" aside: the country is the dollar's, not another unit.
  s = s.replace(/(\d)\s+(?:US|U\.S\.)\s+(dollars?|bucks)\b/g, "$1 $2");
  // "€500", "500€", "£40": the sign is the code, which no reader takes for a dollar.
  s = s.replace(/([€£])\s?(\d[\d,]*(?:\.\d+)?)/g, (_m, sign: string, fig: string) => `${fig} ${sign === "€" ? "EUR" : "GBP"}`).replace(/(\d)\s?([€£])/g, (_m, d: string, sign: string) => `${d} ${sign === "€" ? "EUR" : "GBP"}`);
  return s.replace(/\b(USDC|USDT|USD|DAI|EUR|GBP|CHF)[ \u00a0](\d[\d,]*(?:\.\d+)?(?:\s?[kKmM]\b)?)(?!\s*(?:USD|USDC|USDT|DAI|dollars?|%|x\b|bps\b)|[\d.,])/g, (_m, unit: string, fig: string) => `${fig} ${unit}`);
}

/**
 * Spoken amounts: "five grand" -> "5 thousand dollars", "one and a half thousand" -> "1500". "grand total" stays a
 * total; "a couple hundred" stays vague. (Comparison words such as "north of" are read where caps are: amounts.ts.)
 */
export function spokenForms(s: string): string {
  s = s.replace(/\b(\d+(?:\.\d+)?|a|one|two|three|four|five|six|seven|eight|nine|ten|twenty|fifty)\s+grand\b(?!\s+(?:total|prix|scheme|plan|jury))/gi, (_m, n: string) => `${n} thousand dollars`);
  s = s.replace(/\b(\d+|a|one|two|three|four|five|six|seven|eight|nine|ten)\s+and\s+a\s+half\s+(hundred|thousand|million|k)\b/gi, (m, n: string, scale: string) => {
    const base = /^\d+$/.test(n) ? Number(n) : leadingNumber(n.toLowerCase() === "a" ? "one" : n)?.value ?? null;
    if (base === null) return m;
    const mult = /^hundred$/i.test(scale) ? 100 : /^million$/i.test(scale) ? 1e6 : 1e3;
    return String((base + 0.5) * mult);
  });
  return s;
}
