/**
 * What a permission or prohibition names, as lists by dimension: the items the clause gives (assets, venues, chains,
 * hosts, markets, recipients...) and, on a prediction venue or after "markets about ...", the market categories it
 * describes ("US politics markets only", "bet only on NBA Finals 2026 markets").
 */
import type { ListDim } from "../types";
import { consume, scan, type Clause } from "../text";
import type { Items } from "./items";
import { subKindsAt, topicAfter } from "./market-scope";
import type { ParseState } from "./state";

/** Topic lists for prediction markets: "US politics markets only", "bet only on NBA Finals 2026 markets". */
export function takeTopic(c: Clause, st: ParseState): string[] {
  // Rules that never say "Polymarket" or "bet" still describe markets ("buy only in the markets about the price of
  // bitcoin"): the description after "markets" is read there too, or its words would be silently ignored.
  const described = /\bmarkets?\s+(?:on|about|covering|concerning|regarding|related\s+to|tied\s+to|involving)\b/i.test(c.text);
  if (!st.prediction && !described) return [];
  const topics: string[] = [];
  scan(c, /\bmarkets?\b/gi, (m) => {
    // Walk back over unconsumed words to the previous consumed text or punctuation.
    let start = m.index;
    while (start > 0 && !c.used[start - 1] && !/[,;:()]/.test(c.text[start - 1])) start--;
    const words = c.text.slice(start, m.index).split(/\s+/).filter(Boolean);
    while (words.length && /^(only|just|on|in|into|the|bet|bets|trade|trading|to|of|about|for|and|may|you|can|im|i'm|we're|were|interested|markets?|allowed|permitted|approved|eligible|whitelisted|allowlisted)$/i.test(words[0])) words.shift();
    // "nba finals + stanley cup": each side of "+", "&", "and", "or", "/" is its own category.
    const parts = words.join(" ").split(/\s*(?:\+|&|\/|,|\band\b|\bor\b)\s*/).map((p) => p.trim()).filter(Boolean);
    // "only in markets on the 2026 midterms (House, Senate ...)": the description follows "markets".
    if (parts.length === 0 || !st.prediction) {
      if (parts.length > 0) return false;
      const after = topicAfter(c, m.index + m[0].length);
      if (!after) return false;
      topics.push(...after.topics);
      consume(c, start, m.index);
      consume(c, after.start, after.end);
      return;
    }
    if ( parts.some((p) => p.split(" ").length > 6) || words.length > 10 || words.some((w) => /^(no|not|never|except|unless|other|any|all)$/i.test(w))) return false;
    // "Prediction-market mandate": the name of the policy, not a category of markets.
    if (words.some((w) => /-$|^(?:prediction|polymarket|kalshi|betting)$/i.test(w)) || /^\S*\s*(?:mandate|policy|rules|bot|agent|config|desk)\b/i.test(c.text.slice(m.index + m[0].length))) return false;
    // "entertainment markets (Oscars, Grammys, box office)": the kinds the category covers.
    const subs = parts.length === 1 ? subKindsAt(c, m.index + m[0].length) : null;
    topics.push(...(parts.length > 1 ? parts : [subs ? `${words.join(" ")} (${subs.text})` : words.join(" ")]));
    consume(c, start, m.index);
    if (subs) consume(c, subs.start, subs.end);
  });
  return topics;
}

/** The lists a clause names, by dimension, for the activities it permits or forbids. */
export function listsFrom(it: Items, topics: string[]): Array<[ListDim, string[]]> {
  const out: Array<[ListDim, string[]]> = [
    ["asset", it.assets],
    ["venue", it.venues],
    ["chain", it.chains],
    ["host", it.hosts],
    ["market", it.markets],
    ["outcome", it.outcomes],
    ["topic", topics],
    ["recipient", it.recipients],
    ["spender", it.spenders],
    ["contract", it.contracts],
    ["assetClass", it.classes],
  ];
  return out.filter(([, v]) => v.length > 0);
}
