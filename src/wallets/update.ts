/**
 * update (MCP `update_escrow_wallet`): name, mandate and limits; never mode or chain. Idempotent.
 *
 * Limits merge into the current ones (`null` removes one, an omitted field stays as it is), so changing
 * one cap cannot silently drop another. A change that loosens the rules is applied, and the reply says
 * exactly what it loosened, unless an agent sends it for a wallet whose owner alone may loosen its rules
 * (`who_may_loosen = owner`): then what loosens is recorded as a pending rule change for the owner and the
 * call is refused with `owner_approval_required`, while what tightens applies at once. Every applied or
 * pending change is kept in the audit trail (rule-changes.ts). Proposals still awaiting the owner are
 * re-checked against the new limits in the same transaction (under the wallet's row lock) and blocked when
 * they no longer pass.
 */
import type { Principal } from "../accounts/principal";
import { ServiceError } from "../lib/errors";
import { limitsFromRow, LimitsError, mergeLimits } from "./limits";
import { walletDetails, walletWire, type Wallet, type WalletDetails } from "./present";
import { findWallet, lockWallet, WALLET_COLUMNS, type WalletRow } from "./repo";
import { actorOf, isOwner, MAX_PENDING_PER_WALLET, recordApplied, recordPending, ruleChangeUrl } from "./rule-changes";
import { applyPatch, diffRules, isEmptyPatch, loosenedOf, splitLoosening, tightenedOf, type Rules, type RulesPatch } from "./rule-diff";
import type { UpdateWalletInput } from "./schemas";
import { DEFAULT_RULE_CHANGE_WINDOW_MS, limitsChainOf, type WalletsDeps } from "./types";

export interface UpdateResult {
  wallet: Wallet & WalletDetails;
  /** What changed, in plain language. */
  changed: string[];
  /** What the new rules permit that the old ones did not (empty when nothing was loosened). */
  loosened: string[];
  notes: string[];
  /** Held proposals blocked because they no longer pass the new limits. */
  blockedProposals: string[];
}

/**
 * The version bumps of a rules change (009_a_rules_version.sql): a proposal judged under older versions is
 * checked again when it is signed (proposals/rules-guard.ts).
 */
export function rulesVersionBump(row: { rules_version: number; mandate_version: number }, patch: { mandate?: unknown; limits?: unknown }): { rules_version?: number; mandate_version?: number } {
  const out: { rules_version?: number; mandate_version?: number } = {};
  if (patch.mandate !== undefined || patch.limits !== undefined) out.rules_version = row.rules_version + 1;
  if (patch.mandate !== undefined) out.mandate_version = row.mandate_version + 1;
  return out;
}

const updateFailed = (m: string) => new ServiceError("invalid_input", "update_failed", m);

/**
 * The refusal an agent gets when its change loosens the rules of a wallet whose owner alone may loosen them.
 * `forbidden` (403): the credential may not do this; the owner may, at the link (docs/decisions.md).
 */
function approvalRequired(deps: WalletsDeps, w: { id: string; name: string }, pending: { id: string; expiresAt: Date }, held: string[], applied: string[], renamed: string[]): ServiceError {
  const url = ruleChangeUrl(deps.publicUrl, w.id, pending.id);
  const msg =
    `the owner must approve this change: wallet "${w.name}" lets only its owner loosen its rules, so what loosens them (${held.join("; ")}) is not applied. ` +
    `It is recorded as pending rule change ${pending.id}, which the owner can approve or reject in the dashboard at ${url} before ${pending.expiresAt.toISOString()}.` +
    (applied.length ? ` Applied at once because it tightens the rules: ${applied.join("; ")}.` : "") +
    (renamed.length ? ` Also applied (not a rule): ${renamed.join("; ")}.` : "") +
    (applied.length || renamed.length ? "" : " Nothing was changed.");
  return new ServiceError("forbidden", "owner_approval_required", msg, {
    extra: { walletId: w.id, changeId: pending.id, approvalUrl: url, expiresAt: pending.expiresAt.toISOString(), held, applied },
  });
}

export async function updateWallet(deps: WalletsDeps, principal: Principal, ref: string, input: UpdateWalletInput): Promise<UpdateResult> {
  if (input.name === undefined && input.mandate === undefined && input.limits === undefined) {
    throw new ServiceError("invalid_input", "invalid_input", "send at least one of name, mandate, limits");
  }
  const current = await findWallet(deps.db, principal.accountId, ref);
  const chain = deps.chains.forWallet(current.chain);
  if (input.name !== undefined && input.name.startsWith("wal_")) throw updateFailed("name must not start with wal_");
  const actor = await actorOf(deps.db, principal);

  const result = await deps.db.transaction().execute(async (tx) => {
    const row = await lockWallet(tx, current.id);
    const now = deps.clock.now();
    const changed: string[] = [];
    let notes: string[] = [];
    const patch: { name?: string; mandate?: string | null; limits?: string } = {};

    if (input.name !== undefined && input.name !== row.name) {
      const taken = await tx.selectFrom("wallets").select("id").where("account_id", "=", row.account_id).where("name", "=", input.name).where("id", "<>", row.id).executeTakeFirst();
      if (taken) throw updateFailed(`a wallet named "${input.name}" already exists on this account`);
      patch.name = input.name;
      changed.push(`name: "${row.name}" -> "${input.name}"`);
    }
    const prev: Rules = { mandate: row.mandate, limits: limitsFromRow(row.limits) };
    let next: Rules = { mandate: input.mandate === undefined ? row.mandate : input.mandate.trim() || null, limits: prev.limits };
    if (input.limits !== undefined) {
      try {
        ({ limits: next.limits, notes } = mergeLimits(prev.limits, input.limits, limitsChainOf(deps, current.chain)));
      } catch (e) {
        if (e instanceof LimitsError) throw updateFailed(e.message);
        throw e;
      }
    }
    // An agent's credential on a wallet whose owner alone may loosen: what loosens waits, the rest applies.
    let held: RulesPatch = {};
    if (!isOwner(principal) && row.who_may_loosen === "owner") ({ now: next, held } = splitLoosening(prev, next));
    const applied = diffRules(prev, next);
    if (next.mandate !== prev.mandate) {
      patch.mandate = next.mandate;
      changed.push(next.mandate === null ? "mandate cleared" : "mandate replaced");
    }
    if (applied.some((c) => c.field !== "mandate")) {
      patch.limits = JSON.stringify(next.limits);
      changed.push("limits updated");
    }

    let updated: WalletRow = row;
    let blocked: string[] = [];
    if (Object.keys(patch).length > 0) {
      updated = await tx
        .updateTable("wallets")
        .set({ ...patch, ...rulesVersionBump(row, patch), updated_at: now })
        .where("id", "=", row.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      blocked = (patch.limits !== undefined || patch.mandate !== undefined) && deps.onRulesChanged ? await deps.onRulesChanged(tx, updated) : [];
    }
    if (applied.length) await recordApplied(tx, { accountId: row.account_id, walletId: row.id, actor, changes: applied, rulesVersion: updated.rules_version, now });

    let pending: { id: string; expiresAt: Date; heldTexts: string[] } | null = null;
    if (!isEmptyPatch(held)) {
      const wanted = diffRules(next, applyPatch(next, held));
      const r = await recordPending(tx, { accountId: row.account_id, walletId: row.id, actor, changes: wanted, patch: held, now, windowMs: deps.ruleChangeWindowMs ?? DEFAULT_RULE_CHANGE_WINDOW_MS });
      if ("tooMany" in r) {
        throw new ServiceError("conflict", "owner_approval_required", `wallet "${row.name}" already has ${MAX_PENDING_PER_WALLET} rule changes waiting for its owner; nothing was changed or recorded. The owner must approve or reject them first.`);
      }
      pending = { id: r.id, expiresAt: r.expiresAt, heldTexts: loosenedOf(wanted) };
    }
    return { changed, loosened: loosenedOf(applied), tightened: tightenedOf(applied), notes, blocked, pending };
  });

  if (result.loosened.length) deps.logger.info({ walletId: current.id, loosened: result.loosened, actor: actor.kind }, "wallet rules loosened");
  if (result.pending) {
    deps.logger.info({ walletId: current.id, changeId: result.pending.id, actor: actor.kind }, "wallet rule change held for the owner");
    throw approvalRequired(deps, current, result.pending, result.pending.heldTexts, result.tightened, result.changed.filter((c) => c.startsWith("name:")));
  }
  const view = await deps.db.selectFrom("wallets").select(WALLET_COLUMNS).where("id", "=", current.id).executeTakeFirstOrThrow();
  return {
    wallet: { ...walletWire(view, { balanceUsd: null, tokenCount: 0 }, 0), ...walletDetails(view, chain) },
    changed: result.changed,
    loosened: result.loosened,
    notes: result.notes,
    blockedProposals: result.blocked,
  };
}
