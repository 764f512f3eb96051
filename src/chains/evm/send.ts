/**
 * Signing, sending and settling EVM transactions for the chain port (execute and reconcile in
 * src/proposals drive these; the crash-safety protocol is theirs, see proposals/execute.ts).
 *
 * prepare  outside any lock: gas estimate (a revert now means the chain changed since the simulation),
 *          fees, the pending nonce, and whether the wallet still needs its EIP-7702 delegation.
 * sign     under the wallet lock: nonce = max(the core's next_nonce, the pending count read in prepare);
 *          a self-sponsored EIP-7702 authorization takes the following nonce too.
 * broadcast / waitForFinal / lookup: idempotent reads and re-sends of the stored bytes.
 */
import { keccak256, toHex, type Address, type Hex, type TransactionReceipt } from "viem";
import { ChainUnavailableError, type Prepared, type SignContext } from "../port";
import type { BroadcastOutcome, SignedTransaction, TransactionState } from "../types";
import type { EvmChain } from "./chain";
import { RpcError } from "./chain";
import type { EvmSigner } from "./custody";
import type { EvmPayload } from "./plan";

/** EIP-7702 PER_EMPTY_ACCOUNT_COST: charged per authorization, not seen by estimates with a code override. */
const AUTH_GAS = 25_000n;

const designator = (delegate: string) => `0xef0100${delegate.slice(2).toLowerCase()}`;

export const REVERTED_ON_CHAIN = "the transaction was mined but reverted (gas was spent; nothing else moved)";
export const DROPPED_NONCE = "dropped: the wallet's nonce was used by another transaction; this one was never mined";

interface EvmPrepared {
  payload: EvmPayload;
  needsAuth: boolean;
  gas: bigint;
  fees: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };
  pending: number;
}

export async function prepareEvm(chain: EvmChain, payload: EvmPayload): Promise<Prepared> {
  const addr = payload.from;
  try {
    let needsAuth = false;
    if (payload.delegate) {
      const code = ((await chain.client.getCode({ address: addr })) ?? "0x").toLowerCase();
      needsAuth = code !== designator(payload.delegate);
    }
    const call = { from: payload.from, to: payload.to, value: toHex(BigInt(payload.value)), data: payload.data };
    const params: unknown[] = [call, "latest"];
    if (needsAuth && payload.delegate) params.push({ [payload.from]: { code: designator(payload.delegate) } });
    const estimate = BigInt(await chain.rpc<string>("eth_estimateGas", params));
    const gas = (estimate * 6n) / 5n + (needsAuth ? AUTH_GAS : 0n);
    const f = await chain.client.estimateFeesPerGas();
    const fees = { maxFeePerGas: f.maxFeePerGas ?? 0n, maxPriorityFeePerGas: f.maxPriorityFeePerGas ?? 0n };
    // Read before the lock (an RPC call must not hold the database): only this service signs for the
    // wallet, and next_nonce (read under the lock) covers everything it signed since.
    const pending = await chain.client.getTransactionCount({ address: addr, blockTag: "pending" });
    const prepared: EvmPrepared = { payload, needsAuth, gas, fees, pending };
    return { ok: true, prepared };
  } catch (err) {
    if (err instanceof RpcError && err.answered) return { ok: false, reason: `the transaction would revert now (the chain changed since the simulation): ${err.message}`.slice(0, 500) };
    throw new ChainUnavailableError((err as Error).message, err);
  }
}

export async function signEvm(signer: EvmSigner, prepared: unknown, ctx: SignContext): Promise<SignedTransaction> {
  const { payload, needsAuth, gas, fees, pending } = prepared as EvmPrepared;
  const nonce = Math.max(ctx.nextSequence ?? 0, pending);
  const authorizationList = needsAuth && payload.delegate ? [await signer.signAuthorization(ctx.handle, { contractAddress: payload.delegate, chainId: payload.chainId, nonce: nonce + 1 })] : undefined;
  const common = { chainId: payload.chainId, nonce, to: payload.to, value: BigInt(payload.value), data: payload.data, gas, ...fees };
  const raw = await signer.signTransaction(ctx.handle, authorizationList ? { ...common, type: "eip7702", authorizationList } : { ...common, type: "eip1559" });
  return { raw, hash: keccak256(raw), sequence: nonce, sequenceUsed: authorizationList ? 2 : 1 };
}

/** Sends stored bytes. "Already known" and "nonce too low" are not failures: the receipt decides. */
export async function broadcastEvm(chain: EvmChain, raw: string, hash: string): Promise<BroadcastOutcome> {
  try {
    await chain.rpc("eth_sendRawTransaction", [raw]);
    return { kind: "sent" };
  } catch (err) {
    if (!(err instanceof RpcError) || !err.answered) return { kind: "unknown", reason: (err as Error).message };
    if (/already known|known transaction|already imported|already in pool|nonce too low|already exists/i.test(err.message)) return { kind: "sent" };
    try {
      if (await chain.client.getTransaction({ hash: hash as Hex })) return { kind: "sent" };
    } catch {
      // not known to the node: the refusal stands
    }
    return { kind: "rejected", reason: err.message };
  }
}

const fromReceipt = (r: TransactionReceipt): TransactionState => (r.status === "success" ? { state: "succeeded" } : { state: "reverted", reason: REVERTED_ON_CHAIN });

export async function waitForFinalEvm(chain: EvmChain, hash: string, timeoutMs: number): Promise<TransactionState | null> {
  const deadline = Date.now() + timeoutMs;
  const interval = chain.sandbox ? 100 : 1000;
  for (;;) {
    try {
      return fromReceipt(await chain.client.getTransactionReceipt({ hash: hash as Hex }));
    } catch {
      // not mined yet (or the node is briefly unreachable)
    }
    if (Date.now() >= deadline) return null;
    await new Promise((r) => setTimeout(r, interval));
  }
}

export async function lookupEvm(chain: EvmChain, rec: { hash: string; address: string; sequence: number | null }): Promise<TransactionState> {
  const hash = rec.hash as Hex;
  const receipt = await chain.client.getTransactionReceipt({ hash }).catch(() => null);
  if (receipt) return fromReceipt(receipt);
  if (await chain.client.getTransaction({ hash }).catch(() => null)) return { state: "pending" };
  if (rec.sequence === null) return { state: "not_found" };
  let mined: number;
  try {
    mined = await chain.client.getTransactionCount({ address: rec.address as Address, blockTag: "latest" });
  } catch (err) {
    throw new ChainUnavailableError((err as Error).message, err);
  }
  if (mined > rec.sequence) {
    // The reads above are not one snapshot: ours may have been mined between the receipt read and the nonce
    // read (a live process's send racing this sweep). The receipt is read again AFTER the nonce: if ours took
    // the nonce it is there now; only if it is still absent did another transaction take it.
    const late = await chain.client.getTransactionReceipt({ hash }).catch(() => null);
    if (late) return fromReceipt(late);
    // Our nonce is spent and our hash has no receipt: another transaction took it; ours can never land.
    return { state: "dropped", reason: DROPPED_NONCE };
  }
  return { state: "not_found" };
}
