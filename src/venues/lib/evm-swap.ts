/**
 * Swap facts shared by the EVM DEX adapters. Slippage is implied from context prices: the minimum output
 * compared with what the input is worth at those prices (exact-in), or the maximum input compared with what
 * the output is worth (exact-out). Without both prices it stays null; it is never assumed.
 */
import type { AmountFact, SwapFact } from "../types";
import { evmAmount } from "./amounts";
import { facts, fmt, fmtUsd, type FactsInit } from "./facts";
import { priceOf } from "./prices";
import type { EvmTx } from "./evm";

export interface SwapLeg {
  tokenIn: string;
  tokenOut: string;
  amountIn: bigint | null; // exact in, or null for exact-out
  minOut: bigint | null;
  amountOut?: bigint | null; // exact out
  maxIn?: bigint | null;
  recipient: string | null;
  route?: string | null;
}

/** The warning a swap fact carries when an exact-in swap accepts any output (read by src/chains/evm/swap-minimum.ts). */
export const ZERO_MIN_OUT_WARNING = "amountOutMinimum is zero: no slippage protection";

const roundBps = (x: number) => Math.round(x * 100) / 100;

export function impliedSlippageBps(sell: AmountFact, buy: AmountFact & { minAmount?: string | null }, exactOut: boolean, ctx: unknown): number | null {
  const pIn = priceOf(sell.asset, ctx);
  const pOut = priceOf(buy.asset, ctx);
  if (pIn === null || pOut === null) return null;
  if (!exactOut) {
    const inAmt = Number(sell.amount);
    const minOut = Number(buy.minAmount ?? buy.amount);
    if (!Number.isFinite(inAmt) || !Number.isFinite(minOut) || inAmt <= 0 || sell.amount === null || (buy.minAmount ?? buy.amount) === null) return null;
    const fair = (inAmt * pIn) / pOut;
    return roundBps((1 - minOut / fair) * 10_000);
  }
  const outAmt = Number(buy.amount);
  const maxIn = Number(sell.amount);
  if (!Number.isFinite(outAmt) || !Number.isFinite(maxIn) || outAmt <= 0 || buy.amount === null || sell.amount === null) return null;
  const fairIn = (outAmt * pOut) / pIn;
  return roundBps((maxIn / fairIn - 1) * 10_000);
}

export function swapFact(leg: SwapLeg, tx: EvmTx, ctx: unknown, warnings: string[]): SwapFact {
  const exactOut = leg.amountIn === null;
  const sell = evmAmount(leg.tokenIn, exactOut ? (leg.maxIn ?? null) : leg.amountIn, tx.chainId, ctx, warnings);
  const buyBase = evmAmount(leg.tokenOut, exactOut ? (leg.amountOut ?? null) : leg.minOut, tx.chainId, ctx, warnings);
  // for exact-in swaps buy.amount is the guaranteed minimum, so buy.usd is a floor, not the expected value
  const buy = { ...buyBase, minAmount: buyBase.amount };
  const slippageBps = impliedSlippageBps(sell, buy, exactOut, ctx);
  if (slippageBps === null) warnings.push("slippage unknown: context prices for both tokens are needed");
  if (leg.minOut === 0n && !exactOut) warnings.push(ZERO_MIN_OUT_WARNING);
  return { sell, buy, slippageBps, recipient: leg.recipient, route: leg.route ?? null };
}

export function swapFacts(venue: string, type: string, leg: SwapLeg, tx: EvmTx, ctx: unknown, warnings: string[]): FactsInit {
  const s = swapFact(leg, tx, ctx, warnings);
  const f = facts(venue, "swap", type, tx.chain);
  f.swap = s;
  f.assets = [s.sell.asset, s.buy.asset];
  f.notionalUsd = s.sell.usd ?? null;
  const exactOut = leg.amountIn === null;
  f.summary = exactOut
    ? `Swap at most ${fmt(s.sell.amount)} ${s.sell.asset} for exactly ${fmt(s.buy.amount)} ${s.buy.asset} (${fmtUsd(s.buy.usd)}), to ${s.recipient ?? "?"}${s.slippageBps === null ? "" : `, slippage ${s.slippageBps} bps`}`
    : `Swap ${fmt(s.sell.amount)} ${s.sell.asset} (${fmtUsd(s.sell.usd)}) for at least ${fmt(s.buy.minAmount)} ${s.buy.asset}, to ${s.recipient ?? "?"}${s.slippageBps === null ? "" : `, implied slippage ${s.slippageBps} bps`}`;
  if (exactOut) f.notionalUsd = s.sell.usd ?? s.buy.usd ?? null;
  return f;
}
