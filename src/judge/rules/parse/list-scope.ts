/**
 * A list belongs to the activity of the clause it was stated in. The sentence readers leave some lists bound to no
 * activity (so they would bind every action): "no SOL leaves this wallet, except topping up my hot wallet
 * (context.hot_wallet)" names who may receive a send, not which validator a stake may go to; "USDC can go between
 * master and any sub-account in context.subaccounts" names the own accounts a move may touch, not where a withdrawal
 * goes. This pass gives such a list the activities its own clause permits, and nothing more.
 *
 * Fail closed by structure: a list is only ever narrowed to activities its own clause permits in so many words (a
 * permit read from the same clause); an action of those activities is still checked against it. An action of another
 * activity escapes this list only to meet the scope check (checks/scope.ts), which blocks or holds anything no clause
 * permits. A list whose clause permits nothing is left on every action.
 */
import type { Activity, Constraint } from "../types";

type ListC = Extract<Constraint, { kind: "allow" | "deny" }>;

/** "sub-account", "sub accts", "subaccounts", "context.sub_accounts": the account's own sub-accounts. */
const SUB_RE = /\bsub[\s_-]?acc(?:oun)?ts?\b|\bsub[\s_-]?accounts?\b/i;
/** Words that make a clause a prohibition rather than a permission. */
const NEGATION_RE = /\b(?:no|not|never|nothing|none|don'?t|doesn'?t|cannot|can'?t|mustn'?t|forbid\w*|prohibit\w*)\b/i;

const sameClause = (cs: Constraint[], rule: string): Constraint[] => cs.filter((k) => k.rule === rule);

/** Activities the clause's own permits name. */
function clausePermits(cs: Constraint[], rule: string): Activity[] {
  return [...new Set(sameClause(cs, rule).flatMap((k) => (k.kind === "permit" ? k.activities : [])))];
}

/** A list naming the account's own sub-accounts, by its context path or its clause's words. */
function namesSubAccounts(k: ListC): boolean {
  return k.dim === "recipient" && ((k.refs ?? []).some((r) => SUB_RE.test(r)) || SUB_RE.test(k.rule));
}

/**
 * Mutates only (no constraint is added or removed), so the sentence spans the grants read stay valid. Returns the
 * permits to add once the grants are built: a sub-account list's clause that permits moving between the account's
 * own places ("USDC can go between master and any sub-account") with no verb the readers took as a permission.
 */
export function scopeListsToClause(cs: Constraint[]): Constraint[] {
  const add: Constraint[] = [];
  for (const k of cs) {
    if (k.kind !== "allow" || k.grantId !== undefined) continue;
    const sub = namesSubAccounts(k);
    // "move USDC master -> sub accts in context.subaccounts": moving to one's own sub-account is an internal move,
    // whatever verb carried it; the clause's permit, its lists and its caps reach that move too.
    if (sub && !NEGATION_RE.test(k.rule)) {
      const permits = sameClause(cs, k.rule).filter((p): p is Extract<Constraint, { kind: "permit" }> => p.kind === "permit");
      if (permits.length) {
        for (const p of permits) if (!p.activities.includes("internal_transfer")) p.activities.push("internal_transfer");
      } else if (k.activities.length === 0 || k.activities.every((a) => a === "internal_transfer")) {
        add.push({ kind: "permit", activities: ["internal_transfer"], rule: k.rule });
        for (const x of sameClause(cs, k.rule)) if (x.kind === "allow" && x.activities.length === 0 && (x.dim === "asset" || x.dim === "recipient")) x.activities = ["internal_transfer"];
        continue;
      }
      for (const x of sameClause(cs, k.rule)) {
        if (x.kind === "allow" && x.activities.length && (x.dim === "asset" || x.dim === "recipient") && !x.activities.includes("internal_transfer")) x.activities.push("internal_transfer");
        if (x.kind === "cap" && x.activities?.length && !x.activities.includes("internal_transfer")) x.activities.push("internal_transfer");
      }
    }
    if (k.activities.length || k.dim !== "recipient") continue;
    const acts = clausePermits(cs, k.rule);
    if (acts.length) k.activities = sub && !acts.includes("internal_transfer") ? [...acts, "internal_transfer"] : acts;
  }
  // Per-action caps of the same clauses: "max $10k a move" in a line permitting moves counts those moves, not a stake.
  for (const k of cs) {
    if (k.kind !== "cap" || k.period !== "action" || k.scope !== "any" || k.activities?.length || k.grantId !== undefined || k.to) continue;
    const lists = sameClause(cs, k.rule).filter((x): x is ListC => x.kind === "allow" && x.dim === "recipient");
    if (lists.length === 0) continue;
    const acts = clausePermits(cs, k.rule);
    if (acts.length) k.activities = [...acts];
  }
  return add;
}
