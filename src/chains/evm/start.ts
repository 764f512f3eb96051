/**
 * The Base chain of a deployment, built once in the composition root:
 * - sandbox (config.sandbox): anvil under DATA_DIR/sandbox (state persisted across restarts) with the
 *   well-known contracts (USDC and WETH at their Base addresses, Multicall3, the EIP-7702 BatchExecutor),
 *   a faucet, fixed prices that match the seeded pool;
 * - production (BASE_RPC_URL): that RPC, Chainlink prices read over it, Basescan links. Batches need a
 *   BatchExecutor deployed on Base: pass its address as `batchExecutor` (none is assumed).
 */
import type { Address } from "viem";
import type { Config } from "../../config";
import type { Clock } from "../../lib/clock";
import { cachedPrices, fixedPrices } from "../../pricing/source";
import { BASE_CHAINLINK_FEEDS, chainlinkPrices } from "../../pricing/chainlink";
import { startSandbox, type AnvilLogger, type Sandbox } from "../../sandbox";
import { BASE_INFO, createEvmChain, type EvmChain } from "./chain";
import { BASE_TOKENS, NATIVE, SANDBOX_TOKENS, TokenRegistry } from "./tokens";

export interface ChainRuntime {
  base: EvmChain;
  /** The local chain, when running the sandbox (faucet, operator accounts, facilitator). */
  sandbox: Sandbox | null;
  stop(): Promise<void>;
}

/** Sandbox USD prices: ETH matches the seeded WETH/USDC pool (100 WETH : 300,000 USDC). */
export const SANDBOX_PRICES: Record<string, number> = {
  [NATIVE]: 3000,
  "0x4200000000000000000000000000000000000006": 3000,
  "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913": 1,
};

export interface StartChainOptions {
  clock: Clock;
  logger?: AnvilLogger;
  /** Production only: the BatchExecutor deployed on Base for atomic evm_calls. */
  batchExecutor?: Address | null;
  /** Sandbox: keep the chain in memory (tests). Default: persisted under DATA_DIR/sandbox. */
  ephemeral?: boolean;
}

export async function startChain(config: Config, o: StartChainOptions): Promise<ChainRuntime | null> {
  if (config.sandbox) {
    const sandbox = await startSandbox({
      dataDir: config.DATA_DIR,
      port: config.SANDBOX_RPC_PORT,
      logger: o.logger,
      ...(o.ephemeral ? { stateFile: false as const } : {}),
    });
    const base = createEvmChain({
      info: BASE_INFO,
      rpcUrl: sandbox.rpcUrl,
      tokens: new TokenRegistry(SANDBOX_TOKENS),
      prices: fixedPrices("sandbox-fixed", SANDBOX_PRICES),
      batchExecutor: sandbox.addresses.batchExecutor,
      sandbox: true,
      explorerBaseUrl: `${config.PUBLIC_URL}/sandbox/explorer`,
    });
    return { base, sandbox, stop: () => sandbox.stop() };
  }
  if (config.BASE_RPC_URL) {
    const tokens = new TokenRegistry(BASE_TOKENS);
    const probe = createEvmChain({ info: BASE_INFO, rpcUrl: config.BASE_RPC_URL, tokens, prices: fixedPrices("none", {}), batchExecutor: null, sandbox: false, explorerBaseUrl: null });
    // Signatures carry the chain id (EIP-155), so a wrong RPC cannot misdirect funds; it would still show
    // wrong balances and simulations, so refuse to start on one. An unreachable RPC is not fatal.
    const chainId = await probe.client.getChainId().catch(() => null);
    if (chainId !== null && chainId !== BASE_INFO.chainId) throw new Error(`BASE_RPC_URL answers chain id ${chainId}, not Base (${BASE_INFO.chainId})`);
    if (chainId === null) o.logger?.warn({ rpc: "BASE_RPC_URL" }, "the Base RPC did not answer at start-up; escrow calls will fail until it does");
    const base = createEvmChain({
      info: BASE_INFO,
      rpcUrl: config.BASE_RPC_URL,
      tokens,
      prices: cachedPrices(chainlinkPrices(probe.client, BASE_CHAINLINK_FEEDS, o.clock), 30_000, o.clock),
      batchExecutor: o.batchExecutor ?? (config.BATCH_EXECUTOR_ADDRESS as Address | undefined) ?? null,
      sandbox: false,
      explorerBaseUrl: "https://basescan.org",
    });
    return { base, sandbox: null, stop: async () => {} };
  }
  return null;
}
