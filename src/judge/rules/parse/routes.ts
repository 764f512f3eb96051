/**
 * Asset routes and closing restrictions. "SOL may only go to our deposit address X" names where one asset may
 * be sent: a recipient list bound to that asset, not an asset allowlist for every action. "Nothing else is
 * permitted" closes the list of permitted actions: what no sentence permits is then outside the rules.
 */
import type { Constraint } from "../types";
import { consume, scan, type Clause } from "../text";
import { add, asSymbol, uniq, type ParseState } from "./state";

const ROUTE_RE =
  /^\s*(?:all\s+|any\s+|our\s+)?([A-Za-z][A-Za-z0-9]{1,9}(?:\s*(?:,|and|or|\/|&)\s*[A-Za-z][A-Za-z0-9]{1,9}){0,4})\s+(?:transfers?\s+|payments?\s+|payouts?\s+|withdrawals?\s+|sends?\s+)?(?:may|can|should|must|shall|will|is to|are to)?\s*(?:only\s+)?(?:ever\s+)?(?:go|be sent|be paid(?: out)?|be transferred|be moved|be withdrawn|flow|leave)\s+(?:only\s+)?(?:to|into)\b/i;

/** The assets a route clause is about, consuming its subject and verb; null when the clause is not a route. */
export function routeAssets(c: Clause): string[] | null {
  const m = ROUTE_RE.exec(c.text);
  if (!m || c.used.slice(0, m[0].length).some(Boolean)) return null;
  const words = m[1].split(/\s*(?:,|\band\b|\bor\b|\/|&)\s*/).filter(Boolean);
  const syms = words.map((w) => asSymbol(w));
  if (syms.length === 0 || syms.some((s) => !s)) return null;
  consume(c, m.index, m.index + m[0].length);
  return uniq(syms as string[]);
}

const EXHAUSTIVE_RE =
  /^\s*(?:and\s+)?(?:(?:nothing|no other (?:actions?|activit(?:y|ies)|transactions?|operations?))(?:\s+else)?\s+(?:is|are)?\s*(?:permitted|allowed|ok|okay|authori[sz]ed)|(?:anything|everything)\s+else\s+(?:is\s+)?(?:forbidden|prohibited|not allowed|not permitted|banned|off[- ]limits)|nothing\s+else)(?:,?\s+(?:please|pls|plz|thanks|thx|thank you))?\s*$/i;

export function parseExhaustive(c: Clause, st: ParseState, rule: string): boolean {
  let hit = false;
  scan(c, EXHAUSTIVE_RE, () => {
    hit = true;
    add(st, { kind: "only_listed", rule });
  });
  return hit;
}

/** One asset allowlist for moves: the union of every route's assets ("SOL may go to X. USDC may go to Y."). */
export function routeAssetList(cs: Constraint[]): Constraint | null {
  const routes = cs.filter((k): k is Extract<Constraint, { kind: "allow" | "deny" }> => k.kind === "allow" && !!k.forAssets?.length && k.grantId === undefined);
  if (routes.length === 0) return null;
  const values = uniq(routes.flatMap((r) => r.forAssets ?? []));
  return { kind: "allow", dim: "asset", values, activities: ["transfer", "payment", "withdrawal", "bridge"], rule: uniq(routes.map((r) => r.rule)).join("; ") };
}
