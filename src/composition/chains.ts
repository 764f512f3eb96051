/**
 * The chains of a deployment, wired once for the composition root (src/deps.ts): the Base chain (sandbox
 * anvil in DATA_DIR, or BASE_RPC_URL), Solana (SOLANA_RPC_URL, else the litesvm sandbox cluster under
 * DATA_DIR/sandbox/solana), Starknet (STARKNET_RPC_URL, else the sandbox node), the keystore custodian
 * (keys sealed with the master key) and the chain registry the escrow core picks adapters from.
 * Each started chain registers its stop with `cleanups` (front first, so the last started stops first).
 */
import type { Logger } from "pino";
import type { Config } from "../config";
import type { Database } from "../db/client";
import type { Clock } from "../lib/clock";
import { startChain, type ChainRuntime } from "../chains/evm/start";
import { startStarknet, type StarknetRuntime } from "../chains/starknet/start";
import { startSolana, type SolanaRuntime } from "../chains/solana/start";
import { createEvmKeystoreSigner } from "../chains/evm/custody";
import { createEvmAdapter } from "../chains/evm/adapter";
import { createChainRegistry, type ChainRegistry } from "../chains/port";
import { NATIVE } from "../chains/types";
import type { MasterKey } from "../wallets/custody/envelope";
import { envelopeVault } from "../wallets/custody/vault";

export interface WiredChains {
  chain: ChainRuntime | null;
  solana: SolanaRuntime | null;
  starknet: StarknetRuntime | null;
  /** The secp256k1 custody signer for the EVM chains (swaps and payments sign with it too). */
  keystore: ReturnType<typeof createEvmKeystoreSigner>;
  chains: ChainRegistry;
}

export async function startChains(
  config: Config,
  o: { db: Database; clock: Clock; logger: Logger; masterKey: MasterKey; cleanups: (() => Promise<void> | void)[] },
): Promise<WiredChains> {
  const { db, clock, logger, masterKey, cleanups } = o;
  const chain = await startChain(config, { clock, logger: logger.child({ component: "anvil" }) });
  if (chain) cleanups.unshift(() => chain.stop());
  const solana = await startSolana({
    sandbox: config.sandbox,
    dataDir: config.DATA_DIR,
    publicUrl: config.PUBLIC_URL,
    vault: envelopeVault(masterKey),
    rpcUrl: config.SOLANA_RPC_URL,
    wsUrl: config.SOLANA_WS_URL,
    sandboxPort: config.SOLANA_SANDBOX_RPC_PORT,
    logger: logger.child({ component: "solana" }),
  });
  if (solana) cleanups.unshift(() => solana.stop());
  const starknet = await startStarknet({
    sandbox: config.sandbox && !config.STARKNET_RPC_URL,
    rpcUrl: config.STARKNET_RPC_URL,
    dataDir: config.DATA_DIR,
    publicUrl: config.PUBLIC_URL,
    vault: envelopeVault(masterKey),
    keyRefOf: async (walletId) => (await db.selectFrom("wallets").select("key_ref").where("id", "=", walletId).where("chain", "=", "starknet").executeTakeFirst())?.key_ref ?? null,
    now: () => clock.now(),
    // Production: the Base chain's price port (Chainlink over BASE_RPC_URL) for the assets both chains carry
    // (ETH, USDC, USDT); STRK has no feed there, so it has no price and a USD limit on it holds the proposal.
    pricesBySymbol:
      chain && !chain.sandbox
        ? async (symbol) => {
            const r = chain.base.tokens.resolveAsset(symbol);
            return r ? chain.base.prices.usd(r.kind === "native" ? NATIVE : r.token.address) : null;
          }
        : undefined,
    logger: logger.child({ component: "starknet" }),
    strk20: {
      pool: config.STRK20_POOL_ADDRESS,
      proverUrl: config.STRK20_PROVER_URL,
      paymasterUrl: config.STRK20_PAYMASTER_URL,
      apiKey: config.STRK20_PAYMASTER_API_KEY,
      feeRecipients: config.STRK20_FEE_RECIPIENTS,
      maxRelayFee: config.STRK20_MAX_RELAY_FEE,
      provingLagBlocks: config.STRK20_PROVING_LAG_BLOCKS,
    },
  });
  if (starknet) cleanups.unshift(() => starknet.stop());
  // One vault over the master key; one custody signer per key family (secp256k1 for the EVM chains).
  const keystore = createEvmKeystoreSigner(envelopeVault(masterKey));
  const chains = createChainRegistry([...(chain ? [createEvmAdapter(chain.base, keystore, { clock })] : []), ...(solana ? [solana.adapter] : []), ...(starknet ? [starknet.adapter] : [])]);
  return { chain, solana, starknet, keystore, chains };
}
