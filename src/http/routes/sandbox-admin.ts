/**
 * Operator routes for the sandbox chain (admin token; mounted only when the runtime runs the sandbox, so a
 * production deployment with BASE_RPC_URL answers 404):
 *   GET  /admin/v1/sandbox       chain id, RPC URL, contract addresses, top-up payTo and facilitator
 *   POST /admin/v1/sandbox/fund  {chain: "base", address, asset: "ETH"|"USDC", amount (whole units)} -> {txHash}
 *                                {chain: "solana", address, asset: "SOL"|"USDC", amount} -> {txHash: the signature}
 * GET also reports `solana: {rpcUrl, wsUrl, genesisHash, caip2, usdcMint}` when the Solana sandbox runs.
 *                                {chain: "starknet", address, asset: "STRK"|"ETH"|"USDC"|"USDT", amount} -> {txHash}
 * `npm run cli -- sandbox info|fund` drives these.
 */
import type { Hono } from "hono";
import { z } from "zod";
import type { TopupService } from "../../credits/topup";
import type { Sandbox } from "../../sandbox";
import { ChainInputError } from "../../chains/port";
import { invalidInput } from "../../lib/errors";
import { readJson, validate } from "../body";
import type { AppEnv } from "../types";

/** The Solana sandbox as this route needs it (src/chains/solana/start.ts provides it). */
export interface SolanaSandboxAdmin {
  describe(): { rpcUrl: string; wsUrl: string; genesisHash: string; caip2: string; usdcMint: string } | null;
  fund(req: { address: string; asset: "SOL" | "USDC"; amount: string }): Promise<{ txHash: string; address: string; asset: string; amount: string; amountBase: string }>;
}

const SolanaFundRequest = z.object({
  chain: z.literal("solana"),
  address: z.string({ error: "address is required (base58)" }),
  asset: z
    .string({ error: "asset is required (SOL or USDC)" })
    .transform((s) => s.trim().toUpperCase())
    .pipe(z.enum(["SOL", "USDC"], { error: "asset must be SOL or USDC on solana" })),
  amount: z.union([z.string(), z.number()], { error: "amount is required (whole units, e.g. \"25\")" }).transform((v) => String(v).trim()),
});

/** The Starknet sandbox as this route sees it (built in src/chains/starknet/start.ts). */
export interface StarknetSandboxAdmin {
  describe(): { rpcUrl: string; chainId: string; tokens: Record<string, string>; faucet: string } | null;
  faucet: { fund(r: { address: string; asset: string; amount: string }): Promise<{ txHash: string; address: string; asset: string; amount: string; amountBase: string }> } | null;
}

const StarknetFundRequest = z.object({
  chain: z.literal("starknet"),
  address: z.string({ error: "address is required" }),
  asset: z
    .string({ error: "asset is required (STRK, ETH, USDC or USDT)" })
    .transform((s) => s.trim().toUpperCase())
    .pipe(z.enum(["STRK", "ETH", "USDC", "USDT"], { error: "asset must be STRK, ETH, USDC or USDT" })),
  amount: z.union([z.string(), z.number()], { error: "amount is required (whole units, e.g. \"25\")" }).transform((v) => String(v).trim()),
});

const FundRequest = z.object({
  chain: z.literal("base", { error: "chain must be base or solana, or starknet (the sandbox chains with a faucet)" }).default("base"),
  address: z.string({ error: "address is required" }),
  asset: z
    .string({ error: "asset is required (ETH or USDC)" })
    .transform((s) => s.trim().toUpperCase())
    .pipe(z.enum(["ETH", "USDC"], { error: "asset must be ETH or USDC" })),
  amount: z.union([z.string(), z.number()], { error: "amount is required (whole units, e.g. \"25\")" }).transform((v) => String(v).trim()),
});

export function sandboxAdminMount(opts: { sandbox: Sandbox; topup: TopupService; solana?: SolanaSandboxAdmin | null; starknet?: StarknetSandboxAdmin | null }) {
  const { sandbox, topup } = opts;
  const starknet = opts.starknet?.describe() ? opts.starknet : null;
  return (app: Hono<AppEnv>) => {
    app.get("/sandbox", (c) => {
      const a = sandbox.addresses;
      const t = topup.describe();
      return c.json(
        {
          chain: "base",
          chainId: a.chainId,
          network: a.network,
          rpcUrl: sandbox.rpcUrl,
          usdc: a.usdc,
          weth: a.weth,
          multicall3: a.multicall3,
          pool: a.pool,
          batchExecutor: a.batchExecutor,
          payTo: t.enabled ? t.payTo : sandbox.accounts.payTo.address,
          facilitator: t.enabled ? t.facilitator : null,
          faucet: sandbox.faucet.address,
          relayer: sandbox.accounts.relayer.address,
          topup: t.enabled ? { enabled: true, minCredits: t.minCredits, maxCredits: t.maxCredits, guideUrl: topup.guideUrl() } : { enabled: false, reason: t.reason },
          ...(opts.solana?.describe() ? { solana: opts.solana.describe() } : {}),
          ...(starknet ? { starknet: starknet.describe() } : {}),
        },
        200,
      );
    });

    app.post("/sandbox/fund", async (c) => {
      const raw = await readJson(c);
      if ((raw as { chain?: unknown } | null)?.chain === "solana") {
        if (!opts.solana?.describe()) return c.json({ error: "invalid_input", message: "the Solana sandbox is not running on this deployment" }, 400);
        const s = validate(SolanaFundRequest, raw);
        const r = await opts.solana.fund({ address: s.address, asset: s.asset, amount: s.amount });
        return c.json({ txHash: r.txHash, chain: "solana", address: r.address, asset: r.asset, amount: r.amount, amountBase: r.amountBase }, 200);
      }
      if (starknet?.faucet && raw && typeof raw === "object" && (raw as { chain?: unknown }).chain === "starknet") {
        const sb = validate(StarknetFundRequest, raw);
        try {
          const r = await starknet.faucet.fund({ address: sb.address, asset: sb.asset, amount: sb.amount });
          return c.json({ txHash: r.txHash, chain: "starknet", address: r.address, asset: r.asset, amount: r.amount, amountBase: r.amountBase }, 200);
        } catch (e) {
          if (e instanceof ChainInputError) throw invalidInput(e.message);
          throw e;
        }
      }
      const body = validate(FundRequest, raw);
      const r = await sandbox.faucet.fund({ address: body.address, asset: body.asset, amount: body.amount });
      return c.json({ txHash: r.txHash, chain: "base", address: r.address, asset: r.asset, amount: r.amount, amountBase: r.amountBase }, 200);
    });
  };
}
