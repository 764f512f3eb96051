/**
 * "Pay USDC to the lab's account X, up to 400 USDC a payment. Everything not covered above needs my sign-off."
 * A closer that sends the rest to a human (only_listed with `ask`) also reaches an action of a granted kind that falls
 * outside the grant's own lists (WETH to the lab, USDC to someone else): the owner asked to be asked, not to refuse.
 *
 * Only a list that a grant produced and nothing else restricts: the grant's sentence has no restricting word ("only",
 * "never", "not", "except", ...), no refusing closer covers the action, and no prohibition names its kind. The finding
 * moves from BLOCK to ESCALATE, never further: a gate closer cannot let anything through.
 */
import type { ActionView, Constraint, Finding } from "../types";

const RESTRICTING = /\b(?:only|just|solely|exclusively|never|not|no|nothing|none|except|unless|but|nobody|no-one)\b|n['’]t\b/i;

type Closer = Extract<Constraint, { kind: "only_listed" }>;

/** The gate closer that takes this list's violations to a human, or null when they stay violations. */
export function gateForList(c: Extract<Constraint, { kind: "allow" | "deny" }>, cs: Constraint[], view: ActionView): Closer | null {
  if (c.kind !== "allow" || RESTRICTING.test(c.rule) || !cs.some((k) => k.kind === "permit" && k.rule === c.rule)) return null;
  const closers = cs.filter((k): k is Closer => k.kind === "only_listed");
  const covers = (k: Closer) => view.activities.every((a) => !k.activities || k.activities.includes(a));
  const gate = closers.find((k) => k.ask && covers(k));
  if (!gate || closers.some((k) => !k.ask && covers(k))) return null;
  if (cs.some((k) => k.kind === "forbid" && k.activities.some((a) => view.activities.includes(a)))) return null;
  return gate;
}

export function toGate(found: Finding[], gate: Closer): Finding[] {
  return found.map((f) => (f.type === "violation" ? { type: "escalate", message: `${f.message.replace(/\.$/, "")}, and the rules send what they do not cover to a human ("${gate.rule}")` } : f));
}
