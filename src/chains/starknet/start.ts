/**
 * The Starknet chain of a deployment, built once in the composition root:
 * - STARKNET_RPC_URL: that node (JSON-RPC 0.10); its chain id must be SN_MAIN; explorer links go to Voyager.
 * - otherwise, with the sandbox on: the sandbox node (./sandbox) on loopback, state in DATA_DIR/sandbox/starknet,
 *   fixed prices, a faucet, the sandbox explorer.
 * - otherwise none: Starknet wallets are refused on this deployment.
 */
import type { KeyVault } from "../custody";
import { ChainUnavailableError } from "../port";
import { createStarknetAdapter } from "./adapter";
import { STARKNET_TOKENS, SN_MAIN } from "./constants";
import { createStarkSigner } from "./custody";
import { startStarknetSandbox, type StarknetSandbox } from "./sandbox";
import { createStarknetFaucet, type StarknetFaucet } from "./sandbox/faucet";
import { starknetRpc } from "./rpc-client";
import { randomBytes } from "node:crypto";
import { SANDBOX_FORWARDER, SANDBOX_POOL_ADDRESS } from "./sandbox/strk20/model";
import { createSandboxPaymaster } from "./sandbox/strk20/paymaster";
import { startSandboxProver } from "./sandbox/strk20/prover";
import { strk20Settings, type Strk20Settings } from "./strk20/settings";
import { createStrk20, type Strk20Module } from "./strk20/private-actions";

/** Sandbox prices (USD per whole unit), fixed so limits in USD are predictable there. */
export const SANDBOX_STARKNET_PRICES: Record<string, number> = { STRK: 0.5, ETH: 3000, USDC: 1, USDT: 1 };

export interface StarknetRuntime {
  adapter: ReturnType<typeof createStarknetAdapter>;
  sandbox: StarknetSandbox | null;
  faucet: StarknetFaucet | null;
  /** STRK20 private actions: the pool, prover and paymaster this deployment uses; null when not configured. */
  strk20: Strk20Settings | null;
  /** The STRK20 verbs over those settings (src/strk20/service.ts wraps them); null when not configured. */
  strk20Module: Strk20Module | null;
  /** What GET /admin/v1/sandbox reports (sandbox only). */
  describe(): { rpcUrl: string; chainId: string; tokens: Record<string, string>; faucet: string } | null;
  stop(): Promise<void>;
}

export interface StartStarknetOptions {
  sandbox: boolean;
  dataDir: string;
  publicUrl: string;
  vault: KeyVault;
  keyRefOf(walletId: string): Promise<string | null>;
  rpcUrl?: string;
  /**
   * Production prices: USD per whole unit by token symbol (STRK, ETH, USDC, USDT), from the deployment's price
   * port; null when unknown (never guessed). The sandbox uses fixed ones.
   */
  pricesBySymbol?: (symbol: string) => Promise<number | null>;
  /** Tests: keep the sandbox node's state in memory. */
  ephemeral?: boolean;
  /** Production STRK20 settings (STRK20_* variables); the sandbox starts its own pool, prover and paymaster. */
  strk20?: { pool?: string; proverUrl?: string; paymasterUrl?: string; apiKey?: string; feeRecipients?: string; maxRelayFee?: string; provingLagBlocks?: number };
  /** The service's clock (the proof expiry's five-minute rule reads it); the system clock by default. */
  now?: () => Date;
  /** Sandbox: the pool's proof validity window in blocks (tests use a few). */
  proofValidityBlocks?: bigint;
  logger?: { info(o: object, m: string): void; warn(o: object, m: string): void };
}

const TOKENS = Object.fromEntries(STARKNET_TOKENS.map((t) => [t.symbol, t.address]));

export async function startStarknet(o: StartStarknetOptions): Promise<StarknetRuntime | null> {
  const custody = createStarkSigner(o.vault);
  const nowMs = o.now ? () => o.now!().getTime() : undefined;
  if (o.rpcUrl) {
    const id = await starknetRpc(o.rpcUrl, 5000)
      .call<string>("starknet_chainId", {})
      .catch((e: unknown) => {
        o.logger?.warn({ rpc: "STARKNET_RPC_URL", err: (e as Error).message }, "the Starknet RPC did not answer at start-up; assuming SN_MAIN until it does");
        return SN_MAIN;
      });
    if (BigInt(id) !== BigInt(SN_MAIN)) throw new ChainUnavailableError(`STARKNET_RPC_URL serves chain ${id}, not SN_MAIN (the tokens and addresses this service knows are mainnet's)`);
    const bySymbol = o.pricesBySymbol;
    const symbolOf = new Map(STARKNET_TOKENS.map((t) => [t.address, t.symbol]));
    const usd = async (address: string) => {
      const sym = symbolOf.get(address);
      return sym && bySymbol ? bySymbol(sym).catch(() => null) : null;
    };
    const strk20 = strk20Settings({ ...o.strk20, sandbox: false });
    const adapter = createStarknetAdapter({ rpcUrl: o.rpcUrl, custody, sandbox: false, keyRefOf: o.keyRefOf, prices: { usd }, strk20Pool: strk20?.pool ?? null, now: o.now });
    const strk20Module = strk20 ? createStrk20(strk20, { rpcUrl: o.rpcUrl, custody, assets: adapter.assets, now: nowMs }) : null;
    return { adapter, sandbox: null, faucet: null, strk20, strk20Module, describe: () => null, stop: async () => {} };
  }
  if (!o.sandbox) return null;
  const sandbox = await startStarknetSandbox({ dataDir: o.ephemeral ? undefined : `${o.dataDir}/sandbox/starknet`, proofValidityBlocks: o.proofValidityBlocks });
  o.logger?.info({ rpcUrl: sandbox.url }, "Starknet sandbox node (a model of the protocol, not a Cairo VM) listening");
  // The local STRK20 prover (proofs are HMACs of their facts, not STARKs) and paymaster, on loopback.
  const apiKey = o.strk20?.apiKey ?? "sandbox_pm_" + randomBytes(12).toString("hex");
  const prover = await startSandboxProver(sandbox.node);
  const paymaster = await createSandboxPaymaster(sandbox.node, { apiKey }).start();
  o.logger?.info({ prover: prover.url, paymaster: paymaster.url }, "STRK20 sandbox prover and paymaster listening (no STARK is proven or verified)");
  const strk20 = strk20Settings({ ...o.strk20, pool: SANDBOX_POOL_ADDRESS, proverUrl: prover.url, paymasterUrl: paymaster.url, apiKey, feeRecipients: SANDBOX_FORWARDER, sandbox: true });
  const bySymbol = new Map(STARKNET_TOKENS.map((t) => [t.address, SANDBOX_STARKNET_PRICES[t.symbol] ?? null]));
  const adapter = createStarknetAdapter({
    rpcUrl: sandbox.url,
    custody,
    sandbox: true,
    keyRefOf: o.keyRefOf,
    prices: { usd: async (a) => bySymbol.get(a) ?? null },
    sandboxExplorerUrl: `${o.publicUrl}/sandbox/explorer/starknet`,
    strk20Pool: strk20?.pool ?? null,
    now: o.now,
  });
  const faucet = createStarknetFaucet(sandbox.url, sandbox.node.faucet);
  return {
    adapter,
    sandbox,
    faucet,
    strk20,
    strk20Module: strk20 ? createStrk20(strk20, { rpcUrl: sandbox.url, custody, assets: adapter.assets, now: nowMs }) : null,
    describe: () => ({ rpcUrl: sandbox.url, chainId: "0x" + sandbox.node.chainId.toString(16), tokens: TOKENS, faucet: faucet.address }),
    stop: async () => {
      await Promise.all([prover.close(), paymaster.close()]);
      await sandbox.close();
    },
  };
}
