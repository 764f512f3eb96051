/**
 * update (MCP `update_escrow_wallet`): name, mandate and limits; never mode or chain. Idempotent.
 *
 * Limits merge into the current ones (`null` removes one, an omitted field stays as it is), so changing
 * one cap cannot silently drop another. A change that loosens the rules is applied, and the reply says
 * exactly what it loosened. Proposals still awaiting the owner are re-checked against the new limits in
 * the same transaction (under the wallet's row lock) and blocked when they no longer pass.
 */
import type { Principal } from "../accounts/principal";
import { ServiceError } from "../lib/errors";
import { limitsFromRow, LimitsError, loosenedBy, mergeLimits, type Limits } from "./limits";
import { walletDetails, walletWire, type Wallet, type WalletDetails } from "./present";
import { findWallet, lockWallet, WALLET_COLUMNS } from "./repo";
import type { UpdateWalletInput } from "./schemas";
import { limitsChainOf, type WalletsDeps } from "./types";

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

export async function updateWallet(deps: WalletsDeps, principal: Principal, ref: string, input: UpdateWalletInput): Promise<UpdateResult> {
  if (input.name === undefined && input.mandate === undefined && input.limits === undefined) {
    throw new ServiceError("invalid_input", "invalid_input", "send at least one of name, mandate, limits");
  }
  const current = await findWallet(deps.db, principal.accountId, ref);
  const chain = deps.chains.forWallet(current.chain);
  if (input.name !== undefined && input.name.startsWith("wal_")) throw updateFailed("name must not start with wal_");

  const result = await deps.db.transaction().execute(async (tx) => {
    const row = await lockWallet(tx, current.id);
    const changed: string[] = [];
    const loosened: string[] = [];
    let notes: string[] = [];
    const patch: { name?: string; mandate?: string | null; limits?: string } = {};

    if (input.name !== undefined && input.name !== row.name) {
      const taken = await tx.selectFrom("wallets").select("id").where("account_id", "=", row.account_id).where("name", "=", input.name).where("id", "<>", row.id).executeTakeFirst();
      if (taken) throw updateFailed(`a wallet named "${input.name}" already exists on this account`);
      patch.name = input.name;
      changed.push(`name: "${row.name}" -> "${input.name}"`);
    }
    if (input.mandate !== undefined) {
      const next = input.mandate.trim() ? input.mandate.trim() : null;
      if (next !== row.mandate) {
        patch.mandate = next;
        changed.push(next === null ? "mandate cleared" : "mandate replaced");
        // The service cannot tell whether new prose permits more; say so rather than guess.
        loosened.push(
          next === null
            ? "mandate cleared: the judge has no rules to check, so proposals escalate to the owner"
            : "mandate replaced: the judge now applies the new text, which may permit actions the old one did not",
        );
      }
    }
    let nextLimits: Limits = limitsFromRow(row.limits);
    if (input.limits !== undefined) {
      const prev = nextLimits;
      try {
        ({ limits: nextLimits, notes } = mergeLimits(prev, input.limits, limitsChainOf(deps, current.chain)));
      } catch (e) {
        if (e instanceof LimitsError) throw updateFailed(e.message);
        throw e;
      }
      if (JSON.stringify(prev) !== JSON.stringify(nextLimits)) {
        patch.limits = JSON.stringify(nextLimits);
        changed.push("limits updated");
        loosened.push(...loosenedBy(prev, nextLimits));
      }
    }
    if (Object.keys(patch).length === 0) return { row, changed, loosened: [], notes, blocked: [] as string[] };
    const updated = await tx
      .updateTable("wallets")
      .set({ ...patch, ...rulesVersionBump(row, patch), updated_at: deps.clock.now() })
      .where("id", "=", row.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const blocked = (patch.limits !== undefined || patch.mandate !== undefined) && deps.onRulesChanged ? await deps.onRulesChanged(tx, updated) : [];
    const { key_ref: _k, ...view } = updated;
    return { row: view, changed, loosened, notes, blocked };
  });

  if (result.loosened.length) deps.logger.info({ walletId: current.id, loosened: result.loosened }, "wallet rules loosened");
  const view = await deps.db.selectFrom("wallets").select(WALLET_COLUMNS).where("id", "=", current.id).executeTakeFirstOrThrow();
  return {
    wallet: { ...walletWire(view, { balanceUsd: null, tokenCount: 0 }, 0), ...walletDetails(view, chain) },
    changed: result.changed,
    loosened: result.loosened,
    notes: result.notes,
    blockedProposals: result.blocked,
  };
}
