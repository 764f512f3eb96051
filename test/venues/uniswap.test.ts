import { describe, expect, it } from "vitest";
import { encodeAbiParameters, encodeFunctionData, encodePacked, parseAbi, parseAbiParameters, parseEther } from "viem";
import { detectAction } from "../../src/venues/registry";

const USDC = "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48";
const WETH = "0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2";
const DAI = "0x6b175474e89094c44da98b954eedeac495271d0f";
const SAFE = "0x436f12258e6eff8e0606680cd096ed69c63086a8";
const FROM = "0x3292bf94d6ffc698ad7256fbe0128eadff059a5f";
const ROUTER = "0xE592427A0AEce92De3Edee1F18E0157C05861564";
const ROUTER02 = "0x68b3465833fb72A70ecDF485E0e4C7bD8665Fc45";
const UR = "0x66a9893cc07d91d95644aedd05d03f95e1dba8af";
const ctx = { prices: { ETH: 3000 } };

const V3 = parseAbi([
  "function exactInputSingle((address tokenIn, address tokenOut, uint24 fee, address recipient, uint256 deadline, uint256 amountIn, uint256 amountOutMinimum, uint160 sqrtPriceLimitX96) params)",
  "function exactInput((bytes path, address recipient, uint256 deadline, uint256 amountIn, uint256 amountOutMinimum) params)",
  "function exactOutputSingle((address tokenIn, address tokenOut, uint24 fee, address recipient, uint256 deadline, uint256 amountOut, uint256 amountInMaximum, uint160 sqrtPriceLimitX96) params)",
]);
const V3_02 = parseAbi([
  "function exactInputSingle((address tokenIn, address tokenOut, uint24 fee, address recipient, uint256 amountIn, uint256 amountOutMinimum, uint160 sqrtPriceLimitX96) params)",
  "function exactOutput((bytes path, address recipient, uint256 amountOut, uint256 amountInMaximum) params)",
  "function multicall(uint256 deadline, bytes[] data)",
  "function unwrapWETH9(uint256 amountMinimum, address recipient)",
]);
const V2 = parseAbi(["function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline)"]);
const UR_ABI = parseAbi(["function execute(bytes commands, bytes[] inputs, uint256 deadline)"]);
const tx = (to: string, data: `0x${string}`, value = 0n) => ({ chainId: 1, from: FROM, to, value: value.toString(), data });

describe("uniswap", () => {
  it("SwapRouter (deadline in struct) and SwapRouter02 (no deadline) decode to the same swap", () => {
    const common = { tokenIn: WETH, tokenOut: USDC, fee: 500, recipient: SAFE, amountIn: parseEther("1"), amountOutMinimum: 2_985_000_000n, sqrtPriceLimitX96: 0n } as const;
    const a = detectAction(tx(ROUTER, encodeFunctionData({ abi: V3, functionName: "exactInputSingle", args: [{ ...common, deadline: 1768000000n }] })), null, ctx);
    const b = detectAction(tx(ROUTER02, encodeFunctionData({ abi: V3_02, functionName: "exactInputSingle", args: [common] })), null, ctx);
    for (const f of [a, b]) {
      expect(f).toMatchObject({ venue: "uniswap", actionFamily: "swap", actionType: "exactInputSingle", notionalUsd: 3000, recipients: [SAFE] });
      expect(f?.swap).toMatchObject({ slippageBps: 50, sell: { asset: "WETH", amount: "1" }, buy: { asset: "USDC", minAmount: "2985" } });
    }
    expect(a?.details?.router).toBe("SwapRouter");
    expect(b?.details?.router).toBe("SwapRouter02");
  });

  it("exactInput decodes the multi-hop path ends", () => {
    const path = encodePacked(["address", "uint24", "address", "uint24", "address"], [DAI, 100, USDC, 500, WETH]);
    const f = detectAction(tx(ROUTER, encodeFunctionData({ abi: V3, functionName: "exactInput", args: [{ path, recipient: SAFE, deadline: 1n, amountIn: parseEther("3000"), amountOutMinimum: parseEther("0.99") }] })), null, ctx);
    expect(f?.swap).toMatchObject({ sell: { asset: "DAI", amount: "3000" }, buy: { asset: "WETH", minAmount: "0.99" }, slippageBps: 100 });
  });

  it("exact-output swaps measure slippage on the maximum input", () => {
    const f = detectAction(tx(ROUTER, encodeFunctionData({ abi: V3, functionName: "exactOutputSingle", args: [{ tokenIn: USDC, tokenOut: WETH, fee: 500, recipient: SAFE, deadline: 1n, amountOut: parseEther("1"), amountInMaximum: 3_030_000_000n, sqrtPriceLimitX96: 0n }] })), null, ctx);
    expect(f?.swap).toMatchObject({ slippageBps: 100, sell: { amount: "3030" }, buy: { amount: "1" } });
  });

  it("multicall(deadline, [exactOutput, unwrapWETH9]) sends ETH to the unwrap recipient; reversed exact-out path", () => {
    const path = encodePacked(["address", "uint24", "address"], [WETH, 500, USDC]); // exact-out paths start at tokenOut
    const swap = encodeFunctionData({ abi: V3_02, functionName: "exactOutput", args: [{ path, recipient: "0x0000000000000000000000000000000000000002", amountOut: parseEther("0.5"), amountInMaximum: 1_600_000_000n }] });
    const unwrap = encodeFunctionData({ abi: V3_02, functionName: "unwrapWETH9", args: [parseEther("0.5"), SAFE] });
    const f = detectAction(tx(ROUTER02, encodeFunctionData({ abi: V3_02, functionName: "multicall", args: [1768000000n, [swap, unwrap]] })), null, ctx);
    expect(f?.actionType).toBe("multicall:exactOutput+unwrapWETH9");
    expect(f?.swap).toMatchObject({ sell: { asset: "USDC", amount: "1600" }, buy: { asset: "WETH", amount: "0.5" }, recipient: SAFE });
    expect(f?.details?.unwrapToNative).toBe(SAFE);
  });

  it("V2 swapExactETHForTokens takes the input from msg.value", () => {
    const data = encodeFunctionData({ abi: V2, functionName: "swapExactETHForTokens", args: [2_900_000_000n, [WETH, USDC], SAFE, 1n] });
    const f = detectAction(tx("0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D", data, parseEther("1")), null, ctx);
    expect(f?.swap).toMatchObject({ sell: { amount: "1" }, buy: { minAmount: "2900" }, slippageBps: 333.33 });
  });

  it("Universal Router: WRAP_ETH + V3_SWAP_EXACT_IN, output to the sender", () => {
    const wrap = encodeAbiParameters(parseAbiParameters("address, uint256"), ["0x0000000000000000000000000000000000000002", parseEther("2")]);
    const swap = encodeAbiParameters(parseAbiParameters("address, uint256, uint256, bytes, bool"), ["0x0000000000000000000000000000000000000001", parseEther("2"), 5_000_000_000n, encodePacked(["address", "uint24", "address"], [WETH, 500, USDC]), false]);
    const data = encodeFunctionData({ abi: UR_ABI, functionName: "execute", args: ["0x0b00", [wrap, swap], 1768000000n] });
    const f = detectAction(tx(UR, data, parseEther("2")), null, ctx);
    expect(f).toMatchObject({ venue: "uniswap", actionType: "execute", notionalUsd: 6000, recipients: [FROM] });
    expect(f?.swap?.slippageBps).toBeCloseTo(1666.67, 1);
    expect(f?.details?.commands).toEqual(["WRAP_ETH", "V3_SWAP_EXACT_IN"]);
  });

  it("Universal Router PERMIT2_PERMIT becomes an approval", () => {
    const permit = encodeAbiParameters(parseAbiParameters("((address token, uint160 amount, uint48 expiration, uint48 nonce) details, address spender, uint256 sigDeadline), bytes"), [
      { details: { token: USDC, amount: 2n ** 160n - 1n, expiration: 1, nonce: 0 }, spender: UR, sigDeadline: 1n },
      "0x",
    ]);
    const swap = encodeAbiParameters(parseAbiParameters("address, uint256, uint256, bytes, bool"), [SAFE, 1_000_000_000n, 0n, encodePacked(["address", "uint24", "address"], [USDC, 500, WETH]), true]);
    const f = detectAction(tx(UR, encodeFunctionData({ abi: UR_ABI, functionName: "execute", args: ["0x0a00", [permit, swap], 1n] })), null, ctx);
    expect(f?.approvals?.[0]).toMatchObject({ kind: "permit2", unlimited: true, spender: UR });
    expect(f?.warnings.join(" ")).toMatch(/amountOutMinimum is zero/);
  });

  it("a swap on an unknown router address is flagged", () => {
    const common = { tokenIn: WETH, tokenOut: USDC, fee: 500, recipient: SAFE, amountIn: 1n, amountOutMinimum: 1n, sqrtPriceLimitX96: 0n } as const;
    const f = detectAction(tx("0x1111111111111111111111111111111111111111", encodeFunctionData({ abi: V3_02, functionName: "exactInputSingle", args: [common] })), null, ctx);
    expect(f?.venue).toBe("uniswap");
    expect(f?.warnings.join(" ")).toMatch(/not a known Uniswap router/);
  });
});
