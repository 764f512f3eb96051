/**
 * A safety net under every reader: an asset a rule names must end up in what the rule was read as.
 *
 * Readers consume the words they explain. A reader that consumes an asset and produces nothing for it turns a
 * scope into nothing: "Long or short on ETH perp is fine, max $5000 per order" was read as a $5,000 cap alone
 * (the both-sides reader took "long or short", another took "ETH perp"), so a BTC order was allowed. Whatever
 * reader did it, the invariant is checked here once: when a granting sentence produced constraints and a
 * well-known token it names appears in none of them (no list, no cap unit, no scope), the token is unread and the
 * clause is not understood. Stablecoins are exempt: they quote prices and measure caps ("$5k in USDC") far more often than
 * they scope anything, and a cap in dollars already measures them.
 */
import type { Constraint } from "../types";
import { KNOWN_TOKENS, USD_STABLES } from "../vocab";
import { asSymbol } from "./state";

const QUOTED = new Set(["rule", "when", "quote", "text", "question", "clause"]);

/** A clause that grants ("may", "is fine", "allowed", or a bare "go long or short on ...") and negates nothing. */
const GRANTS = /\b(?:may|can|allowed|permitted|fine|ok|okay|free to|go ahead)\b|^\s*(?:go|trade|open|buy|sell|long|short)\b/i;
const NEGATES = /\b(?:not|no|never|nor|cannot|without)\b|n't\b/i;

/**
 * Well-known tokens a granting clause names that no constraint of its sentence mentions. Only a grant is checked:
 * there a vanished asset is a scope lost, and the grant it leaves behind permits every asset. In other clauses an
 * asset is as often a price reference ("at the context SOL price") or a label ("the BTC bot"), and the readers
 * that drop it there drop nothing that permits.
 */
export function vanishedAssets(clause: string, sentence: readonly Constraint[]): string[] {
  if (sentence.length === 0 || !GRANTS.test(clause) || NEGATES.test(clause)) return [];
  // The rule's own words are quoted in every constraint; only what was read out of them counts.
  // A token as a cap's unit ("max 2 ETH") is explained by the figure it follows; named anywhere else in a grant it
  // is a scope, which a cap unit does not keep ("long or short on ETH perp, max 2 ETH per order" holds BTC orders).
  const used = JSON.stringify(sentence, (k, v: unknown) => (QUOTED.has(k) || k === "unit" ? undefined : v)).toUpperCase();
  const out: string[] = [];
  for (const w of clause.replace(/\d[\d,.]*\s*(?:k|m)?\s*[A-Za-z][A-Za-z0-9]{1,9}\b/gi, " ").split(/[^A-Za-z0-9]+/)) {
    const sym = asSymbol(w);
    if (!sym || !KNOWN_TOKENS.has(sym.toLowerCase()) || USD_STABLES.has(sym)) continue;
    if (!new RegExp(`\\b[A-Z]*${sym}[A-Z0-9]*\\b`).test(used)) out.push(w);
  }
  return [...new Set(out)];
}
