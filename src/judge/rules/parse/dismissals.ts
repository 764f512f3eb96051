/**
 * "testnet payments are useless to us, dont bother with those", "memecoins are pointless for this desk": the owner
 * dismisses what the sentence names. Its words read like a list ("testnets payments" named two testnets), but
 * nothing in it permits anything: what it names is ruled out. A dismissal that produced only a permission and lists
 * of chains, assets or venues becomes the denial of those; one that produced anything else is left as it was read
 * (never widened). "dont bother with those", "don't make them" after it restate it.
 */
import type { Constraint } from "../types";

const DISMISS = /\b(?:useless|pointless|worthless|of\s+no\s+use|no\s+use\s+to|not\s+worth\s+it|not\s+needed|unnecessary|irrelevant)\b/i;
/** "dont bother (with those)", "no need for them": the dismissal restated, after it in the same sentence. */
// "don't make them", "never send those", "skip them": a verb with only a pronoun for its object says the same.
export const RESTATED_DISMISSAL =
  /^\s*(?:so\s+|just\s+)?(?:(?:don['’]?t|do\s+not|dont|no\s+need\s+to)\s+(?:even\s+)?bother(?:\s+(?:with|about)\s+(?:those|them|that|it|these))?|(?:(?:please\s+)?(?:don['’]?t|do\s+not|dont|never)\s+(?:make|do|send|pay|use|place|try|attempt|sign)|skip|avoid|ignore|refuse)\s+(?:any\s+(?:of\s+)?)?(?:those|them|that|it|these)(?:\s+(?:ever|at\s+all))?)\s*[.!]?\s*$/i;

export const isDismissal = (sentence: string): boolean => DISMISS.test(sentence);

/** Turns the lists a dismissal produced (from `from` on) into denials; false when it produced anything else. */
export function settleDismissal(sentence: string, cs: Constraint[], from: number): boolean {
  if (!isDismissal(sentence)) return false;
  const own = cs.slice(from);
  const lists = own.filter((k) => k.kind === "allow" && ["chain", "asset", "venue"].includes(k.dim) && !k.refs?.length);
  if (lists.length === 0 || !own.every((k) => k.kind === "permit" || lists.includes(k))) return false;
  const denials: Constraint[] = lists.map((k) => (k.kind === "allow" ? { kind: "deny", dim: k.dim, values: k.values, activities: [], rule: k.rule } : k));
  cs.splice(from, cs.length - from, ...denials);
  return true;
}
