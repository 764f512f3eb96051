/**
 * Signing and sending, crash-safe (DESIGN "Data and invariants": never send twice).
 *
 * 1. Prepare outside any lock: gas estimate (a revert now means the chain changed since the simulation:
 *    the proposal fails without signing), fees, and whether the wallet still needs its EIP-7702 delegation.
 * 2. In one database transaction holding the wallet's row lock: re-read the proposal (it must still be in
 *    the expected status), recompute requestHash from the stored payload and refuse on a mismatch, take
 *    the nonce as max(wallet.next_nonce, the chain's pending count read just before), sign, and store the
 *    signed bytes, the hash and the nonce with status `executing`. Nothing is broadcast before this commit.
 * 3. Broadcast the stored bytes. Re-broadcasting the same bytes is always safe: a transaction can be
 *    included once, and nothing else ever signs with that nonce.
 * 4. Wait for the receipt up to the chain's timeout: `executed` or `failed`; still nothing after the
 *    timeout leaves `executing`, which reconcile() settles later by hash.
 */
import { keccak256, toHex, type Address, type Hex, type TransactionReceipt } from "viem";
import { lockWallet } from "../wallets/repo";
import type { EvmChain } from "../chains/evm/chain";
import { RpcError } from "../chains/evm/chain";
import { requestHashOf, type EvmPayload } from "./build";
import { findProposal, lockProposal, transition } from "./repo";
import { refusedByRules } from "./rules-guard";
import { effectiveStatus, type ProposalStatus } from "./state";
import type { ProposalsDeps } from "./types";

/** EIP-7702 PER_EMPTY_ACCOUNT_COST: charged per authorization, not seen by estimates with a code override. */
const AUTH_GAS = 25_000n;

const designator = (delegate: string) => `0xef0100${delegate.slice(2).toLowerCase()}`;

export async function executeProposal(deps: ProposalsDeps, id: string, from: "verifying" | "awaiting_user"): Promise<void> {
  const { db, clock, logger } = deps;
  const row = await findProposal(db, null, id);
  const kind = deps.kinds?.get(row.kind);
  if (kind) return kind.execute(deps, id, from);
  const wallet = await db.selectFrom("wallets").select(["id", "chain", "address"]).where("id", "=", row.wallet_id).executeTakeFirstOrThrow();
  const chain = deps.chains.evm(wallet.chain);
  const fail = async (error: string) => {
    await transition(db, id, from, "failed", clock.now(), { error });
    logger.warn({ proposalId: id, error }, "proposal failed before signing");
  };
  if (!chain) return fail(`no ${wallet.chain} chain is configured on this deployment`);
  const payload = row.payload as EvmPayload;
  const addr = payload.from as Address;

  // 1. Prepare.
  let needsAuth = false;
  let gas: bigint;
  let fees: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };
  let pending: number;
  try {
    if (payload.delegate) {
      const code = ((await chain.client.getCode({ address: addr })) ?? "0x").toLowerCase();
      needsAuth = code !== designator(payload.delegate);
    }
    const call = { from: payload.from, to: payload.to, value: toHex(BigInt(payload.value)), data: payload.data };
    const params: unknown[] = [call, "latest"];
    if (needsAuth && payload.delegate) params.push({ [payload.from]: { code: designator(payload.delegate) } });
    const estimate = BigInt(await chain.rpc<string>("eth_estimateGas", params));
    gas = (estimate * 6n) / 5n + (needsAuth ? AUTH_GAS : 0n);
    const f = await chain.client.estimateFeesPerGas();
    fees = { maxFeePerGas: f.maxFeePerGas ?? 0n, maxPriorityFeePerGas: f.maxPriorityFeePerGas ?? 0n };
    // Read before the lock (an RPC call must not hold the database): only this service signs for the
    // wallet, and next_nonce (read under the lock) covers everything it signed since.
    pending = await chain.client.getTransactionCount({ address: addr, blockTag: "pending" });
  } catch (err) {
    if (err instanceof RpcError && err.answered) return fail(`the transaction would revert now (the chain changed since the simulation): ${err.message}`.slice(0, 500));
    // The chain is unreachable: nothing was signed; the caller sees `failed` and may propose again.
    return fail(`the chain could not be reached to prepare the transaction: ${(err as Error).message}`.slice(0, 500));
  }

  // 2. Sign and store, under the wallet lock.
  const signed = await db.transaction().execute(async (tx) => {
    const w = await lockWallet(tx, wallet.id);
    const p = await lockProposal(tx, id);
    const now = clock.now();
    if (effectiveStatus(p.status as ProposalStatus, p.approval_expires_at, now) !== from) return null;
    if (requestHashOf(p.payload as EvmPayload) !== p.request_hash) {
      await transition(tx, id, from, "failed", now, { error: "requestHash mismatch: the stored payload does not hash to the proposal's requestHash; refused to sign" });
      logger.error({ proposalId: id }, "requestHash mismatch; refused to sign");
      return null;
    }
    if (await refusedByRules(deps, tx, p, w, from, now)) return null;
    const handle = { walletId: w.id, address: w.address, keyRef: w.key_ref };
    if (!deps.signer.canSign(handle)) {
      await transition(tx, id, from, "failed", now, { error: "the custodian cannot sign for this wallet (key unavailable)" });
      return null;
    }
    const nonce = Math.max(w.next_nonce ?? 0, pending);
    const authorizationList = needsAuth && payload.delegate ? [await deps.signer.signAuthorization(handle, { contractAddress: payload.delegate, chainId: payload.chainId, nonce: nonce + 1 })] : undefined;
    const common = { chainId: payload.chainId, nonce, to: payload.to, value: BigInt(payload.value), data: payload.data, gas, ...fees };
    const serialized = await deps.signer.signTransaction(handle, authorizationList ? { ...common, type: "eip7702", authorizationList } : { ...common, type: "eip1559" });
    const hash = keccak256(serialized);
    const moved = await tx
      .updateTable("proposals")
      .set({ status: "executing", nonce, signed_tx: serialized, tx_hash: hash, signed_at: now, updated_at: now })
      .where("id", "=", id)
      .where("status", "=", from)
      .executeTakeFirst();
    if (moved.numUpdatedRows === 0n) return null;
    // A self-sponsored EIP-7702 authorization consumes the next nonce too.
    const used = authorizationList ? 2 : 1;
    await tx.updateTable("wallets").set({ next_nonce: nonce + used }).where("id", "=", w.id).execute();
    return { serialized, hash, nonce, used };
  });
  if (!signed) return;
  logger.info({ proposalId: id, txHash: signed.hash, nonce: signed.nonce }, "proposal signed; broadcasting");

  // 3 and 4.
  await sendAndSettle(deps, chain, { id, walletId: wallet.id, ...signed }, chain.receiptTimeoutMs);
}

export type BroadcastOutcome = { kind: "sent" } | { kind: "rejected"; reason: string } | { kind: "unknown"; reason: string };

/** Sends stored bytes. "Already known" and "nonce too low" are not failures: the receipt decides. */
export async function broadcast(chain: EvmChain, serialized: Hex, hash: Hex): Promise<BroadcastOutcome> {
  try {
    await chain.rpc("eth_sendRawTransaction", [serialized]);
    return { kind: "sent" };
  } catch (err) {
    if (!(err instanceof RpcError) || !err.answered) return { kind: "unknown", reason: (err as Error).message };
    if (/already known|known transaction|already imported|already in pool|nonce too low|already exists/i.test(err.message)) return { kind: "sent" };
    try {
      if (await chain.client.getTransaction({ hash })) return { kind: "sent" };
    } catch {
      // not known to the node: the refusal stands
    }
    return { kind: "rejected", reason: err.message };
  }
}

export async function waitForReceipt(chain: EvmChain, hash: Hex, timeoutMs: number): Promise<TransactionReceipt | null> {
  const deadline = Date.now() + timeoutMs;
  const interval = chain.sandbox ? 100 : 1000;
  for (;;) {
    try {
      return await chain.client.getTransactionReceipt({ hash });
    } catch {
      // not mined yet (or the node is briefly unreachable)
    }
    if (Date.now() >= deadline) return null;
    await new Promise((r) => setTimeout(r, interval));
  }
}

/** Records a receipt's outcome (idempotent: only an `executing` proposal moves). */
export async function settleFromReceipt(deps: ProposalsDeps, id: string, receipt: TransactionReceipt): Promise<void> {
  const now = deps.clock.now();
  if (receipt.status === "success") {
    if (await transition(deps.db, id, "executing", "executed", now, { cap_at: now, error: null })) deps.logger.info({ proposalId: id, txHash: receipt.transactionHash }, "proposal executed");
  } else {
    await transition(deps.db, id, "executing", "failed", now, { error: "reverted on chain: the transaction was mined but reverted (gas was spent; nothing else moved)" });
    deps.logger.warn({ proposalId: id, txHash: receipt.transactionHash }, "proposal transaction reverted on chain");
  }
}

/** The node refused the bytes for good: fail the proposal and give the nonce back if nothing used it since. */
export async function failRejected(deps: ProposalsDeps, s: { id: string; walletId: string; nonce: number }, reason: string): Promise<void> {
  await deps.db.transaction().execute(async (tx) => {
    await lockWallet(tx, s.walletId);
    if (await transition(tx, s.id, "executing", "failed", deps.clock.now(), { error: `the node refused the transaction: ${reason}`.slice(0, 500) })) {
      // Only when nothing was signed after it (next_nonce is still just past this transaction's nonces).
      await tx.updateTable("wallets").set({ next_nonce: s.nonce }).where("id", "=", s.walletId).where("next_nonce", "in", [s.nonce + 1, s.nonce + 2]).execute();
    }
  });
  deps.logger.warn({ proposalId: s.id, reason }, "proposal transaction refused by the node");
}

export async function sendAndSettle(deps: ProposalsDeps, chain: EvmChain, s: { id: string; walletId: string; serialized: Hex; hash: Hex; nonce: number; used?: number }, timeoutMs: number): Promise<void> {
  const out = await broadcast(chain, s.serialized, s.hash);
  if (out.kind === "rejected") return failRejected(deps, s, out.reason);
  if (out.kind === "unknown") {
    deps.logger.warn({ proposalId: s.id, reason: out.reason }, "broadcast outcome unknown; reconcile will settle it");
    return;
  }
  const receipt = await waitForReceipt(chain, s.hash, timeoutMs);
  if (receipt) await settleFromReceipt(deps, s.id, receipt);
}
