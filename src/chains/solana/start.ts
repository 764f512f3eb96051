/**
 * The Solana chain of a deployment, built once in the composition root:
 * - SOLANA_RPC_URL (and SOLANA_WS_URL for clients that want it): that cluster; its genesis hash, read at
 *   start-up, gives the CAIP-2 id (mainnet: solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp) and the explorer
 *   cluster; mainnet prices come from Pyth's push-feed accounts over the same RPC.
 * - otherwise, with the sandbox on: the local litesvm cluster (./sandbox) persisted under
 *   DATA_DIR/sandbox/solana, its own genesis hash and CAIP-2 id, USDC at the mainnet mint, fixed prices.
 * - otherwise none: Solana wallets are refused on this deployment.
 */
import type { KeyVault } from "../custody";
import type { ChainInfo } from "../types";
import { createSolanaAdapter, type SolanaAdapter } from "./adapter";
import { createSolanaAssets } from "./assets";
import { createSolanaClient } from "./client";
import { createEd25519Custody } from "./custody";
import { MAINNET_GENESIS, solanaExplorer } from "./explorer";
import { cachedSolanaPrices, fixedSolanaPrices, pythPrices } from "./prices";
import { startSolanaSandbox, type SolanaSandbox } from "./sandbox";
import { MAINNET_SPL_TOKENS, SANDBOX_SPL_TOKENS, SplTokenRegistry } from "./tokens";

export interface SolanaRuntime {
  adapter: SolanaAdapter;
  sandbox: SolanaSandbox | null;
  /** What GET /admin/v1/sandbox reports (sandbox only). */
  describe(): { rpcUrl: string; wsUrl: string; genesisHash: string; caip2: string; usdcMint: string } | null;
  stop(): Promise<void>;
}

export interface StartSolanaOptions {
  sandbox: boolean;
  dataDir: string;
  publicUrl: string;
  vault: KeyVault;
  rpcUrl?: string;
  wsUrl?: string;
  /** Sandbox RPC port (WebSocket on port + 1); undefined = 8899 when free, else any free pair; 0 = any. */
  sandboxPort?: number;
  /** Tests: keep the sandbox ledger in memory. */
  ephemeral?: boolean;
  logger?: { info(o: object, m: string): void; warn(o: object, m: string): void };
}

/** SPEC 4.7: no safe mode on Solana; SPEC 3: a named Solana transfer always waits for the owner. */
const SOLANA_RULES = { safeMode: false, ownerConfirmsKinds: ["transfer"] } as const;

const caip2Of = (genesis: string) => `solana:${genesis.slice(0, 32)}`;

export async function startSolana(o: StartSolanaOptions): Promise<SolanaRuntime | null> {
  const custody = createEd25519Custody(o.vault);
  if (o.rpcUrl) {
    const probe = createSolanaClient(o.rpcUrl, caip2Of(MAINNET_GENESIS));
    const genesis = await probe.rpc.getGenesisHash().send().then(String).catch(() => null);
    if (!genesis) o.logger?.warn({ rpc: "SOLANA_RPC_URL" }, "the Solana RPC did not answer at start-up; assuming mainnet-beta until it does");
    const genesisHash = genesis ?? MAINNET_GENESIS;
    const info: ChainInfo = { key: "solana", family: "solana", caip2: caip2Of(genesisHash), names: ["solana"], name: "Solana", sandbox: false, ...SOLANA_RULES };
    const client = createSolanaClient(o.rpcUrl, info.caip2);
    const prices = genesisHash === MAINNET_GENESIS ? cachedSolanaPrices(pythPrices(o.rpcUrl), 30_000) : fixedSolanaPrices({});
    const assets = createSolanaAssets(new SplTokenRegistry(genesisHash === MAINNET_GENESIS ? MAINNET_SPL_TOKENS : []), prices);
    const adapter = createSolanaAdapter({ info, client, assets, custody, explorer: solanaExplorer({ sandboxBaseUrl: null, genesisHash, rpcUrl: o.rpcUrl }) });
    return { adapter, sandbox: null, describe: () => null, stop: async () => {} };
  }
  if (!o.sandbox) return null;
  const sandbox = await startSandboxOnPort(o);
  const info: ChainInfo = { key: "solana", family: "solana", caip2: sandbox.caip2, names: ["solana"], name: "Solana (Arbiter sandbox)", sandbox: true, ...SOLANA_RULES };
  const client = createSolanaClient(sandbox.rpcUrl, info.caip2);
  const assets = createSolanaAssets(new SplTokenRegistry(SANDBOX_SPL_TOKENS), fixedSolanaPrices());
  const explorer = solanaExplorer({ sandboxBaseUrl: `${o.publicUrl}/sandbox/explorer/solana`, genesisHash: sandbox.genesisHash, rpcUrl: sandbox.rpcUrl });
  const adapter = createSolanaAdapter({ info, client, assets, custody, explorer });
  return {
    adapter,
    sandbox,
    describe: () => ({ rpcUrl: sandbox.rpcUrl, wsUrl: sandbox.wsUrl, genesisHash: sandbox.genesisHash, caip2: sandbox.caip2, usdcMint: sandbox.usdcMint }),
    stop: () => sandbox.stop(),
  };
}

async function startSandboxOnPort(o: StartSolanaOptions): Promise<SolanaSandbox> {
  const dataDir = o.ephemeral ? undefined : o.dataDir;
  if (o.sandboxPort !== undefined) return startSolanaSandbox({ dataDir, port: o.sandboxPort, logger: o.logger });
  try {
    return await startSolanaSandbox({ dataDir, port: 8899, logger: o.logger });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EADDRINUSE") throw err;
    o.logger?.warn({ port: 8899 }, "port 8899 (or 8900) is taken; the Solana sandbox listens on a free pair instead (GET /admin/v1/sandbox says where)");
    return startSolanaSandbox({ dataDir, port: 0, logger: o.logger });
  }
}
