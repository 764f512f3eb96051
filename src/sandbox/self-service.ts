/**
 * What a dashboard-only user needs on a sandbox deployment, without the operator CLI:
 *
 * - `buyCredits`: credits bought through the REAL x402 v2 top-up path. A fresh payer key is funded with exactly
 *   the price in sandbox USDC by the faucet (a real mint), the official x402 client (@x402/fetch + @x402/evm)
 *   signs the EIP-3009 authorization for the terms the top-up route answers with (402), and the signed payment
 *   is posted to the service's own `POST /api/v1/credits/topup?account=<top-up code>`, which verifies and
 *   settles it on the sandbox chain like any other payment. Nothing is granted around the ledger.
 * - `fundWallet`: sandbox ETH and USDC from the faucet into one of the account's own Base wallets; STRK and USDC
 *   from the sandbox Starknet node's faucet into a Starknet wallet; SOL and USDC from the sandbox Solana cluster's
 *   faucet into a Solana wallet.
 *
 * Exists only when the sandbox chain runs (deps.ts); production deployments have no such verbs.
 */
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { formatUnits } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { Principal } from "../accounts/principal";
import type { CreditsService } from "../credits/service";
import { invalidInput, ServiceError } from "../lib/errors";
import type { WalletsService } from "../wallets/service";
import type { Faucet, FaucetAsset } from "./faucet";

/** USDC micro-units per credit (0.05 USD). */
const MICRO_USDC_PER_CREDIT = 50_000n;
/** Per request from the dashboard: enough to try everything, small enough that nobody mistakes it for a bank. */
export const SANDBOX_FUND_MAX: Record<FaucetAsset, number> = { ETH: 1, USDC: 10_000 };
export const SANDBOX_STARKNET_FUND_MAX: Record<"STRK" | "USDC", number> = { STRK: 100, USDC: 10_000 };
export const SANDBOX_SOLANA_FUND_MAX: Record<"SOL" | "USDC", number> = { SOL: 10, USDC: 10_000 };

/** A sandbox faucet of a chain other than Base (the Starknet node's, the Solana cluster's). */
type ChainFaucet = { fund(r: { address: string; asset: string; amount: string }): Promise<{ txHash: string }> };

export interface SandboxSelfServiceDeps {
  faucet: Faucet;
  /** The sandbox Starknet node's faucet, when it runs. */
  starknetFaucet?: ChainFaucet | null;
  /** The sandbox Solana cluster's faucet, when it runs. */
  solanaFaucet?: ChainFaucet | null;
  credits: CreditsService;
  wallets: WalletsService;
  /** The service's own HTTP app (in process): the top-up request goes through its real route. */
  fetchOwn: (request: Request) => Promise<Response>;
  publicUrl: string;
  limits: { minCredits: number; maxCredits: number };
}

export interface SandboxPurchase {
  credited: number;
  creditsRemaining: number;
  txHash: string | null;
  payer: string;
  fundingTxHash: string;
}

export function createSandboxSelfService(deps: SandboxSelfServiceDeps) {
  return {
    limits: deps.limits,

    async buyCredits(principal: Principal, credits: number): Promise<SandboxPurchase> {
      if (!Number.isInteger(credits) || credits < deps.limits.minCredits || credits > deps.limits.maxCredits) {
        throw invalidInput(`credits must be a whole number from ${deps.limits.minCredits} to ${deps.limits.maxCredits}`);
      }
      const terms = (await deps.credits.get(principal)).topup as { accountCode?: string } | undefined;
      if (!terms?.accountCode) throw new ServiceError("unavailable", "topup_not_configured", "top-ups are not enabled on this deployment");

      // A payer of its own each time, holding exactly the price: the payment is the only thing it can do.
      const payer = privateKeyToAccount(generatePrivateKey());
      const price = BigInt(credits) * MICRO_USDC_PER_CREDIT;
      const funding = await deps.faucet.fund({ address: payer.address, asset: "USDC", amount: formatUnits(price, 6) });

      const client = new x402Client();
      registerExactEvmScheme(client, { signer: payer });
      client.setSpendControls({ maxAmountPerPayment: `$${formatUnits(price, 6)}` });
      const pay = wrapFetchWithPayment((input: RequestInfo | URL, init?: RequestInit) => deps.fetchOwn(new Request(input, init)), client);
      const url = `${deps.publicUrl}/api/v1/credits/topup?account=${encodeURIComponent(terms.accountCode)}&credits=${credits}`;
      const res = await pay(url, { method: "POST" });
      const body = (await res.json().catch(() => ({}))) as { credited?: number; txHash?: string | null; error?: string; message?: string };
      if (res.status !== 200) throw new ServiceError("upstream_failed", "topup_failed", `the sandbox top-up was refused (${res.status} ${body.error ?? ""}): ${body.message ?? "no detail"}`);
      const settled = res.headers.get("PAYMENT-RESPONSE");
      const txHash = body.txHash ?? (settled ? (decodePaymentResponseHeader(settled).transaction ?? null) : null);
      const { creditsRemaining } = await deps.credits.get(principal);
      return { credited: body.credited ?? credits, creditsRemaining, txHash, payer: payer.address, fundingTxHash: funding.txHash };
    },

    async fundWallet(principal: Principal, walletRef: string, asset: string, amount: string): Promise<{ txHash: string }> {
      const wallet = await deps.wallets.get(principal, walletRef);
      const checkAmount = (max: number, shape = /^\d+(\.\d+)?$/) => {
        const n = Number(amount);
        if (!shape.test(amount) || !(n > 0) || n > max) throw invalidInput(`amount must be a plain decimal above 0 and at most ${max} ${asset}`);
      };
      // Chains other than Base whose sandbox faucet runs: each funds its fee asset and USDC.
      const others = [
        { chain: "starknet", name: "Starknet", faucet: deps.starknetFaucet, max: SANDBOX_STARKNET_FUND_MAX as Record<string, number> },
        { chain: "solana", name: "Solana", faucet: deps.solanaFaucet, max: SANDBOX_SOLANA_FUND_MAX as Record<string, number> },
      ].filter((o) => o.faucet);
      const other = others.find((o) => o.chain === wallet.chain);
      if (other?.faucet) {
        const max = other.max[asset];
        if (max === undefined) throw invalidInput(`asset must be ${Object.keys(other.max).join(" or ")}`);
        // At most 6 decimals (USDC's), so the chain's faucet never refuses what passed here.
        checkAmount(max, /^\d+(\.\d{1,6})?$/);
        return other.faucet.fund({ address: wallet.address, asset, amount });
      }
      if (wallet.chain !== "base") {
        const names = ["Base", ...others.map((o) => o.name)];
        throw invalidInput(`the sandbox faucet funds ${names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}` : "Base"} wallets`);
      }
      if (asset !== "ETH" && asset !== "USDC") throw invalidInput("asset must be ETH or USDC");
      checkAmount(SANDBOX_FUND_MAX[asset]);
      return deps.faucet.fund({ address: wallet.address, asset, amount });
    },
  };
}
export type SandboxSelfService = ReturnType<typeof createSandboxSelfService>;
