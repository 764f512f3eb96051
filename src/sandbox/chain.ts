/** viem chain and clients for the sandbox chain (chain id 8453 on a local anvil). */
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  publicActions,
  type Account,
  type Chain,
  type PublicClient,
  type Transport,
} from "viem";
import { MULTICALL3, SANDBOX_CHAIN_ID } from "./addresses";

/**
 * A plain chain definition (not viem's `base`, whose OP-Stack formatters and fee hooks are meant for the
 * real network) pointing at `rpcUrl`, with the canonical Multicall3 for `multicall`.
 */
export function sandboxChain(rpcUrl: string, chainId: number = SANDBOX_CHAIN_ID): Chain {
  return defineChain({
    id: chainId,
    name: "Base (Arbiter sandbox)",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
    contracts: { multicall3: { address: MULTICALL3 } },
  });
}

/** Short retry budget: the chain is local, a failure is a dead process, not congestion. */
const transportFor = (rpcUrl: string): Transport => http(rpcUrl, { retryCount: 1, retryDelay: 100, timeout: 15_000 });

export function sandboxPublicClient(rpcUrl: string): PublicClient {
  return createPublicClient({ chain: sandboxChain(rpcUrl), transport: transportFor(rpcUrl) }) as PublicClient;
}

/** A wallet client for `account` with public actions (read, simulate, wait for receipt). */
export function sandboxWalletClient(rpcUrl: string, account: Account) {
  return createWalletClient({ account, chain: sandboxChain(rpcUrl), transport: transportFor(rpcUrl) }).extend(publicActions);
}
export type SandboxWalletClient = ReturnType<typeof sandboxWalletClient>;

/** Raw JSON-RPC call (for anvil_* methods viem's test client would otherwise need a separate client for). */
export async function rpcCall<T = unknown>(rpcUrl: string, method: string, params: unknown[] = [], timeoutMs = 10_000): Promise<T> {
  const res = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const body = (await res.json()) as { result?: T; error?: { code: number; message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message} (${body.error.code})`);
  return body.result as T;
}

const accountQueues = new Map<string, Promise<unknown>>();

/**
 * Run `fn` after every earlier `withAccountLock` call for the same sender has finished, so concurrent
 * senders from one account (faucet requests, set-up) never race for a nonce. `fn` should wait for its
 * receipt before returning.
 */
export function withAccountLock<T>(address: string, fn: () => Promise<T>): Promise<T> {
  const key = address.toLowerCase();
  const prev = accountQueues.get(key) ?? Promise.resolve();
  const next = prev.then(fn, fn);
  const settled = next.then(
    () => undefined,
    () => undefined,
  );
  accountQueues.set(key, settled);
  void settled.then(() => {
    if (accountQueues.get(key) === settled) accountQueues.delete(key);
  });
  return next;
}

/**
 * Mine an empty block when the latest one is older than `maxAgeSeconds`; returns whether it did.
 *
 * Anvil mines only when a transaction arrives, and `eth_call` at "latest" runs with the latest block's
 * timestamp. So on an idle sandbox, simulations see an old `block.timestamp`: an x402 EIP-3009
 * authorization (validAfter = now - 600 s) "is not yet valid" after ten idle minutes and the facilitator
 * reports `invalid_exact_evm_transaction_simulation_failed`. Base mines every 2 s; call this (sandbox
 * only) before simulating.
 */
export async function mineIfStale(rpcUrl: string, maxAgeSeconds = 30): Promise<boolean> {
  const latest = await rpcCall<{ timestamp: string } | null>(rpcUrl, "eth_getBlockByNumber", ["latest", false]);
  const age = Math.floor(Date.now() / 1000) - Number(latest?.timestamp ?? 0);
  if (age <= maxAgeSeconds) return false;
  await rpcCall(rpcUrl, "evm_mine");
  return true;
}
