/**
 * Identifying a prediction market against a list the rules point at. Owners keep such lists in whatever their
 * tooling gives them: token ids, questions, slugs or condition ids, as an array of strings, as a map keyed by any
 * of these, or as entries carrying them. The order names only its token id; the context's market map (the same
 * table the adapter reads the question from) supplies the other identifiers of that token.
 *
 * Invariant: only identifying fields are read (token id, question, slug, condition id). A market's description,
 * category or notes are written by whoever created the market and never place it on a list.
 */
import { isRec } from "../context";

type Ctx = Record<string, unknown> | null;

/** The comparison form of a market identifier: lower case, runs of anything but letters and digits as one space. */
export const normMarket = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]+/g, " ").trim();

const ID_FIELDS = ["question", "market", "title", "slug", "market_slug", "marketSlug", "conditionId", "condition_id", "tokenId", "token_id", "tokenID", "id"];
const ID_LISTS = ["tokens", "token_ids", "tokenIds", "clobTokenIds", "outcomes_tokens"];

/** The identifying strings of one list entry or market-map entry (never its description). */
function idsOfEntry(x: unknown): string[] {
  if (typeof x === "string") return [x];
  if (typeof x === "number" && Number.isSafeInteger(x)) return [String(x)];
  if (!isRec(x)) return [];
  const out: string[] = [];
  for (const k of ID_FIELDS) if (typeof x[k] === "string" || typeof x[k] === "number") out.push(String(x[k]));
  for (const k of ID_LISTS) {
    const v = x[k];
    if (Array.isArray(v)) for (const t of v) if (typeof t === "string" || typeof t === "number") out.push(String(t));
    // Polymarket's API gives clobTokenIds as a JSON-encoded array string.
    if (typeof v === "string" && /^\s*\[/.test(v)) {
      try {
        const arr: unknown = JSON.parse(v);
        if (Array.isArray(arr)) for (const t of arr) if (typeof t === "string") out.push(t);
      } catch {
        /* not a list: ignored */
      }
    }
  }
  return out;
}

/** Every identifier a context market list holds, normalised: array items, map keys and the entries' ids. */
export function marketListIds(val: unknown): string[] {
  const out: string[] = [];
  if (Array.isArray(val)) for (const x of val) out.push(...idsOfEntry(x));
  else if (isRec(val))
    for (const [k, x] of Object.entries(val)) {
      out.push(k);
      out.push(...idsOfEntry(x));
    }
  else if (typeof val === "string") out.push(val);
  return out.map(normMarket).filter(Boolean);
}

const MARKET_TABLES = ["markets", "tokens", "polymarket"];

/** The identifiers of the market a token id belongs to, from the context's market map (token id included). */
export function marketIdsOfToken(tokenId: string, ctx: Ctx): string[] {
  const out = [tokenId];
  if (isRec(ctx))
    for (const t of MARKET_TABLES) {
      const table = ctx[t];
      if (!isRec(table)) continue;
      const e = table[tokenId];
      if (e !== undefined) {
        out.push(...idsOfEntry(e));
        break;
      }
    }
  return out.map(normMarket).filter(Boolean);
}
