/**
 * The owner's decisions about rules (issue 18, attack 1): who may loosen a wallet's rules (per wallet and as
 * the account's default for new wallets), approving or rejecting a pending rule change, and the sweep that
 * expires pending changes past their window. Every verb here is the owner's alone: a principal that is not a
 * dashboard session (an API key, an OAuth token) is refused, so an agent cannot approve its own change.
 */
import type { Principal } from "../accounts/principal";
import { claimRows } from "../db/claim";
import { ServiceError } from "../lib/errors";
import { limitsFromRow, LimitsError, mergeLimits } from "./limits";
import { findWallet, lockWallet } from "./repo";
import { actorOf, isOwner, listRuleChanges, recordApplied, RULE_CHANGE_COLUMNS, ruleChangeWire, type RuleChange, type WhoMayLoosen } from "./rule-changes";
import { applyPatch, diffRules, limitsPatchOf, type FieldChange, type Rules, type RulesPatch } from "./rule-diff";
import { rulesVersionBump } from "./update";
import { limitsChainOf, type WalletsDeps } from "./types";

const ownerOnly = (p: Principal) => {
  if (!isOwner(p)) throw new ServiceError("forbidden", "forbidden", "only the owner, signed in to the dashboard, can decide about a wallet's rule changes; an API key or OAuth token cannot");
};

/** Sets who may loosen one wallet's rules. The setting is itself a rule change in the audit trail. */
export async function setWhoMayLoosen(deps: WalletsDeps, principal: Principal, ref: string, value: WhoMayLoosen): Promise<{ changed: boolean }> {
  ownerOnly(principal);
  const w = await findWallet(deps.db, principal.accountId, ref);
  const actor = await actorOf(deps.db, principal);
  return deps.db.transaction().execute(async (tx) => {
    const row = await lockWallet(tx, w.id);
    if (row.who_may_loosen === value) return { changed: false };
    const now = deps.clock.now();
    await tx.updateTable("wallets").set({ who_may_loosen: value, updated_at: now }).where("id", "=", row.id).execute();
    const change: FieldChange = {
      field: "whoMayLoosen",
      from: row.who_may_loosen,
      to: value,
      effect: value === "agent" ? "loosened" : "tightened",
      text: value === "agent" ? "agents may loosen the rules again: their loosening changes apply at once" : "only the owner may loosen the rules: an agent's loosening change waits for the owner's approval",
    };
    await recordApplied(tx, { accountId: row.account_id, walletId: row.id, actor, changes: [change], rulesVersion: row.rules_version, now });
    return { changed: true };
  });
}

export async function setDefaultWhoMayLoosen(deps: WalletsDeps, principal: Principal, value: WhoMayLoosen): Promise<void> {
  ownerOnly(principal);
  await deps.db.updateTable("accounts").set({ default_who_may_loosen: value }).where("id", "=", principal.accountId).execute();
}

export async function defaultWhoMayLoosen(deps: WalletsDeps, principal: Principal): Promise<WhoMayLoosen> {
  const r = await deps.db.selectFrom("accounts").select("default_who_may_loosen").where("id", "=", principal.accountId).executeTakeFirst();
  return r?.default_who_may_loosen === "owner" ? "owner" : "agent";
}

/** The wallet's audit trail, newest first; readable by the owner (the dashboard's wallet page). */
export async function ruleChanges(deps: WalletsDeps, principal: Principal, ref: string, limit = 50): Promise<RuleChange[]> {
  ownerOnly(principal);
  const w = await findWallet(deps.db, principal.accountId, ref);
  return listRuleChanges(deps.db, principal.accountId, w.id, deps.clock.now(), limit);
}

const notFound = () => new ServiceError("not_found", "not_found", "no such rule change on this wallet");

async function decide(deps: WalletsDeps, principal: Principal, ref: string, changeId: string, decision: "approved" | "rejected"): Promise<RuleChange> {
  ownerOnly(principal);
  const w = await findWallet(deps.db, principal.accountId, ref);
  const actor = await actorOf(deps.db, principal);
  const out = await deps.db.transaction().execute(async (tx) => {
    const row = await lockWallet(tx, w.id);
    const change = await tx
      .selectFrom("wallet_rule_changes")
      .select([...RULE_CHANGE_COLUMNS, "patch"])
      .where("id", "=", changeId)
      .where("account_id", "=", principal.accountId)
      .where("wallet_id", "=", w.id)
      .forUpdate()
      .executeTakeFirst();
    if (!change) throw notFound();
    const now = deps.clock.now();
    if (change.status === "pending" && change.expires_at && new Date(change.expires_at).getTime() <= now.getTime()) {
      await tx.updateTable("wallet_rule_changes").set({ status: "expired", updated_at: now }).where("id", "=", change.id).execute();
      return { error: `this rule change expired at ${new Date(change.expires_at).toISOString()}; nothing was changed` };
    }
    if (change.status !== "pending") return { error: `this rule change is already ${change.status}; nothing was changed` };
    if (decision === "rejected") {
      await tx.updateTable("wallet_rule_changes").set({ status: "rejected", decided_by: actor.id, decided_at: now, updated_at: now }).where("id", "=", change.id).execute();
      return { id: change.id };
    }
    // Approval re-validates: the requested fields are set on top of the rules as they are now (another change
    // may have landed meanwhile); what it actually changes is what the trail and the webhook report.
    const prev: Rules = { mandate: row.mandate, limits: limitsFromRow(row.limits) };
    const patch = (change.patch ?? {}) as RulesPatch;
    let next = applyPatch(prev, patch);
    try {
      next = { mandate: next.mandate, limits: mergeLimits(prev.limits, limitsPatchOf(patch), limitsChainOf(deps, row.chain)).limits };
    } catch (e) {
      if (e instanceof LimitsError) return { error: `this rule change no longer fits the wallet: ${e.message}; nothing was changed` };
      throw e;
    }
    const applied = diffRules(prev, next);
    const set: { mandate?: string | null; limits?: string } = {};
    if (next.mandate !== prev.mandate) set.mandate = next.mandate;
    if (applied.some((c) => c.field !== "mandate")) set.limits = JSON.stringify(next.limits);
    let rulesVersion = row.rules_version;
    if (Object.keys(set).length) {
      const updated = await tx
        .updateTable("wallets")
        .set({ ...set, ...rulesVersionBump(row, set), updated_at: now })
        .where("id", "=", row.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      rulesVersion = updated.rules_version;
      if (deps.onRulesChanged) await deps.onRulesChanged(tx, updated);
    }
    await tx
      .updateTable("wallet_rule_changes")
      .set({ status: "approved", changes: JSON.stringify(applied), decided_by: actor.id, decided_at: now, rules_version: rulesVersion, updated_at: now })
      .where("id", "=", change.id)
      .execute();
    return { id: change.id };
  });
  if ("error" in out) throw new ServiceError("conflict", "conflict", out.error);
  deps.logger.info({ walletId: w.id, changeId, decision }, "wallet rule change decided by the owner");
  const row = await deps.db.selectFrom("wallet_rule_changes").select(RULE_CHANGE_COLUMNS).where("id", "=", out.id).where("account_id", "=", principal.accountId).executeTakeFirstOrThrow();
  return ruleChangeWire(row, deps.clock.now());
}

export const approveRuleChange = (deps: WalletsDeps, p: Principal, ref: string, id: string) => decide(deps, p, ref, id, "approved");
export const rejectRuleChange = (deps: WalletsDeps, p: Principal, ref: string, id: string) => decide(deps, p, ref, id, "rejected");

/**
 * pending -> expired past the window (the same APPROVAL_WINDOW_MINUTES as a held proposal). Claimed rows
 * (FOR UPDATE SKIP LOCKED, src/db/claim.ts): several processes sweeping at once never expire one change twice,
 * and a change the owner is approving right now (its row locked) is left to that decision.
 */
export async function expireRuleChanges(deps: WalletsDeps): Promise<number> {
  const now = deps.clock.now();
  return claimRows(
    deps.db,
    (tx) => tx.selectFrom("wallet_rule_changes").select("id").where("status", "=", "pending").where("expires_at", "<=", now).orderBy("expires_at").limit(500),
    async (tx, rows) => {
      if (rows.length === 0) return 0;
      await tx
        .updateTable("wallet_rule_changes")
        .set({ status: "expired", updated_at: now })
        .where("id", "in", rows.map((r) => r.id))
        .execute();
      return rows.length;
    },
  );
}
