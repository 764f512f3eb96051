/**
 * The owner's verbs on held proposals: confirm and reject (SPEC 3; the dashboard calls them for the
 * signed-in owner, operators through the admin API). Never reachable with an API key.
 *
 * confirm re-simulates the stored payload, recomputes requestHash, and re-checks every limit and the
 * rolling cap against the fresh simulation under the wallet's lock; only then does it sign. An expired
 * proposal cannot be confirmed. A re-simulation that reverts, or limits that no longer pass, block the
 * proposal (it can never execute as it is); a chain that cannot simulate right now leaves it held (409).
 * The owner's confirmation stands in for the judge: no credit is charged and the verdict stays the judge's.
 */
import { ChainInputError } from "../chains/port";
import { limitsFromRow } from "../wallets/limits";
import { lockWallet } from "../wallets/repo";
import { invalidState } from "./errors";
import { LEGACY_SAFE_MESSAGE } from "../wallets/custody/embedded";
import { executeProposal } from "./execute";
import { checkDailyCap, checkLimits, type LimitVerdict } from "./limits-check";
import { rulesRefusal, type RulesNow } from "./rules-guard";
import type { ProposalResult } from "./present";
import { result, simulateProposal } from "./propose";
import { findProposal, lockProposal, reservedInWindow, transition, type ProposalRow } from "./repo";
import type { Transaction } from "kysely";
import type { DB } from "../db/schema";
import type { AddressComparator, ChainPayload, SimulationReport } from "../chains/types";
import { ownerActionable, type ProposalStatus } from "./state";
import type { ProposalsDeps } from "./types";

/** `accountId` null: an operator acting by the globally unique proposal id. */
export interface OwnerScope {
  accountId: string | null;
}

function actionable(row: { status: ProposalStatus; approval_expires_at: Date | null }, now: Date) {
  const a = ownerActionable(row.status, row.approval_expires_at, now);
  if (!a.ok) throw invalidState(a.why);
}

/**
 * The re-checks every confirmation makes under the wallet and proposal locks, whoever signs afterwards
 * (the custodian here, the owner's browser wallet in wallets/custody/embedded-confirm.ts), against the
 * wallet row read under that lock: the wallet is live and its mandate is the one the judge saw
 * (rules-guard.ts), the fresh simulation does not revert, the current limits and the rolling cap still pass.
 * A failure moves the proposal to `blocked` with the reason and returns null; else the limits verdict (its
 * exposure is the new reservation).
 */
export async function recheckAtConfirmation(tx: Transaction<DB>, p: ProposalRow, w: RulesNow, c: { sim: SimulationReport; block?: string; addresses: AddressComparator }, now: Date): Promise<LimitVerdict | null> {
  const limits = limitsFromRow(w.limits);
  const lim = checkLimits(limits, c.sim.changes, { simulated: c.sim.status === "clean", addresses: c.addresses });
  let reason: string | null = c.block ?? (await rulesRefusal(tx, p, w, now, { ownerDecides: true, addresses: c.addresses }));
  if (!reason && c.sim.status === "reverted") reason = `the simulation at confirmation reverts (${c.sim.error}): a transaction that reverts is never sent`;
  if (!reason && !lim.ok) reason = `${lim.reason} (re-checked at confirmation)`;
  if (!reason) {
    const cap = checkDailyCap(limits, await reservedInWindow(tx, p.wallet_id, now, p.id), lim.exposureUsd);
    if (cap) reason = `${cap} (re-checked at confirmation)`;
  }
  if (!reason) return lim;
  await transition(tx, p.id, "awaiting_user", "blocked", now, { reasoning: reason, simulation: JSON.stringify(c.sim) });
  return null;
}

export async function confirmProposal(deps: ProposalsDeps, scope: OwnerScope, txId: string): Promise<ProposalResult> {
  const { db, clock } = deps;
  const row = await findProposal(db, scope.accountId, txId);
  actionable(row, clock.now());
  const wallet = await db.selectFrom("wallets").select(["id", "chain", "address", "limits", "archived_at", "custody", "legacy_safe"]).where("id", "=", row.wallet_id).executeTakeFirstOrThrow();
  if (wallet.archived_at) throw invalidState("the wallet is archived and cannot transact");
  // The service never signs for a self-custodial wallet: its owner's wallet does (wallets/custody/embedded-confirm.ts).
  if (wallet.custody === "embedded") throw invalidState("this is a self-custodial wallet: confirm it in the dashboard, where your own wallet signs and sends it");
  if (wallet.legacy_safe) throw invalidState(LEGACY_SAFE_MESSAGE);
  const chain = deps.chains.forWallet(wallet.chain);
  if (!chain) throw invalidState(`no ${wallet.chain} chain is configured on this deployment`);
  const payload = row.payload as ChainPayload;
  if (chain.requestHashOf(payload) !== row.request_hash) {
    await transition(db, row.id, "awaiting_user", "blocked", clock.now(), { error: "requestHash mismatch: the stored payload changed; refused", reasoning: "requestHash mismatch at confirmation; refused to sign" });
    deps.logger.error({ proposalId: row.id }, "requestHash mismatch at confirmation");
    return result(deps, row.id);
  }
  // A registered kind (x402 payments) re-reads its own effects; a chain payload is simulated again.
  const kind = deps.kinds?.get(row.kind);
  let fresh;
  try {
    fresh = kind ? await kind.resimulate(deps, row) : { simulation: await simulateProposal(chain, { id: wallet.id, address: wallet.address, chain: wallet.chain }, { payload }), block: undefined };
  } catch (err) {
    // The chain refuses the stored payload now (e.g. a Solana wallet that can no longer pay its fee and rent):
    // it cannot execute as it is, like a reverting re-simulation.
    if (!(err instanceof ChainInputError)) throw err;
    await transition(db, row.id, "awaiting_user", "blocked", clock.now(), { reasoning: `refused at confirmation: ${err.message}`.slice(0, 2000) });
    return result(deps, row.id);
  }
  const sim = fresh.simulation;
  if (sim.status === "unavailable") throw invalidState("the chain cannot simulate this transaction right now; nothing was signed; retry the confirmation");

  const next = await db.transaction().execute(async (tx) => {
    const w = await lockWallet(tx, wallet.id);
    const p = await lockProposal(tx, row.id);
    const now = clock.now();
    actionable(p, now);
    const lim = await recheckAtConfirmation(tx, p, w, { sim, block: fresh.block, addresses: chain.address }, now);
    if (!lim) return "blocked" as const;
    await tx.updateTable("proposals").set({ simulation: JSON.stringify(sim), reserved_usd: lim.exposureUsd, cap_at: now, rules_version: w.rules_version, updated_at: now }).where("id", "=", p.id).execute();
    return "execute" as const;
  });
  if (next === "execute") {
    deps.logger.info({ proposalId: row.id }, "proposal confirmed by the owner");
    await executeProposal(deps, row.id, "awaiting_user");
    const after = await findProposal(db, null, row.id);
    if (after.status === "awaiting_user") throw invalidState("the approval window closed before the transaction could be signed");
  }
  return result(deps, row.id);
}

export async function rejectProposal(deps: ProposalsDeps, scope: OwnerScope, txId: string): Promise<ProposalResult> {
  const { db, clock } = deps;
  const row = await findProposal(db, scope.accountId, txId);
  await db.transaction().execute(async (tx) => {
    const p = await lockProposal(tx, row.id);
    const now = clock.now();
    actionable(p, now);
    await transition(tx, p.id, "awaiting_user", "rejected", now, { error: "rejected by the owner" });
  });
  deps.logger.info({ proposalId: row.id }, "proposal rejected by the owner");
  return result(deps, row.id);
}
