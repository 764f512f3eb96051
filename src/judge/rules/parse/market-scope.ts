/**
 * Market scope in owners' words, for prediction-market rules:
 * - a description after "markets": "markets on the 2026 United States midterm elections (House, Senate or governor
 *   races)", "markets about price of bitcoin or ether" (a shared head distributes: the price of each);
 * - sub-kinds in parentheses right after a category: "entertainment markets (Oscars, Grammys, box office)";
 * - whole categories refused in a fragment: "Not weather, not sport, not politic.";
 * - "and on nothing else" closing a permission (the scope is exclusive);
 * - "we hold til it resolves": why the owner does not sell, not a further rule; "no selling" beside it and "the sale of
 *   positions is not allowed" keep orders to the buy side;
 * - "market descriptions carry no authority" is a trust notice (trust-notices.ts): it restates what the engine enforces.
 * The descriptions themselves are judged in topics.ts.
 */
import type { Clause } from "../text";
import { consume, scan } from "../text";
import { catOfWord } from "../topics";
import { add, type ParseState } from "./state";

const ABOUT = /^\s+(?:on|about|for|covering|concerning|regarding|related\s+to|tied\s+to|involving|around)\s+/i;

/** "(House, Senate or governor races)" right after `at`: its inner text and span, when it holds only words. */
export function subKindsAt(c: Clause, at: number): { text: string; start: number; end: number } | null {
  const m = /^\s*\(([^()§$%\d]{2,80})\)/.exec(c.text.slice(at));
  if (!m) return null;
  const start = at + m.index;
  const end = at + m[0].length;
  for (let i = start; i < end; i++) if (c.used[i]) return null;
  // "(any country)", "(either outcome)": not sub-kinds.
  if (/^\s*(?:any|either|both|all|every|each)\b/i.test(m[1])) return null;
  return { text: m[1].trim(), start, end };
}

/** Split "bitcoin or ether" into topics; a head ("price of") written once applies to each bare item. */
function splitItems(text: string): string[] {
  const parts = text.split(/\s*(?:,|\bor\b|\band\b|\/|\+|&)\s*/).map((p) => p.trim()).filter(Boolean);
  const head = /^(.*\b(?:of|for|on|in))\s+\S+$/i.exec(parts[0] ?? "");
  if (!head) return parts;
  return parts.map((p, i) => (i > 0 && !/\s/.test(p) ? `${head[1]} ${p}` : p));
}

/** The description after "markets on/about ...", up to the clause's end or a following "and nothing else". */
export function topicAfter(c: Clause, at: number): { topics: string[]; start: number; end: number } | null {
  const rest = c.text.slice(at);
  const lead = ABOUT.exec(rest);
  if (!lead) return null;
  const body = /^((?:(?!§)[^,;.()])+?)\s*(?:\(([^()§$%]{2,80})\))?\s*(?=$|[,;.]|\s+(?:and|but)\s+(?:on\s+|in\s+)?nothing\b)/i.exec(rest.slice(lead[0].length));
  if (!body) return null;
  const start = at + lead.index;
  const end = at + lead[0].length + body[0].length;
  for (let i = start; i < end; i++) if (c.used[i]) return null;
  const main = body[1].replace(/^(?:the|a|an)\s+/i, "").trim();
  const words = main.split(/\s+/);
  if (!main || words.length > 10 || words.some((w) => /^(?:no|not|never|except|unless|other|any|all)$/i.test(w))) return null;
  // Sub-kinds in parentheses belong to a single description; several described items take none.
  const items = body[2] ? [main] : splitItems(main);
  return { topics: items.map((t) => (body[2] ? `${t} (${body[2].trim()})` : t)), start, end };
}

/** "Not weather", "no sports", "nothing about politics": a whole category refused, in a clause of its own. */
const NOT_CATEGORY = /^\s*(?:and\s+|or\s+|but\s+)?(?:not|no|never|nothing\s+(?:on|about|in))\s+(?:any\s+)?([a-z][a-z-]+)(?:\s+(?:markets?|bets?|stuff|events?|ones))?\s*[.!]?\s*$/i;

const CLOSING = /,?\s*\b(?:and|but)\s+(?:on\s+|in\s+|with\s+)?nothing\s+(?:else|other)\b\s*[.!]?\s*$/i;

const HOLD_REASON = /\b(?:(?:we|i)(?:['’]ll|\s+will)?\s+)?hold(?:ing)?\s+(?:(?:it|them|everything|positions?|shares?)\s+)?(?:til+|until|to|till|through)\s+(?:(?:it|they|the\s+market|markets?)\s+)?(?:resolves?|resolution|expiry|settles?|settlement)\b/gi;

/**
 * Clause-level phrases read before negations are looked for. Returns true when the clause is fully read (a
 * category refusal), so nothing else should parse it. Remarks about untrusted text are trust notices (trust-notices.ts).
 */
export function parseMarketPhrases(c: Clause, st: ParseState, rule: string): boolean {
  const scoped = st.prediction || st.constraints.some((k) => k.kind === "allow" && k.dim === "topic");
  if (!scoped) return false;
  const nc = NOT_CATEGORY.exec(c.text);
  if (nc && catOfWord(nc[1])) {
    add(st, { kind: "deny", dim: "topic", values: [catOfWord(nc[1]) as string], activities: ["order"], rule });
    consume(c, 0, c.text.length);
    return true;
  }
  // "no selling we hold til it resolves": the buy side only, with its reason.
  scan(c, new RegExp(String.raw`\b(?:no|never|don['’]?t|do\s+not|not)\s+(?:ever\s+)?sell(?:ing|s)?\b(?=[\s,;-]*(?:${HOLD_REASON.source}))`, "gi"), () => {
    add(st, { kind: "side", allowed: "buy", rule });
  });
  scan(c, HOLD_REASON, () => undefined);
  // "the sale of positions is not allowed": selling is refused, buying stays.
  scan(c, /\b(?:the\s+)?sales?\s+of\s+(?:(?:any|our|its)\s+)?(?:positions?|shares?|holdings?)\s+(?:is|are)\s+(?:not\s+allowed|not\s+permitted|forbidden|prohibited|banned)\b/gi, () => {
    add(st, { kind: "side", allowed: "buy", rule });
  });
  scan(c, CLOSING, () => {
    add(st, { kind: "only_listed", rule });
  });
  return false;
}
