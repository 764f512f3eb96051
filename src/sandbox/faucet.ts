/**
 * Sandbox faucet: ETH by a real transfer from the faucet account, USDC by a real `mint` (the faucet is
 * SandboxUSDC's minter), so every grant has a transaction hash and shows up in explorers and traces.
 */
import { getAddress, isAddress, type Address, type Hex, type PrivateKeyAccount } from "viem";
import { invalidInput } from "../lib/errors";
import { parseUnitsStrict } from "../lib/money";
import { BASE_USDC, USDC_DECIMALS } from "./addresses";
import { sandboxWalletClient, withAccountLock } from "./chain";
import { SandboxUSDCAbi } from "./contracts";
import { ensureEthBalance, SANDBOX_OPERATOR_ETH } from "./setup";

export type FaucetAsset = "ETH" | "USDC";

export interface FundRequest {
  address: string;
  asset: FaucetAsset;
  /** Whole units as a plain decimal string, e.g. "0.5" ETH or "25" USDC. */
  amount: string;
}

export interface FundResult {
  txHash: Hex;
  address: Address;
  asset: FaucetAsset;
  amount: string;
  /** Base units (wei / USDC micro-units) as a decimal string. */
  amountBase: string;
}

export interface Faucet {
  readonly address: Address;
  fund(req: FundRequest): Promise<FundResult>;
}

export interface FaucetOptions {
  rpcUrl: string;
  /** The faucet account; must be SandboxUSDC's minter (ensureSandboxContracts sets that). */
  account: PrivateKeyAccount;
  /** Largest grant per request, whole units (defaults: 100 ETH, 1,000,000 USDC). */
  maxPerRequest?: Partial<Record<FaucetAsset, string>>;
}

const DECIMALS: Record<FaucetAsset, number> = { ETH: 18, USDC: USDC_DECIMALS };
const DEFAULT_MAX: Record<FaucetAsset, string> = { ETH: "100", USDC: "1000000" };

export function createFaucet(opts: FaucetOptions): Faucet {
  const wallet = sandboxWalletClient(opts.rpcUrl, opts.account);
  const max: Record<FaucetAsset, bigint> = {
    ETH: parseUnitsStrict(opts.maxPerRequest?.ETH ?? DEFAULT_MAX.ETH, 18),
    USDC: parseUnitsStrict(opts.maxPerRequest?.USDC ?? DEFAULT_MAX.USDC, USDC_DECIMALS),
  };

  return {
    address: opts.account.address,
    async fund(req: FundRequest): Promise<FundResult> {
      if (typeof req.address !== "string" || !isAddress(req.address, { strict: false })) {
        throw invalidInput("address must be a 0x-prefixed 20-byte hex address");
      }
      if (req.asset !== "ETH" && req.asset !== "USDC") throw invalidInput("asset must be ETH or USDC");
      const decimals = DECIMALS[req.asset];
      let amountBase: bigint;
      try {
        amountBase = parseUnitsStrict(String(req.amount), decimals);
      } catch (e) {
        throw invalidInput(`amount: ${(e as Error).message}`);
      }
      if (amountBase <= 0n) throw invalidInput("amount must be greater than zero");
      if (amountBase > max[req.asset]) {
        throw invalidInput(`amount exceeds the faucet limit of ${opts.maxPerRequest?.[req.asset] ?? DEFAULT_MAX[req.asset]} ${req.asset}`);
      }
      const to = getAddress(req.address);

      const txHash = await withAccountLock(opts.account.address, async () => {
        let hash: Hex;
        if (req.asset === "ETH") {
          // Sandbox only: keep the faucet itself solvent.
          await ensureEthBalance(opts.rpcUrl, opts.account.address, amountBase + 10n ** 18n, SANDBOX_OPERATOR_ETH + amountBase);
          hash = await wallet.sendTransaction({ to, value: amountBase });
        } else {
          hash = await wallet.writeContract({ address: BASE_USDC, abi: SandboxUSDCAbi, functionName: "mint", args: [to, amountBase] });
        }
        const receipt = await wallet.waitForTransactionReceipt({ hash });
        if (receipt.status !== "success") throw new Error(`faucet transaction ${hash} reverted`);
        return hash;
      });
      return { txHash, address: to, asset: req.asset, amount: req.amount, amountBase: amountBase.toString() };
    },
  };
}
