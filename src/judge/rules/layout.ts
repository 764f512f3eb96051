/**
 * The layout owners wrap their rules in, reduced to plain lines before the words are read: a JSON object of rules
 * becomes one `key: value` line per field, markdown markup (`#` headings, `**bold**`, `inline code`) is dropped,
 * snake_case config keys become words, a config switch set to off ("usd_send: no") becomes a prohibition, a line
 * written in capitals ("SCHEDULE 4 - PAYMENT AGENT") is lower-cased except for its token symbols, and legal
 * numbering ("3.2 The Agent shall not ...", "Schedule 4") stops looking like quantities.
 *
 * Invariant: every rewrite keeps the words that carry a rule; it only removes markup or renames a layout
 * element, so a rule the reader could not see before is never hidden by it.
 */
import { KNOWN_TOKENS } from "./vocab";

/** `{"max_per_tx": "2.5k USDC", "tokens": ["USDC"]}` -> "max_per_tx: 2.5k USDC\ntokens: USDC". */
function flattenJson(value: unknown, prefix: string, out: string[]): void {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) flattenJson(v, prefix ? `${prefix} ${k}` : k, out);
    return;
  }
  // A list of objects is a table: one "- key: value" item per object, which structure/rows.ts reads as rows.
  if (Array.isArray(value) && value.length > 0 && value.every((v) => v !== null && typeof v === "object" && !Array.isArray(v))) {
    out.push(`${prefix}:`);
    for (const o of value as Array<Record<string, unknown>>)
      Object.entries(o).forEach(([k, v], i) => out.push(`${i === 0 ? "- " : "  "}${k}: ${typeof v === "object" && v !== null ? JSON.stringify(v) : String(v)}`));
    return;
  }
  const text = Array.isArray(value) ? value.map((v) => (typeof v === "object" && v !== null ? JSON.stringify(v) : String(v))).join(", ") : String(value);
  out.push(prefix ? `${prefix}: ${text}` : text);
}

function jsonLines(raw: string): string {
  return raw.replace(/^[ \t]*(\{[^\n]*\}|\{[\s\S]*?\n\})[ \t]*$/gm, (block: string) => {
    try {
      const parsed: unknown = JSON.parse(block);
      if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return block;
      const out: string[] = [];
      flattenJson(parsed, "", out);
      return out.join("\n");
    } catch {
      return block;
    }
  });
}

/** A word written in capitals that is not a token symbol: "SCHEDULE", "PAYMENT", "ONLY". */
const isShouted = (w: string): boolean => /^[A-Z]{3,}$/.test(w) && !KNOWN_TOKENS.has(w.toLowerCase());

/** A line in capitals: its English words are lower-cased so they are not read as token symbols. */
function unshout(line: string): string {
  const words = line.match(/[A-Za-z][A-Za-z0-9]*/g) ?? [];
  if (words.length < 2 || /[a-z]/.test(line.replace(/\b0x[0-9a-fA-F]+\b|§[a-z]\d+|\b[a-z]+:\/\/\S+/g, "")) || words.filter(isShouted).length < 2) return line;
  return line.replace(/\b[A-Z][A-Z0-9]*\b/g, (w) => (isShouted(w) ? w.toLowerCase() : w));
}

const OFF = /^(?:no|none|false|off|disabled|never|not allowed|not permitted)$/i;
/** "max leverage: none", "daily limit: off": a limit switched off is not a prohibition. */
const LIMIT_KEY = /\b(?:max(?:imum)?|min(?:imum)?|limits?|caps?|budgets?|ceiling)\b/i;

/** JSON and markdown, undone before owners' document styles (styles.ts) read the config lines they become. */
export function unwrapLayout(raw: string): string {
  const s = raw.includes("{") ? jsonLines(raw) : raw;
  // Markdown: headings, emphasis and inline code are markup, not words.
  return s.replace(/^[ \t]*#{1,6}[ \t]+/gm, "").replace(/\*\*|__|`/g, "");
}

export function normaliseLayout(raw: string): string {
  let s = raw.split("\n").map(unshout).join("\n");
  // "3.2 The Agent shall not ...", "§ 4.1 Payments ...": a clause number at the start of a line.
  s = s.replace(/(^|\n)[ \t]*(?:§\s*)?\d{1,2}(?:\.\d{1,2}){1,3}\.?[ \t]+(?=[A-Z](?:[a-z]|\s))/g, "$1");
  // "Schedule 4", "Section 3.2", "Annex B": the name of a part of the document.
  s = s.replace(/\b(schedule|section|article|annex|appendix|exhibit|clause|chapter)\s+(?:\d{1,3}(?:\.\d{1,3})*|[A-H])\b(?!\s*(?:%|x\b|[A-Za-z$]))/gi, "$1");
  // Config keys in snake_case ("max_per_tx:", "usd_send =") are words.
  s = s.replace(/^([ \t]*(?:[-*•][ \t]+)?)([A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+)(?=[ \t]*[:=])/gm, (_m, pre: string, key: string) => pre + key.replace(/_/g, " "));
  // "order_size_usd: <= 900": a key in dollars makes its bare figures dollars.
  s = s.replace(/^([ \t]*(?:[-*•][ \t]+)?[A-Za-z][\w ]*?[_ ]usd[ \t]*[:=][^\n\d$]*?)(\d)/gim, "$1$$$2");
  // "chain: base", "network = arbitrum": the value names a chain even in lower case.
  s = s.replace(/^([ \t]*(?:[-*•][ \t]+)?(?:chains?|networks?)[ \t]*[:=][ \t]*)([a-z][\w -]*)$/gim, (_m, head: string, v: string) => head + v.replace(/\b[a-z]/g, (ch) => ch.toUpperCase()));
  // "usd send: no", "withdrawals = false": a switch set to off forbids what it names. The key is the words after the
  // line's last sentence end: in "ETH perps. leverage changes: no" the key is "leverage changes" (taken from the line's
  // start, "no ETH perps. leverage changes" refused ETH and left "leverage changes" a permission: a change on another
  // coin was allowed).
  s = s.replace(/^((?:[^\n]*?[.;!?][ \t]+)?[ \t]*(?:[-*•][ \t]+)?)([A-Za-z](?:[\w /-]|\.(?![ \t]))(?:[\w /-]|\.(?![ \t])){0,39}?)[ \t]*[:=][ \t]*([^\n]*?)[ \t]*\.?[ \t]*$/gm, (m, pre: string, key: string, value: string) =>
    OFF.test(value) && !LIMIT_KEY.test(key) ? `${pre}no ${key.trim()}` : m,
  );
  return s;
}

/**
 * Defined terms: `'Approved Payees' means the addresses listed in context.approved_payees` makes every later
 * "Approved Payee(s)" that list, and the definition itself is no rule. A term defined by a description
 * (`'USDC' means the USD Coin contract on Base`) keeps the description, which narrows (here: to Base).
 * `s` is protected text: quotes are `§qN`, context paths `§cN`.
 */
export function applyDefinitions(s: string, quotes: string[]): string {
  const DEF = /§q(\d+)\s+(?:means|shall mean|refers to|is defined as)\s+(?:(?:the|any|all|those)\s+)?(?:[\w-]+\s+){0,3}?(?:listed\s+|named\s+|set out\s+|held\s+)?(?:in|at|under|from)\s+(§c\d+)\s*(?=[.;\n]|$)/g;
  const defs: Array<[string, string]> = [];
  s = s.replace(DEF, (_m, q: string, ref: string) => {
    const term = quotes[Number(q)];
    if (term) defs.push([term, ref]);
    return "";
  });
  for (const [term, ref] of defs) {
    const stemmed = term.trim().replace(/s$/i, "").replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    if (stemmed.length < 3) continue;
    s = s.replace(new RegExp(`\\b(?:an?\\s+|the\\s+)?${stemmed.replace(/\s+/g, "\\s+")}s?\\b`, "gi"), ` ${ref} `);
  }
  return s.replace(/§q\d+\s+(?:means|shall mean|refers to|is defined as)\s+/g, "");
}
