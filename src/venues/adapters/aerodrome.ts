/**
 * Aerodrome (Base): the v2 Router's swaps over Route structs {from, to, stable, factory}, and the
 * Slipstream (concentrated liquidity) SwapRouter's exactInputSingle keyed by tickSpacing.
 */
import { parseAbi, toFunctionSelector } from "viem";
import { addrArg, bigArg, safeDecode, selectorsOf, type EvmTx } from "../lib/evm";
import { makeEvmAdapter } from "../lib/evm-adapter";
import { withMeta } from "../lib/evm-generic";
import { swapFacts, type SwapLeg } from "../lib/evm-swap";
import type { FactsInit } from "../lib/facts";
import { isRecord } from "../lib/util";

type Ctx = Record<string, unknown> | null | undefined;

const ROUTE = "(address from, address to, bool stable, address factory)[] routes";
const ABI = parseAbi([
  `function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, ${ROUTE}, address to, uint256 deadline)`,
  `function swapExactETHForTokens(uint256 amountOutMin, ${ROUTE}, address to, uint256 deadline)`,
  `function swapExactTokensForETH(uint256 amountIn, uint256 amountOutMin, ${ROUTE}, address to, uint256 deadline)`,
  `function swapExactTokensForTokensSupportingFeeOnTransferTokens(uint256 amountIn, uint256 amountOutMin, ${ROUTE}, address to, uint256 deadline)`,
  "function exactInputSingle((address tokenIn, address tokenOut, int24 tickSpacing, address recipient, uint256 deadline, uint256 amountIn, uint256 amountOutMinimum, uint160 sqrtPriceLimitX96) params)",
]);
const SELECTORS = selectorsOf(ABI);
const CL_SELECTOR = toFunctionSelector(ABI[4]);
const ROUTERS = new Set(["0xcf77a3ba9a5ca399b7c97c74d54e5b1beb874e43", "0xbe6d8f0d05cc4be24d5167a3ef062215be6d18a5"]);

function describeTx(tx: EvmTx, ctx: Ctx): FactsInit | null {
  if (!tx.selector || !SELECTORS.has(tx.selector)) return null;
  const d = safeDecode(ABI, tx.data);
  if (!d) return null;
  const w: string[] = [];
  const a = d.args;
  let leg: SwapLeg;
  if (d.functionName === "exactInputSingle") {
    const p = isRecord(a[0]) ? a[0] : {};
    leg = { tokenIn: addrArg(p.tokenIn), tokenOut: addrArg(p.tokenOut), amountIn: bigArg(p.amountIn), minOut: bigArg(p.amountOutMinimum), recipient: addrArg(p.recipient), route: `CL tickSpacing ${String(p.tickSpacing)}` };
  } else {
    const ethIn = d.functionName === "swapExactETHForTokens";
    const routes = (ethIn ? a[1] : a[2]) as unknown[];
    if (!Array.isArray(routes) || routes.length === 0) return null;
    const first = isRecord(routes[0]) ? routes[0] : {};
    const last = isRecord(routes[routes.length - 1]) ? routes[routes.length - 1] : {};
    leg = {
      tokenIn: addrArg((first as Record<string, unknown>).from),
      tokenOut: addrArg((last as Record<string, unknown>).to),
      amountIn: ethIn ? tx.value : bigArg(a[0]),
      minOut: bigArg(ethIn ? a[0] : a[1]),
      recipient: addrArg(ethIn ? a[2] : a[3]),
      route: routes.map((r) => (isRecord(r) ? `${addrArg(r.from)}->${addrArg(r.to)}${r.stable ? " (stable)" : ""}` : "?")).join(", "),
    };
  }
  if (!ROUTERS.has(tx.to)) w.push(`swap sent to ${tx.to}, which is not a known Aerodrome router`);
  const f = swapFacts("aerodrome", d.functionName, leg, tx, ctx, w);
  f.details = { router: tx.to };
  return withMeta(f, tx, w);
}

// swapExactTokensForTokens with Route structs has its own selector; the CL router shares names, so require the address
const matchesTx = (tx: EvmTx) => !!tx.selector && SELECTORS.has(tx.selector) && (ROUTERS.has(tx.to) || tx.selector !== CL_SELECTOR);

export const aerodrome = makeEvmAdapter({ id: "aerodrome", aliases: ["aero", "aerodromefinance", "slipstream"], matchesTx, describeTx });
