/**
 * The embedded sandbox chain in one call: anvil (supervised, persisted under DATA_DIR when given), the
 * well-known contracts, funded operator accounts and the faucet.
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { toHex, type Hex } from "viem";
import { startAnvil, type AnvilHandle, type AnvilLogger } from "./anvil";
import { SANDBOX_ADDRESSES, type SandboxAddresses } from "./addresses";
import { createFaucet, type Faucet } from "./faucet";
import { deriveSandboxAccounts, ensureSandboxContracts, loadOrCreateSandboxSeed, type SandboxAccounts } from "./setup";
import { createLocalFacilitator, type LocalFacilitator, type LocalFacilitatorOptions } from "../x402/facilitator";

export * from "./addresses";
export { startAnvil, getFreePort, anvilBinaryPath } from "./anvil";
export type { AnvilHandle, AnvilLogger, AnvilRestartInfo, StartAnvilOptions } from "./anvil";
export { sandboxChain, sandboxPublicClient, sandboxWalletClient, rpcCall, withAccountLock, mineIfStale } from "./chain";
export { createFaucet } from "./faucet";
export type { Faucet, FaucetAsset, FundRequest, FundResult } from "./faucet";
export { deriveSandboxAccounts, ensureSandboxContracts, loadOrCreateSandboxSeed } from "./setup";
export type { SandboxAccounts } from "./setup";

export interface StartSandboxOptions {
  /** Holds `sandbox/seed` and, unless `stateFile` says otherwise, `sandbox/anvil-state.json`. */
  dataDir?: string;
  /** 32-byte hex seed for the operator keys; default: read/create under dataDir, else random (ephemeral). */
  seed?: Hex;
  /** anvil state file; `false` for an in-memory chain. Default: `<dataDir>/sandbox/anvil-state.json` when dataDir is set. */
  stateFile?: string | false;
  port?: number;
  logger?: AnvilLogger;
}

export interface Sandbox {
  anvil: AnvilHandle;
  readonly rpcUrl: string;
  accounts: SandboxAccounts;
  addresses: SandboxAddresses;
  faucet: Faucet;
  /**
   * An in-process x402 facilitator settling on this chain with the relayer account, mining a block first
   * when the chain has been idle for more than 30 s (see mineIfStale).
   */
  createFacilitator(opts?: Partial<Omit<LocalFacilitatorOptions, "rpcUrl" | "relayer">>): LocalFacilitator;
  stop(): Promise<void>;
}

export async function startSandbox(opts: StartSandboxOptions = {}): Promise<Sandbox> {
  const seed = opts.seed ?? (opts.dataDir ? loadOrCreateSandboxSeed(opts.dataDir) : toHex(randomBytes(32)));
  const accounts = deriveSandboxAccounts(seed);
  const stateFile =
    opts.stateFile === false ? undefined : (opts.stateFile ?? (opts.dataDir ? join(opts.dataDir, "sandbox", "anvil-state.json") : undefined));
  let addresses: SandboxAddresses = SANDBOX_ADDRESSES;
  const anvil = await startAnvil({
    port: opts.port,
    stateFile,
    logger: opts.logger,
    setup: async (rpcUrl) => {
      addresses = await ensureSandboxContracts(rpcUrl, { faucet: accounts.faucet, fundAddresses: [accounts.relayer.address, accounts.anchor.address] });
    },
  });
  const faucet = createFaucet({ rpcUrl: anvil.rpcUrl, account: accounts.faucet });
  return {
    anvil,
    get rpcUrl() {
      return anvil.rpcUrl;
    },
    accounts,
    get addresses() {
      return addresses;
    },
    faucet,
    createFacilitator: (o = {}) =>
      createLocalFacilitator({ mineWhenStaleSeconds: 30, pollingIntervalMs: 100, ...o, rpcUrl: anvil.rpcUrl, relayer: accounts.relayer }),
    stop: () => anvil.stop(),
  };
}
