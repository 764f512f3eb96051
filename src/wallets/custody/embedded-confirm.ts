/**
 * The owner confirms a held proposal on a self-custodial (embedded) wallet: their browser wallet signs and
 * sends; the service only prepares and then verifies.
 *
 * 1. prepare: the same re-checks as a server-side confirmation (proposals/owner.ts): the proposal is held and
 *    inside its window, the stored payload still hashes to its requestHash, a fresh simulation does not
 *    revert, the limits and the rolling cap pass under the wallet lock (else `blocked`). It records the
 *    wallet's pending nonce (no older transaction can count as this confirmation) and hands the browser the
 *    exact transaction: {from, to, value, data, chainId}. If the approval window would close within 10
 *    minutes it is extended to 10 minutes, so the wallet's transaction can still be recorded.
 * 2. The browser wallet signs and sends it (eth_sendTransaction) and returns the hash.
 * 3. submit: fetch the transaction by hash and require from = the wallet, to/value/data/chainId exactly the
 *    recorded payload, no EIP-7702 authorization list, nonce at least the prepared one. Only then is it
 *    recorded (`executing`, tx_hash unique across proposals); the receipt decides `executed` (success) or
 *    `failed` (reverted). A transaction that does not match is not recorded and the proposal stays held.
 * 4. reconcile settles embedded proposals left `executing` by hash (nothing to re-broadcast: the service
 *    never held the signed bytes).
 */
import { HASH32_RE } from "../../lib/ids";
import { ServiceError } from "../../lib/errors";
import { lockWallet } from "../repo";
import { requestHashOf, type EvmPayload } from "../../chains/evm/plan";
import { evmChainOf } from "../../chains/evm/adapter";
import { fetchTransaction, mismatch, pendingNonce, walletTransactionOf, type Hex, type WalletTransaction } from "../../chains/evm/embedded";
import { invalidState } from "../../proposals/errors";
import { settle } from "../../proposals/execute";
import { unclaimed } from "../../db/claim";
import type { ProposalResult } from "../../proposals/present";
import { result, simulateProposal } from "../../proposals/propose";
import { recheckAtConfirmation } from "../../proposals/owner";
import { findProposal, lockProposal, transition } from "../../proposals/repo";
import { ownerActionable, type ProposalStatus } from "../../proposals/state";
import type { ProposalsDeps } from "../../proposals/types";

/** The least time the owner's wallet gets to send after pressing Confirm. */
export const SIGNING_WINDOW_MS = 10 * 60_000;

export type { WalletTransaction };

export type Prepared = { status: "ready"; transaction: WalletTransaction; requestHash: string; chainId: number; signBefore: string } | { status: "blocked"; result: ProposalResult };

function actionable(row: { status: ProposalStatus; approval_expires_at: Date | null }, now: Date) {
  const a = ownerActionable(row.status, row.approval_expires_at, now);
  if (!a.ok) throw invalidState(a.why);
}

async function embeddedProposal(deps: ProposalsDeps, accountId: string, txId: string) {
  const row = await findProposal(deps.db, accountId, txId);
  const wallet = await deps.db.selectFrom("wallets").select(["id", "chain", "limits", "archived_at", "custody", "address"]).where("id", "=", row.wallet_id).executeTakeFirstOrThrow();
  if (wallet.custody !== "embedded") throw invalidState("this wallet's key is held by the service: confirm with “Confirm and send”");
  const adapter = deps.chains.forWallet(wallet.chain);
  const chain = evmChainOf(adapter);
  if (!adapter || !chain) throw invalidState(`no ${wallet.chain} chain is configured on this deployment`);
  return { row, wallet, adapter, chain, payload: row.payload as EvmPayload };
}

export async function prepareEmbedded(deps: ProposalsDeps, accountId: string, txId: string): Promise<Prepared> {
  const { db, clock } = deps;
  const { row, wallet, adapter, chain, payload } = await embeddedProposal(deps, accountId, txId);
  actionable(row, clock.now());
  if (wallet.archived_at) throw invalidState("the wallet is archived and cannot transact");
  if (requestHashOf(payload) !== row.request_hash) {
    await transition(db, row.id, "awaiting_user", "blocked", clock.now(), { error: "requestHash mismatch: the stored payload changed; refused", reasoning: "requestHash mismatch at confirmation; nothing was handed to the wallet" });
    return { status: "blocked", result: await result(deps, row.id) };
  }
  if (payload.delegate || payload.from.toLowerCase() !== wallet.address.toLowerCase()) throw invalidState("this proposal cannot be sent as one transaction from your wallet");
  const sim = await simulateProposal(adapter, { id: wallet.id, address: wallet.address, chain: wallet.chain }, { payload });
  if (sim.status === "unavailable") throw invalidState("the chain cannot simulate this transaction right now; nothing was handed to your wallet; try again");
  const pending = await pendingNonce(chain, payload.from);

  const outcome = await db.transaction().execute(async (tx) => {
    const w = await lockWallet(tx, wallet.id);
    const p = await lockProposal(tx, row.id);
    const now = clock.now();
    actionable(p, now);
    const lim = await recheckAtConfirmation(tx, p, w, { sim, addresses: adapter.address }, now);
    if (!lim) return null;
    const until = new Date(Math.max(p.approval_expires_at?.getTime() ?? 0, now.getTime() + SIGNING_WINDOW_MS));
    await tx.updateTable("proposals").set({ simulation: JSON.stringify(sim), reserved_usd: lim.exposureUsd, cap_at: now, approval_expires_at: until, updated_at: now }).where("id", "=", p.id).execute();
    await tx
      .insertInto("embedded_confirmations")
      .values({ proposal_id: p.id, prepared_at: now, min_nonce: pending, submitted_at: null, tx_hash: null })
      .onConflict((oc) => oc.column("proposal_id").doUpdateSet({ prepared_at: now, min_nonce: pending }))
      .execute();
    return until;
  });
  if (!outcome) return { status: "blocked", result: await result(deps, row.id) };
  deps.logger.info({ proposalId: row.id }, "embedded confirmation prepared; waiting for the owner's wallet");
  return {
    status: "ready",
    transaction: walletTransactionOf(payload),
    requestHash: row.request_hash,
    chainId: payload.chainId,
    signBefore: outcome.toISOString(),
  };
}

export async function submitEmbedded(deps: ProposalsDeps, accountId: string, txId: string, rawHash: string): Promise<ProposalResult> {
  if (typeof rawHash !== "string" || !HASH32_RE.test(rawHash.trim())) throw new ServiceError("invalid_input", "invalid_input", "txHash must be 0x followed by 64 hex digits");
  const hash = rawHash.trim().toLowerCase() as Hex;
  const { db, clock, logger } = deps;
  const { row, wallet, adapter, chain, payload } = await embeddedProposal(deps, accountId, txId);
  if (row.tx_hash?.toLowerCase() === hash) return result(deps, row.id); // the same submission again
  const conf = await db.selectFrom("embedded_confirmations").selectAll().where("proposal_id", "=", row.id).executeTakeFirst();
  if (!conf) throw invalidState("press Confirm first: the transaction to send is prepared (re-simulated and re-checked) then");
  actionable(row, clock.now());
  const tx = await fetchTransaction(chain, hash, Math.min(chain.receiptTimeoutMs, 15_000));
  if (!tx) throw invalidState("the chain does not know this transaction yet; wait a moment and submit the hash again");
  const why = mismatch(tx, payload, wallet.address, conf.min_nonce);
  if (why) throw invalidState(`transaction ${hash} is not this proposal's: ${why}. Nothing was recorded; the proposal still waits for you.`);

  await db.transaction().execute(async (t) => {
    await lockWallet(t, wallet.id);
    const p = await lockProposal(t, row.id);
    const now = clock.now();
    actionable(p, now);
    const used = await t.selectFrom("proposals").select("id").where("tx_hash", "=", hash).executeTakeFirst();
    if (used) throw invalidState("this transaction is already recorded for another proposal");
    await t.updateTable("proposals").set({ status: "executing", tx_hash: hash, nonce: tx.nonce, signed_at: now, updated_at: now }).where("id", "=", p.id).where("status", "=", "awaiting_user").execute();
    await t.updateTable("embedded_confirmations").set({ submitted_at: now, tx_hash: hash }).where("proposal_id", "=", p.id).execute();
  });
  logger.info({ proposalId: row.id, txHash: hash }, "embedded proposal sent by the owner's wallet; transaction matches");
  const final = await adapter.waitForFinal(hash, adapter.receiptTimeoutMs);
  if (final) await settle(deps, row.id, hash, final);
  return result(deps, row.id);
}

/** Embedded proposals left `executing`: settle by receipt, or fail when the wallet's nonce moved past them. */
export async function reconcileEmbedded(deps: ProposalsDeps, opts: { minAgeMs: number }): Promise<{ executed: number; failed: number }> {
  const out = { executed: 0, failed: 0 };
  const cutoff = new Date(deps.clock.now().getTime() - opts.minAgeMs);
  const rows = await deps.db
    .selectFrom("proposals")
    .innerJoin("wallets", "wallets.id", "proposals.wallet_id")
    .select(["proposals.id", "proposals.tx_hash", "proposals.nonce", "wallets.chain", "wallets.address"])
    .where("proposals.status", "=", "executing")
    .where("wallets.custody", "=", "embedded")
    .where("proposals.updated_at", "<=", cutoff)
    .limit(200)
    .execute();
  const claim = deps.claim ?? unclaimed;
  for (const p of rows) {
    const adapter = deps.chains.forWallet(p.chain);
    const hash = p.tx_hash;
    const nonce = p.nonce;
    if (!adapter || !hash || nonce === null) continue;
    // One process at a time per proposal (another sweeping process skips it); re-read once claimed.
    await claim("proposal", p.id, async () => {
      const now = await deps.db.selectFrom("proposals").select("status").where("id", "=", p.id).executeTakeFirst();
      if (now?.status !== "executing") return;
      const found = await adapter.lookup({ hash, raw: "", address: p.address, sequence: nonce });
      if (found.state === "succeeded" || found.state === "reverted") {
        const settled = await settle(deps, p.id, hash, found);
        if (settled) out[settled]++;
        return;
      }
      if (found.state === "dropped") {
        const error = "dropped or replaced: the wallet's nonce was used by another transaction and this one was never mined (a sped-up or cancelled transaction in your wallet is not recorded here)";
        if (await transition(deps.db, p.id, "executing", "failed", deps.clock.now(), { error })) out.failed++;
      }
    });
  }
  return out;
}
