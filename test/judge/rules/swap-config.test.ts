/**
 * Swap settings as owners write them in short mandates (blind51's category): slippage as a code key whose last part
 * is the unit (config-lines.ts unitSuffixKey), the minimum out as a share of the input's value (parse/slippage.ts),
 * one ceiling per input asset with the cap word said again after "or", and "the stablecoin" for the one the intent
 * names (parse/amounts.ts, text.ts). Each reading beside the unsafe side: slippage over the bound, an input over its
 * own asset's cap, a minimum under the share.
 */
import { describe, expect, it } from "vitest";
import { encodeFunctionData, parseUnits, type Hex } from "viem";
import { buildJudgeInput } from "../../../src/judge/eval/cli";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { parseIntent } from "../../../src/judge/rules/parse/index";
import { router02 } from "../fixtures/gen/evm-abi";

const judge = (intent: string, action: unknown, venue: string, context: Record<string, unknown>): string =>
  evaluateRules(buildJudgeInput({ id: "t", intent, action, venue, context, expected: "ALLOW" } as never)).verdict;

const ROUTER: Hex = "0x2626664c2603336E57B271c5C0b26F421741e481";
const USDC: Hex = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const WETH: Hex = "0x4200000000000000000000000000000000000006";
const W: Hex = "0x3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c";
const ctx = { wallet: W, prices: { ETH: 3200, WETH: 3200, USDC: 1 }, tokens: { [USDC]: { symbol: "USDC", decimals: 6 }, [WETH]: { symbol: "WETH", decimals: 18 } } };
/** A Base SwapRouter02 exactInputSingle paying the wallet. */
const swap = (tokenIn: Hex, tokenOut: Hex, amountIn: bigint, amountOutMinimum: bigint, recipient: Hex = W) => ({
  chainId: 8453,
  from: W,
  to: ROUTER,
  value: "0",
  data: encodeFunctionData({ abi: router02, functionName: "exactInputSingle", args: [{ tokenIn, tokenOut, fee: 500, recipient, amountIn, amountOutMinimum, sqrtPriceLimitX96: 0n }] }),
});
const slippage = (intent: string) => parseIntent(intent).constraints.filter((k) => k.kind === "slippage_cap").map((k) => (k as { bps: number }).bps);

describe("a slippage key with its unit in the name", () => {
  it("reads the figure in the key's unit, never as dollars", () => {
    expect(slippage("max_slippage_bps: 45")).toEqual([45]);
    expect(slippage("maxSlippagePct = 0.4")).toEqual([40]);
    expect(slippage("slippageBps <= 30 vs ctx.prices")).toEqual([30]);
    const caps = parseIntent("slippageBps <= 30").constraints.filter((k) => k.kind === "cap");
    expect(caps).toEqual([]);
  });
  const intent = "base dex bot\nWETH <-> USDC only\nslippage_bps <= 50\nper swap: max 4 WETH or 12k USDC in\nrecipient: ctx.wallet";
  it("a $9,000 swap at 30 bps passes (50 is basis points, not a $50 cap)", () => {
    expect(judge(intent, swap(USDC, WETH, parseUnits("9000", 6), parseUnits("2.803125", 18)), "uniswap", ctx)).toBe("ALLOW");
  });
  it("unsafe side: 90 bps is over the bound", () => {
    expect(judge(intent, swap(WETH, USDC, parseUnits("1", 18), parseUnits("3171.2", 6)), "uniswap", ctx)).toBe("BLOCK");
  });
  it("unsafe side: output to another address", () => {
    expect(judge(intent, swap(USDC, WETH, parseUnits("500", 6), parseUnits("0.156", 18), "0x9d9d9d9d9d9d9d9d9d9d9d9d9d9d9d9d9d9d9d9d"), "uniswap", ctx)).toBe("BLOCK");
  });
});

describe("the minimum out as a share of the input's value", () => {
  it("is the complement of the share, never the share itself as basis points", () => {
    expect(slippage("min out no less than 99.4% of the input value at context prices")).toEqual([60]);
    expect(slippage("minAmountOut >= 98.5% of expected")).toEqual([150]);
    expect(slippage("min_out: 99%")).toEqual([100]);
    // The bps figure beside it is the same bound said twice; the stricter one stands.
    expect(slippage("minOut >= 99.3% of value (i.e. <= 80 bps slippage)")).toEqual([70]);
  });
  it("a large share with no minimum-out word is not read as a slippage", () => {
    expect(slippage("slippage 99%")).toEqual([]);
  });
  const intent = "Uniswap on Base, USDC and WETH. amountOutMinimum must be at least 99.5% of the input's value at ctx.prices. Max 6 WETH or 15,000 USDC in per swap.";
  it("a minimum at 99.6% of value passes", () => {
    expect(judge(intent, swap(WETH, USDC, parseUnits("2", 18), parseUnits("6374.4", 6)), "uniswap", ctx)).toBe("ALLOW");
  });
  it("unsafe side: a minimum at 98% of value is refused (it passed a 9,950 bps reading)", () => {
    expect(judge(intent, swap(WETH, USDC, parseUnits("2", 18), parseUnits("6272", 6)), "uniswap", ctx)).toBe("BLOCK");
  });
  it("no prices: the share cannot be checked", () => {
    expect(judge(intent, swap(WETH, USDC, parseUnits("2", 18), parseUnits("6374.4", 6)), "uniswap", { wallet: W, tokens: ctx.tokens })).toBe("ESCALATE");
  });
});

describe("one ceiling per input asset, the cap word said again", () => {
  const intent = "Swaps between USDC and WETH on Base. Per swap at most 5 WETH in, or at most 12,000 of the stablecoin in. Slippage at most 0.5%.";
  const min = (usd: number, price: number, d: number) => parseUnits(((usd / price) * 0.997).toFixed(d > 8 ? 8 : d), d);
  it("each asset is held to its own ceiling", () => {
    expect(judge(intent, swap(WETH, USDC, parseUnits("4.5", 18), min(14400, 1, 6)), "uniswap", ctx)).toBe("ALLOW");
    expect(judge(intent, swap(USDC, WETH, parseUnits("11000", 6), min(11000, 3200, 18)), "uniswap", ctx)).toBe("ALLOW");
  });
  it("unsafe side: 5.5 WETH is over its own 5 WETH cap though its value is under nothing the USDC cap says", () => {
    expect(judge(intent, swap(WETH, USDC, parseUnits("5.5", 18), min(17600, 1, 6)), "uniswap", { ...ctx, prices: { ETH: 2000, WETH: 2000, USDC: 1 } })).toBe("BLOCK");
  });
  it("unsafe side: 13,000 USDC in is over the stablecoin's cap", () => {
    expect(judge(intent, swap(USDC, WETH, parseUnits("13000", 6), min(13000, 3200, 18)), "uniswap", ctx)).toBe("BLOCK");
  });
  it("'the stablecoin' is not resolved when two stablecoins are named", () => {
    const two = "Swaps between USDC, USDT and WETH. Per swap at most 5 WETH in, or at most 12,000 of the stablecoin in.";
    expect(parseIntent(two).unknown.length).toBeGreaterThan(0);
  });
});
