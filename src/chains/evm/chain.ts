/**
 * The EVM chain a wallet lives on, as the services see it: a viem public client, raw JSON-RPC for the
 * methods viem does not wrap (eth_simulateV1, debug_traceCall), the token registry, a price source,
 * explorer links and the EIP-7702 batch executor used for atomic `evm_calls`.
 *
 * Built once in the composition root (startChain): the sandbox (anvil) or any Base RPC (BASE_RPC_URL).
 */
import { createPublicClient, defineChain, http, type Address, type Hex, type PublicClient } from "viem";
import type { PriceSource } from "../../pricing/source";
import type { TokenRegistry } from "./tokens";

export interface EvmChainInfo {
  /** Wallet `chain` value this client serves ("base"; legacy "ethereum" wallets have no client yet). */
  key: "base" | "ethereum";
  caip2: string;
  chainId: number;
  name: string;
}

export const BASE_INFO: EvmChainInfo = { key: "base", caip2: "eip155:8453", chainId: 8453, name: "Base" };
export const ETHEREUM_INFO: EvmChainInfo = { key: "ethereum", caip2: "eip155:1", chainId: 1, name: "Ethereum" };

export interface EvmChain {
  info: EvmChainInfo;
  rpcUrl: string;
  client: PublicClient;
  /** Raw JSON-RPC; throws RpcError carrying the node's code and message. */
  rpc<T>(method: string, params: unknown[], timeoutMs?: number): Promise<T>;
  tokens: TokenRegistry;
  prices: PriceSource;
  /** EIP-7702 delegation target for atomic batches; null when the deployment has none (batches refused). */
  batchExecutor: Address | null;
  sandbox: boolean;
  explorerTxUrl(hash: Hex): string | null;
  explorerAddressUrl(address: string): string | null;
  /** How long a propose call waits for a receipt before answering `executing`. */
  receiptTimeoutMs: number;
}

export class RpcError extends Error {
  constructor(
    readonly method: string,
    readonly code: number | null,
    message: string,
    readonly data?: unknown,
  ) {
    super(`${method}: ${message}${code !== null ? ` (${code})` : ""}`);
    this.name = "RpcError";
  }
  /** The node answered (as opposed to: could not be reached). */
  get answered(): boolean {
    return this.code !== null;
  }
}

export interface CreateEvmChainOptions {
  info: EvmChainInfo;
  rpcUrl: string;
  tokens: TokenRegistry;
  prices: PriceSource;
  batchExecutor: Address | null;
  sandbox: boolean;
  /** Explorer base, e.g. https://basescan.org; null for none. */
  explorerBaseUrl: string | null;
  receiptTimeoutMs?: number;
}

export function createEvmChain(o: CreateEvmChainOptions): EvmChain {
  const chain = defineChain({
    id: o.info.chainId,
    name: o.info.name,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [o.rpcUrl] } },
    contracts: { multicall3: { address: "0xcA11bde05977b3631167028862bE2a173976CA11" } },
  });
  const client = createPublicClient({
    chain,
    transport: http(o.rpcUrl, { retryCount: o.sandbox ? 1 : 3, timeout: 20_000 }),
    pollingInterval: o.sandbox ? 100 : 1000,
  }) as PublicClient;
  let nextId = 1;
  const base = o.explorerBaseUrl?.replace(/\/+$/, "") ?? null;
  return {
    info: o.info,
    rpcUrl: o.rpcUrl,
    client,
    async rpc<T>(method: string, params: unknown[], timeoutMs = 20_000): Promise<T> {
      let res: Response;
      try {
        res = await fetch(o.rpcUrl, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params }),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (err) {
        throw new RpcError(method, null, `RPC unreachable: ${(err as Error).message}`);
      }
      let body: { result?: T; error?: { code: number; message: string; data?: unknown } };
      try {
        body = (await res.json()) as typeof body;
      } catch {
        throw new RpcError(method, null, `RPC answered HTTP ${res.status} without JSON`);
      }
      if (body.error) throw new RpcError(method, body.error.code ?? -1, body.error.message ?? "error", body.error.data);
      return body.result as T;
    },
    tokens: o.tokens,
    prices: o.prices,
    batchExecutor: o.batchExecutor,
    sandbox: o.sandbox,
    explorerTxUrl: (hash) => (base ? `${base}/tx/${hash}` : null),
    explorerAddressUrl: (address) => (base ? `${base}/address/${address}` : null),
    receiptTimeoutMs: o.receiptTimeoutMs ?? (o.sandbox ? 15_000 : 45_000),
  };
}
