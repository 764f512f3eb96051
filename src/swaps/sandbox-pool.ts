/**
 * The sandbox quote provider: real liquidity on the sandbox chain. It quotes from the seeded WETH/USDC
 * ConstantProductPool's reserves (`getAmountOut`, the pool's own formula with its 0.3% fee) and builds
 * `swapExactIn(tokenIn, amountIn, minAmountOut, wallet)`, so a sandbox swap executes on chain and moves
 * balances. ETH is sold through the pool's payable path (it wraps the value itself); the pool pays out
 * WETH only, so buying ETH is refused (buy WETH).
 */
import { encodeFunctionData, formatUnits, type Address } from "viem";
import type { EvmChain } from "../chains/evm/chain";
import { ConstantProductPoolAbi } from "../sandbox/contracts";
import { BASE_USDC, BASE_WETH, SANDBOX_POOL } from "../sandbox/addresses";
import { minimumOutFor, quoteUnavailable, swapRefused, type ProviderQuote, type QuoteProvider } from "./types";

/** Gas of one swapExactIn (measured ~95k; rounded up). */
const SWAP_GAS = 120_000n;
const FEE_BPS = 30n;

export function createSandboxPoolProvider(chain: EvmChain, pool: Address = SANDBOX_POOL): QuoteProvider {
  const pair = new Set([BASE_WETH.toLowerCase(), BASE_USDC.toLowerCase()]);
  return {
    name: "sandbox-pool",
    routers: [pool],
    async quote(req): Promise<ProviderQuote> {
      if (req.buy.address === "native") throw swapRefused("the sandbox pool pays out WETH, not ETH: buy WETH instead");
      const tokenIn = req.sell.address === "native" ? BASE_WETH : req.sell.address;
      const tokenOut = req.buy.address;
      if (!pair.has(tokenIn.toLowerCase()) || !pair.has(tokenOut.toLowerCase()) || tokenIn.toLowerCase() === tokenOut.toLowerCase()) {
        throw swapRefused(`no route: the sandbox pool trades WETH (or ETH) against USDC only, not ${req.sell.symbol} -> ${req.buy.symbol}`);
      }
      let reserves: readonly [bigint, bigint];
      let amountOut: bigint;
      try {
        [reserves, amountOut] = await Promise.all([
          chain.client.readContract({ address: pool, abi: ConstantProductPoolAbi, functionName: "getReserves" }),
          chain.client.readContract({ address: pool, abi: ConstantProductPoolAbi, functionName: "getAmountOut", args: [tokenIn, req.sellAmount] }),
        ]);
      } catch (err) {
        throw quoteUnavailable(`the sandbox pool could not be read: ${(err as Error).message.slice(0, 200)}`);
      }
      if (amountOut === 0n) throw swapRefused(`no liquidity: the sandbox pool gives nothing for ${formatUnits(req.sellAmount, req.sell.decimals)} ${req.sell.symbol}`);
      const [reserveIn] = tokenIn.toLowerCase() === BASE_WETH.toLowerCase() ? reserves : [reserves[1], reserves[0]];
      const minOut = minimumOutFor(amountOut, req.slippageBps);
      const native = req.sell.address === "native";
      const data = encodeFunctionData({ abi: ConstantProductPoolAbi, functionName: "swapExactIn", args: [tokenIn, req.sellAmount, minOut, req.taker] });
      // Price impact without the fee: how far the input moves the price along x*y=k.
      const inAfterFee = (req.sellAmount * (10_000n - FEE_BPS)) / 10_000n;
      const impact = reserveIn + inAfterFee > 0n ? Number((inAfterFee * 1_000_000n) / (reserveIn + inAfterFee)) / 10_000 : null;
      return {
        routing: "sandbox-pool",
        buyAmount: amountOut,
        minBuyAmount: minOut,
        calls: [{ to: pool, data, value: native ? req.sellAmount : 0n }],
        allowanceSpender: native ? null : pool,
        networkFeeWei: null,
        gasEstimate: SWAP_GAS,
        priceImpactPct: impact,
        routeString: `${req.sell.symbol} -> ${req.buy.symbol} via the sandbox ConstantProductPool ${pool} (0.3% fee)`,
      };
    },
  };
}
