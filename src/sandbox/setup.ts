/**
 * Sandbox chain set-up: well-known contracts at their Base addresses, a funded faucet (the USDC minter) and
 * relayer, and a seeded WETH/USDC pool. Everything here is idempotent: it inspects the chain and only
 * writes what is missing, so it can run at every start and after every anvil restart.
 */
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  concat,
  isHex,
  keccak256,
  pad,
  stringToHex,
  toHex,
  type Address,
  type Hex,
  type PrivateKeyAccount,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import {
  BASE_USDC,
  BASE_WETH,
  BATCH_EXECUTOR,
  MULTICALL3,
  RECEIPT_ANCHOR,
  POOL_SEED_USDC,
  POOL_SEED_WETH,
  SANDBOX_ADDRESSES,
  SANDBOX_POOL,
  USDC_MINTER_SLOT,
  type SandboxAddresses,
} from "./addresses";
import { rpcCall, sandboxPublicClient, sandboxWalletClient, withAccountLock } from "./chain";
import { ConstantProductPoolAbi, SandboxUSDCAbi, WETHAbi, runtimeCode, type ContractName } from "./contracts";

// ------------------------------------------------------------------ accounts

export interface SandboxAccounts {
  /** Pays gas for x402 settlement (the in-process facilitator's signer). */
  relayer: PrivateKeyAccount;
  /** Sends faucet ETH and is the USDC minter. */
  faucet: PrivateKeyAccount;
  /** Receives credit top-ups (x402 `payTo`). */
  payTo: PrivateKeyAccount;
  /** Writes receipt batch roots to the anchor contract (unless ANCHOR_PRIVATE_KEY is set). */
  anchor: PrivateKeyAccount;
  relayerKey: Hex;
  faucetKey: Hex;
  payToKey: Hex;
  anchorKey: Hex;
}

const deriveKey = (seed: Hex, label: string): Hex => keccak256(concat([seed, stringToHex(`arbiter.sandbox.${label}`)]));

/** Deterministic sandbox keys from a 32-byte seed: the same seed gives the same addresses on every run. */
export function deriveSandboxAccounts(seed: Hex): SandboxAccounts {
  if (!isHex(seed) || seed.length !== 66) throw new Error("sandbox seed must be 32 bytes of hex (0x + 64 digits)");
  const relayerKey = deriveKey(seed, "relayer");
  const faucetKey = deriveKey(seed, "faucet");
  const payToKey = deriveKey(seed, "payTo");
  const anchorKey = deriveKey(seed, "anchor");
  return {
    relayer: privateKeyToAccount(relayerKey),
    faucet: privateKeyToAccount(faucetKey),
    payTo: privateKeyToAccount(payToKey),
    anchor: privateKeyToAccount(anchorKey),
    relayerKey,
    faucetKey,
    payToKey,
    anchorKey,
  };
}

/** Reads `<dataDir>/sandbox/seed`, creating it (random, mode 0600) on first use. */
export function loadOrCreateSandboxSeed(dataDir: string): Hex {
  const dir = join(dataDir, "sandbox");
  const file = join(dir, "seed");
  if (existsSync(file)) {
    const seed = readFileSync(file, "utf8").trim();
    if (!isHex(seed) || seed.length !== 66) throw new Error(`${file} does not hold a 32-byte hex seed`);
    return seed;
  }
  mkdirSync(dir, { recursive: true });
  const seed = toHex(randomBytes(32));
  writeFileSync(file, `${seed}\n`, { mode: 0o600, flag: "wx" });
  chmodSync(file, 0o600);
  return seed;
}

// ------------------------------------------------------------------ contracts

/** Where each contract's runtime code goes. */
export const SANDBOX_CODE_PLACEMENT: ReadonlyArray<{ address: Address; contract: ContractName }> = [
  { address: BASE_USDC, contract: "SandboxUSDC" },
  { address: MULTICALL3, contract: "Multicall3" },
  { address: BASE_WETH, contract: "WETH" },
  { address: SANDBOX_POOL, contract: "ConstantProductPool" },
  { address: BATCH_EXECUTOR, contract: "BatchExecutor" },
  { address: RECEIPT_ANCHOR, contract: "ReceiptAnchor" },
];

/** ETH kept on the faucet and relayer (topped up with anvil_setBalance when below half of it). */
export const SANDBOX_OPERATOR_ETH = 1_000_000n * 10n ** 18n;

export interface EnsureSandboxOptions {
  /** The USDC minter and sender of seeding transactions. */
  faucet: PrivateKeyAccount;
  /** Further addresses to keep funded with ETH (e.g. the relayer). */
  fundAddresses?: Address[];
  /** Seed the pool (default true). */
  seedPool?: boolean;
}

/**
 * Make the chain at `rpcUrl` a sandbox: contracts, minter, operator balances, pool liquidity.
 * Returns the addresses (constants, plus the chain id the node reports).
 */
export async function ensureSandboxContracts(rpcUrl: string, opts: EnsureSandboxOptions): Promise<SandboxAddresses> {
  const pub = sandboxPublicClient(rpcUrl);
  const chainId = await pub.getChainId();

  for (const { address, contract } of SANDBOX_CODE_PLACEMENT) {
    const want = runtimeCode(contract).toLowerCase();
    const have = ((await pub.getCode({ address })) ?? "0x").toLowerCase();
    if (have !== want) await rpcCall(rpcUrl, "anvil_setCode", [address, want]);
  }

  const minterWord = pad(opts.faucet.address.toLowerCase() as Hex, { size: 32 });
  const slot = pad(toHex(USDC_MINTER_SLOT), { size: 32 });
  const current = await pub.getStorageAt({ address: BASE_USDC, slot });
  if ((current ?? "0x").toLowerCase() !== minterWord) {
    await rpcCall(rpcUrl, "anvil_setStorageAt", [BASE_USDC, slot, minterWord]);
  }

  for (const address of [opts.faucet.address, ...(opts.fundAddresses ?? [])]) {
    await ensureEthBalance(rpcUrl, address, SANDBOX_OPERATOR_ETH / 2n, SANDBOX_OPERATOR_ETH);
  }

  if (opts.seedPool ?? true) await seedPool(rpcUrl, opts.faucet);
  return { ...SANDBOX_ADDRESSES, chainId };
}

/** anvil_setBalance `address` to `target` when its balance is below `min`. */
export async function ensureEthBalance(rpcUrl: string, address: Address, min: bigint, target: bigint): Promise<void> {
  const pub = sandboxPublicClient(rpcUrl);
  if ((await pub.getBalance({ address })) < min) await rpcCall(rpcUrl, "anvil_setBalance", [address, toHex(target)]);
}

/** Bring the pool's WETH and USDC balances up to the seed amounts (real transactions), then sync reserves. */
async function seedPool(rpcUrl: string, faucet: PrivateKeyAccount): Promise<void> {
  const pub = sandboxPublicClient(rpcUrl);
  const [reserve0, reserve1] = await pub.readContract({
    address: SANDBOX_POOL,
    abi: ConstantProductPoolAbi,
    functionName: "getReserves",
  });
  if (reserve0 > 0n && reserve1 > 0n) return;

  await withAccountLock(faucet.address, async () => {
    const wallet = sandboxWalletClient(rpcUrl, faucet);
    const send = async (hash: Hex) => {
      const r = await wallet.waitForTransactionReceipt({ hash });
      if (r.status !== "success") throw new Error(`pool seeding transaction ${hash} reverted`);
    };
    const wethHeld = await pub.readContract({ address: BASE_WETH, abi: WETHAbi, functionName: "balanceOf", args: [SANDBOX_POOL] });
    if (wethHeld < POOL_SEED_WETH) {
      const missing = POOL_SEED_WETH - wethHeld;
      await send(await wallet.writeContract({ address: BASE_WETH, abi: WETHAbi, functionName: "deposit", value: missing }));
      await send(
        await wallet.writeContract({ address: BASE_WETH, abi: WETHAbi, functionName: "transfer", args: [SANDBOX_POOL, missing] }),
      );
    }
    const usdcHeld = await pub.readContract({ address: BASE_USDC, abi: SandboxUSDCAbi, functionName: "balanceOf", args: [SANDBOX_POOL] });
    if (usdcHeld < POOL_SEED_USDC) {
      await send(
        await wallet.writeContract({
          address: BASE_USDC,
          abi: SandboxUSDCAbi,
          functionName: "mint",
          args: [SANDBOX_POOL, POOL_SEED_USDC - usdcHeld],
        }),
      );
    }
    await send(await wallet.writeContract({ address: SANDBOX_POOL, abi: ConstantProductPoolAbi, functionName: "sync" }));
  });
}
