import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { address, type Instruction } from "@solana/kit";
import { detectAction } from "../../src/venues/registry";
import { devCase, PAYER, solanaTx } from "./helpers";

const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
const SOL = "So11111111111111111111111111111111111111112";
const ctx = devCase("dev-jup-065").context;

function u64(n: bigint): number[] {
  const out: number[] = [];
  for (let i = 0; i < 8; i++) out.push(Number((n >> BigInt(8 * i)) & 0xffn));
  return out;
}

describe("jupiter", () => {
  it("a quote response uses inAmount and the otherAmountThreshold minimum", () => {
    const q = { inputMint: SOL, inAmount: "1000000000", outputMint: USDC, outAmount: "180000000", otherAmountThreshold: "179100000", swapMode: "ExactIn", slippageBps: 50, priceImpactPct: "0.02", routePlan: [{ swapInfo: { label: "Whirlpool" } }] };
    const f = detectAction(q, null, ctx);
    expect(f).toMatchObject({ venue: "jupiter", actionType: "quoteResponse", notionalUsd: 180 });
    expect(f?.swap).toMatchObject({ buy: { minAmount: "179.1" }, route: "Whirlpool" });
    expect(f?.warnings.join(" ")).toMatch(/price impact 2.00%/);
  });

  it("a swap request wraps the quote and names the user", () => {
    const f = detectAction({ userPublicKey: PAYER, quoteResponse: { inputMint: USDC, inAmount: "5000000", outputMint: SOL, outAmount: "27000000", otherAmountThreshold: "26800000", swapMode: "ExactIn", slippageBps: 75 } }, null, ctx);
    expect(f).toMatchObject({ actionType: "swap", notionalUsd: 5 });
    expect(f?.swap?.slippageBps).toBe(75);
  });

  it("ExactOut quote requests value the output", () => {
    const f = detectAction({ inputMint: USDC, outputMint: SOL, amount: "2000000000", swapMode: "ExactOut", slippageBps: 50 }, null, ctx);
    expect(f?.swap?.buy).toMatchObject({ asset: "SOL", amount: "2" });
    expect(f?.notionalUsd).toBe(360);
  });

  it("a Trigger limit order is an order", () => {
    const f = detectAction({ inputMint: USDC, outputMint: SOL, maker: PAYER, payer: PAYER, params: { makingAmount: "100000000", takingAmount: "500000000" } }, null, ctx);
    expect(f).toMatchObject({ actionFamily: "order", actionType: "createOrder", notionalUsd: 100 });
    expect(f?.orders?.[0]).toMatchObject({ asset: "SOL", size: 0.5, price: 200 });
  });

  it("a swapTransaction with a shared_accounts_route instruction reads amounts, mints and slippage", () => {
    const disc = [...createHash("sha256").update("global:shared_accounts_route").digest().subarray(0, 8)];
    const data = Uint8Array.from([...disc, 7, 1, 0, 0, 0, 9, 100, 0, 1, ...u64(1_000_000_000n), ...u64(180_000_000n), 50, 0, 0]);
    const filler = (i: number) => address(["DxpFqiKixy1QH9GNyXJMeXv34ezJZU6KynvgbevH4hLX", "ATr6PLKgjGPLKhfxxdhuurU9yR4z4MeC79A5QjLWP7xX", "nNDb5ui1R1nR2ZjjggWxmw117TH9JWZ4h6TwtMdYWxc", "EBRNGcaeBZe5TeMhhzE2KUf645d8EnmnGiruJE9bjK6w"][i % 4]);
    const accounts = Array.from({ length: 13 }, (_, i) => ({ address: i === 7 ? address(SOL) : i === 8 ? address(USDC) : filler(i), role: 0 }));
    const ix: Instruction = { programAddress: address("JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4"), accounts, data };
    const f = detectAction({ swapTransaction: solanaTx([ix], { version: 0 }), lastValidBlockHeight: 279000000 }, null, ctx);
    expect(f).toMatchObject({ venue: "jupiter", actionFamily: "swap", actionType: "sharedAccountsRoute", notionalUsd: 180 });
    expect(f?.swap).toMatchObject({ sell: { asset: "SOL", amount: "1" }, buy: { asset: "USDC", amount: "180", minAmount: "179.1" }, slippageBps: 50 });
  });

  it("invalid mints are not Jupiter", () => {
    expect(detectAction({ inputMint: "0xabc", outputMint: USDC, amount: "1" }, null, ctx)).toBeNull();
  });
});
