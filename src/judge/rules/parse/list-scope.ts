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
import { OUT_OF_ACCOUNT } from "../activity-words";
import { spendersOf } from "../known-spenders";
import { sentenceActivities } from "./clause-activity";
import type { ClauseReading } from "./reading";

type ListC = Extract<Constraint, { kind: "allow" | "deny" }>;

/** Every way value leaves the account (a move between its own balances stays inside). */
const LEAVES: Activity[] = OUT_OF_ACCOUNT.filter((a) => a !== "internal_transfer");

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
export function scopeListsToClause(cs: Constraint[], readings: readonly ClauseReading[] = []): Constraint[] {
  const add: Constraint[] = [...headingPermits(cs, readings)];
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
    let acts = clausePermits(cs, k.rule);
    // "nothing in SOL goes out other than a refill of my hot wallet (context.hot)": the exception's own cap names
    // where sends may go; the list binds every way value leaves, never a delegation or an order.
    if (acts.length === 0 && cs.some((x) => x.rule === k.rule && x.kind === "cap" && x.scope === "transfer" && x.to)) acts = LEAVES;
    if (acts.length) k.activities = sub && !acts.includes("internal_transfer") ? [...acts, "internal_transfer"] : [...acts];
  }
  // "approvals only to the Aave pool or to Permit2": a venue named in a line about approvals names the contracts
  // the approval may go to. An approval runs on the token's chain, never "on Aave", so the list is the spenders'.
  // A venue whose contracts are not known stays a venue list (and its approvals are refused, as before).
  const grants = (xs: readonly Activity[]): boolean => xs.length > 0 && xs.every((a) => a === "approval" || a === "permission");
  for (const k of cs) {
    if (k.kind !== "allow" || k.dim !== "venue" || !grants(k.activities) || k.grantId !== undefined) continue;
    const known = k.values.map((v) => spendersOf(v));
    if (known.some((xs) => xs.length === 0)) continue;
    const named = sameClause(cs, k.rule).flatMap((x) => (x.kind === "allow" && x.dim === "spender" ? x.values : []));
    k.dim = "spender";
    k.values = [...new Set([...known.flat(), ...named])];
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

/** "borrow: USDC only", "- withdrawals: cold wallet only": a line head naming one activity, then what it may touch. */
const HEAD_RE = /^\s*(?:[-*•]\s*)?([A-Za-z][\w /'-]{0,30}?)\s*:\s+(\S[^]*)$/;

/**
 * A line that is an activity's heading and its list permits that activity with that list: the readers bound the list
 * to the heading's activity but read no verb as a permission. Only a list bound to exactly the heading's activities,
 * in a line with no negation and no prohibition of its own, and no permit already.
 */
function headingPermits(cs: Constraint[], readings: readonly ClauseReading[]): Constraint[] {
  const out: Constraint[] = [];
  for (const r of readings) {
    const m = HEAD_RE.exec(r.clause);
    if (!m || NEGATION_RE.test(r.clause)) continue;
    const rule = m[2].trim();
    const own = cs.filter((k) => k.rule === rule);
    if (own.some((k) => k.kind === "permit" || k.kind === "forbid" || k.kind === "deny" || k.kind === "only_listed")) continue;
    const acts = sentenceActivities(`${m[1]}: x`);
    if (!acts) continue;
    const lists = own.filter((k): k is ListC => k.kind === "allow" && k.activities.length > 0 && k.activities.every((a) => acts.includes(a)));
    if (lists.length === 0) continue;
    out.push({ kind: "permit", activities: [...new Set(lists.flatMap((k) => k.activities))], rule });
  }
  return out;
}

/** "arb aave loop, rules:", "what the agent may do:": a title line, which introduces the rules and states none. */
const TITLE_RE = /(?:\brules?|\bpolicy|\bmandate|\bmay do|\bcan do|\bguidelines?|\binstructions?)\s*:\s*$/i;

/**
 * An asset read out of a title ("arb aave loop, rules:") is a name, not a list, when the rules below it name their
 * own assets and this one is none of them: taken as a list it would forbid every action the body permits. A title
 * asset the body also names, or a body that names no asset, keeps the list (it narrows, which only holds more).
 * Returns the constraints without those lists; run after the grants (it removes constraints).
 */
export function dropTitleAssets(cs: Constraint[]): Constraint[] {
  const title = (k: Constraint): boolean => k.kind === "allow" && k.dim === "asset" && k.activities.length === 0 && TITLE_RE.test(k.rule) && !cs.some((x) => x !== k && x.rule === k.rule && x.kind === "permit");
  const body = new Set(cs.flatMap((k) => (k.kind === "allow" && k.dim === "asset" && !title(k) ? k.values : [])));
  if (body.size === 0) return cs;
  return cs.filter((k) => !(k.kind === "allow" && title(k) && k.values.every((v) => !body.has(v))));
}

/** "Vendors are in context.vendors", "our payees live in context.payees": a line that names a group, nothing more. */
const DEFINES_RE = /^\s*(?:(?:our|my|the)\s+)?([A-Za-z][\w-]*?)s?\s+(?:are|is|live|sit)\s+(?:listed\s+)?(?:in|at|under)\s+§?/i;

/**
 * A group named in a line of its own is the list of the permission that speaks of it ("Vendors are in
 * context.vendors; the agent pays their invoices in USDC" beside "it may send up to 0.05 ETH to my hot wallet"): it
 * is folded into the grant whose words name the group (or "their", "them") and that names no recipient of its own,
 * and so binds that permission's moves, not the gas top-up another line permits to its own recipient.
 *
 * Fail closed: folded only when every grant covering moves then has a recipient list (the group's or its own), so
 * no move is left unchecked; otherwise the group's list stays on every action, as it was.
 */
export function foldGroupLists(cs: Constraint[]): void {
  const grants = cs.filter((k): k is Extract<Constraint, { kind: "grant" }> => k.kind === "grant");
  if (grants.length < 2) return;
  for (const k of cs) {
    if (k.kind !== "allow" || k.dim !== "recipient" || k.activities.length || k.grantId !== undefined || !(k.refs ?? []).length) continue;
    if (cs.some((x) => x !== k && x.rule === k.rule && x.kind !== "allow")) continue;
    const m = DEFINES_RE.exec(k.rule.replace(/context\./g, "§context."));
    if (!m) continue;
    const noun = m[1].toLowerCase();
    const bare = grants.filter((g) => g.recipients.length === 0 && g.refs.length === 0);
    const speaks = bare.filter((g) => new RegExp(`\\b(?:${noun}s?|their|them|they)\\b`, "i").test(g.rule));
    if (speaks.length !== 1 || bare.length !== 1) continue;
    speaks[0].refs = [...(k.refs ?? [])];
    speaks[0].recipients = [...k.values];
    k.grantId = speaks[0].id;
  }
}
