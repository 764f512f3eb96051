/**
 * Signing and sending, crash-safe (DESIGN "Data and invariants": never send twice), for any chain through
 * its adapter (src/chains/port.ts).
 *
 * 1. Prepare outside any lock (adapter.prepare): fees, the account's sequence, set-up needs. A transaction
 *    that would fail now fails the proposal without signing; an unreachable chain too (nothing signed).
 * 2. In one database transaction holding the wallet's row lock: re-read the proposal (it must still be in
 *    the expected status), recompute requestHash from the stored payload and refuse on a mismatch, check
 *    the custodian can sign, sign (adapter.sign, with the wallet's next_nonce), and store the signed bytes,
 *    the hash and the sequence with status `executing`. Nothing is broadcast before this commit.
 * 3. Broadcast the stored bytes (adapter.broadcast). Re-broadcasting the same bytes is always safe.
 * 4. Wait for finality up to the chain's timeout: `executed` or `failed`; still nothing after the timeout
 *    leaves `executing`, which reconcile() settles later by hash.
 */
import { lockWallet } from "../wallets/repo";
import { ChainUnavailableError, type ChainAdapter } from "../chains/port";
import type { ChainPayload, TransactionState } from "../chains/types";
import { findProposal, lockProposal, transition } from "./repo";
import { refusedByRules } from "./rules-guard";
import { effectiveStatus } from "./state";
import type { ProposalsDeps } from "./types";

export async function executeProposal(deps: ProposalsDeps, id: string, from: "verifying" | "awaiting_user"): Promise<void> {
  const { db, clock, logger } = deps;
  const row = await findProposal(db, null, id);
  const kind = deps.kinds?.get(row.kind);
  if (kind) return kind.execute(deps, id, from);
  const wallet = await db.selectFrom("wallets").select(["id", "chain", "address"]).where("id", "=", row.wallet_id).executeTakeFirstOrThrow();
  const chain = deps.chains.forWallet(wallet.chain);
  const fail = async (error: string) => {
    await transition(db, id, from, "failed", clock.now(), { error });
    logger.warn({ proposalId: id, error }, "proposal failed before signing");
  };
  if (!chain) return fail(`no ${wallet.chain} chain is configured on this deployment`);
  const payload = row.payload as ChainPayload;

  // 1. Prepare.
  let prepared: unknown;
  try {
    const p = await chain.prepare({ id: wallet.id, address: wallet.address, chain: wallet.chain }, payload);
    if (!p.ok) return fail(p.reason);
    prepared = p.prepared;
  } catch (err) {
    // The chain is unreachable: nothing was signed; the caller sees `failed` and may propose again.
    if (err instanceof ChainUnavailableError) return fail(`the chain could not be reached to prepare the transaction: ${err.message}`.slice(0, 500));
    throw err;
  }

  // 2. Sign and store, under the wallet lock.
  const signed = await db.transaction().execute(async (tx) => {
    const w = await lockWallet(tx, wallet.id);
    const p = await lockProposal(tx, id);
    const now = clock.now();
    if (effectiveStatus(p.status, p.approval_expires_at, now) !== from) return null;
    if (chain.requestHashOf(p.payload as ChainPayload) !== p.request_hash) {
      await transition(tx, id, from, "failed", now, { error: "requestHash mismatch: the stored payload does not hash to the proposal's requestHash; refused to sign" });
      logger.error({ proposalId: id }, "requestHash mismatch; refused to sign");
      return null;
    }
    if (await refusedByRules(deps, tx, p, w, from, now)) return null;
    const handle = { walletId: w.id, address: w.address, keyRef: w.key_ref };
    if (!chain.custody.canSign(handle)) {
      await transition(tx, id, from, "failed", now, { error: "the custodian cannot sign for this wallet (key unavailable)" });
      return null;
    }
    const s = await chain.sign(prepared, { handle, nextSequence: w.next_nonce });
    const moved = await tx
      .updateTable("proposals")
      .set({ status: "executing", nonce: s.sequence, signed_tx: s.raw, tx_hash: s.hash, signed_at: now, updated_at: now })
      .where("id", "=", id)
      .where("status", "=", from)
      .executeTakeFirst();
    if (moved.numUpdatedRows === 0n) return null;
    if (s.sequence !== null) await tx.updateTable("wallets").set({ next_nonce: s.sequence + s.sequenceUsed }).where("id", "=", w.id).execute();
    return s;
  });
  if (!signed) return;
  logger.info({ proposalId: id, txHash: signed.hash, nonce: signed.sequence }, "proposal signed; broadcasting");

  // 3 and 4.
  await sendAndSettle(deps, chain, { id, walletId: wallet.id, raw: signed.raw, hash: signed.hash, nonce: signed.sequence }, chain.receiptTimeoutMs);
}

/**
 * Records a final state (idempotent: only an `executing` proposal moves). Returns the move this call made,
 * null when it made none (not final yet, or another sweep or the sending request settled it first): a
 * caller counts only its own moves, so two sweeps over one row report it once.
 */
export async function settle(deps: ProposalsDeps, id: string, hash: string, s: TransactionState): Promise<"executed" | "failed" | null> {
  const now = deps.clock.now();
  if (s.state === "succeeded") {
    if (!(await transition(deps.db, id, "executing", "executed", now, { cap_at: now, error: null }))) return null;
    deps.logger.info({ proposalId: id, txHash: hash }, "proposal executed");
    return "executed";
  }
  if (s.state === "reverted") {
    if (!(await transition(deps.db, id, "executing", "failed", now, { error: `reverted on chain: ${s.reason}` }))) return null;
    deps.logger.warn({ proposalId: id, txHash: hash }, "proposal transaction reverted on chain");
    return "failed";
  }
  return null;
}

/** The node refused the bytes for good: fail the proposal and give the sequence back if nothing used it since. True when this call failed it. */
export async function failRejected(deps: ProposalsDeps, s: { id: string; walletId: string; nonce: number | null }, reason: string): Promise<boolean> {
  const moved = await deps.db.transaction().execute(async (tx) => {
    await lockWallet(tx, s.walletId);
    if (!(await transition(tx, s.id, "executing", "failed", deps.clock.now(), { error: `the node refused the transaction: ${reason}`.slice(0, 500) }))) return false;
    // Only when nothing was signed after it (next_nonce is still just past this transaction's sequence numbers).
    if (s.nonce !== null) await tx.updateTable("wallets").set({ next_nonce: s.nonce }).where("id", "=", s.walletId).where("next_nonce", "in", [s.nonce + 1, s.nonce + 2]).execute();
    return true;
  });
  if (moved) deps.logger.warn({ proposalId: s.id, reason }, "proposal transaction refused by the node");
  return moved;
}

export async function sendAndSettle(deps: ProposalsDeps, chain: ChainAdapter, s: { id: string; walletId: string; raw: string; hash: string; nonce: number | null }, timeoutMs: number): Promise<void> {
  const out = await chain.broadcast({ raw: s.raw, hash: s.hash });
  if (out.kind === "rejected") {
    await failRejected(deps, s, out.reason);
    return;
  }
  if (out.kind === "unknown") {
    deps.logger.warn({ proposalId: s.id, reason: out.reason }, "broadcast outcome unknown; reconcile will settle it");
    return;
  }
  const state = await chain.waitForFinal(s.hash, timeoutMs);
  if (state) await settle(deps, s.id, s.hash, state);
}
