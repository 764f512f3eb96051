/**
 * Well-known addresses of the sandbox chain. USDC, WETH and Multicall3 sit at their real Base mainnet
 * addresses, so clients with Base defaults (the official x402 client, viem's multicall) work unchanged.
 * The pool and the batch executor have no Base counterpart and live at fixed sandbox-only addresses.
 */
import type { Address } from "viem";

export const SANDBOX_CHAIN_ID = 8453;
/** CAIP-2 id of the chain (Base mainnet's, which the sandbox impersonates). */
export const SANDBOX_NETWORK = "eip155:8453" as const;

/** Circle USDC on Base; in the sandbox the runtime of SandboxUSDC.sol. */
export const BASE_USDC: Address = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
export const USDC_DECIMALS = 6;
/** EIP-712 domain of USDC on Base (and of SandboxUSDC). */
export const USDC_EIP712_NAME = "USD Coin";
export const USDC_EIP712_VERSION = "2";
/** Storage slot of SandboxUSDC's minter (see the layout comment in SandboxUSDC.sol). */
export const USDC_MINTER_SLOT = 0n;

/** WETH predeploy on Base (OP Stack); in the sandbox the runtime of WETH.sol. */
export const BASE_WETH: Address = "0x4200000000000000000000000000000000000006";
export const WETH_DECIMALS = 18;

/** Canonical Multicall3 (same address on every chain). */
export const MULTICALL3: Address = "0xcA11bde05977b3631167028862bE2a173976CA11";

/** Sandbox-only: the WETH/USDC constant-product pool (ConstantProductPool.sol). */
export const SANDBOX_POOL: Address = "0xA4b1000000000000000000000000000000000001";
/** Sandbox-only: the EIP-7702 delegation target for atomic batches (BatchExecutor.sol). */
export const BATCH_EXECUTOR: Address = "0xA4B1000000000000000000000000000000000002";
/** Sandbox-only: the receipt anchor contract (ReceiptAnchor.sol, docs/receipts.md). */
export const RECEIPT_ANCHOR: Address = "0xA4b1000000000000000000000000000000000003";

/** Liquidity seeded into the pool at set-up: 100 WETH / 300,000 USDC (ETH ~ $3,000). */
export const POOL_SEED_WETH = 100n * 10n ** 18n;
export const POOL_SEED_USDC = 300_000n * 10n ** 6n;

export interface SandboxAddresses {
  chainId: number;
  network: typeof SANDBOX_NETWORK;
  usdc: Address;
  weth: Address;
  multicall3: Address;
  pool: Address;
  batchExecutor: Address;
  receiptAnchor: Address;
}

export const SANDBOX_ADDRESSES: SandboxAddresses = Object.freeze({
  chainId: SANDBOX_CHAIN_ID,
  network: SANDBOX_NETWORK,
  usdc: BASE_USDC,
  weth: BASE_WETH,
  multicall3: MULTICALL3,
  pool: SANDBOX_POOL,
  batchExecutor: BATCH_EXECUTOR,
  receiptAnchor: RECEIPT_ANCHOR,
});
