/**
 * Decoding Uniswap router calldata into swap legs. SwapRouter (V3) carries `deadline` inside each params
 * struct and SwapRouter02 does not, so the same function names have different selectors; both are listed.
 * V3 paths are tokenIn|fee|token|fee|tokenOut for exact-in and reversed for exact-out.
 */
import { parseAbi, type Hex } from "viem";
import { addrArg, bigArg, safeDecode } from "../../lib/evm";
import { isRecord } from "../../lib/util";
import type { SwapLeg } from "../../lib/evm-swap";

export const ROUTER_ABI = parseAbi([
  // SwapRouter (V3, 0xE592...1564): deadline inside the struct
  "function exactInputSingle((address tokenIn, address tokenOut, uint24 fee, address recipient, uint256 deadline, uint256 amountIn, uint256 amountOutMinimum, uint160 sqrtPriceLimitX96) params)",
  "function exactInput((bytes path, address recipient, uint256 deadline, uint256 amountIn, uint256 amountOutMinimum) params)",
  "function exactOutputSingle((address tokenIn, address tokenOut, uint24 fee, address recipient, uint256 deadline, uint256 amountOut, uint256 amountInMaximum, uint160 sqrtPriceLimitX96) params)",
  "function exactOutput((bytes path, address recipient, uint256 deadline, uint256 amountOut, uint256 amountInMaximum) params)",
  // SwapRouter02: no deadline in the struct (it moves to multicall(deadline, data))
  "function exactInputSingle((address tokenIn, address tokenOut, uint24 fee, address recipient, uint256 amountIn, uint256 amountOutMinimum, uint160 sqrtPriceLimitX96) params)",
  "function exactInput((bytes path, address recipient, uint256 amountIn, uint256 amountOutMinimum) params)",
  "function exactOutputSingle((address tokenIn, address tokenOut, uint24 fee, address recipient, uint256 amountOut, uint256 amountInMaximum, uint160 sqrtPriceLimitX96) params)",
  "function exactOutput((bytes path, address recipient, uint256 amountOut, uint256 amountInMaximum) params)",
  "function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to)",
  "function swapTokensForExactTokens(uint256 amountOut, uint256 amountInMax, address[] path, address to)",
  // V2 Router02
  "function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)",
  "function swapTokensForExactTokens(uint256 amountOut, uint256 amountInMax, address[] path, address to, uint256 deadline)",
  "function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline)",
  "function swapETHForExactTokens(uint256 amountOut, address[] path, address to, uint256 deadline)",
  "function swapExactTokensForETH(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)",
  "function swapTokensForExactETH(uint256 amountOut, uint256 amountInMax, address[] path, address to, uint256 deadline)",
  "function swapExactTokensForTokensSupportingFeeOnTransferTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)",
  "function swapExactETHForTokensSupportingFeeOnTransferTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline)",
  "function swapExactTokensForETHSupportingFeeOnTransferTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)",
  // periphery helpers used inside multicall
  "function multicall(bytes[] data)",
  "function multicall(uint256 deadline, bytes[] data)",
  "function multicall(bytes32 previousBlockhash, bytes[] data)",
  "function unwrapWETH9(uint256 amountMinimum, address recipient)",
  "function unwrapWETH9(uint256 amountMinimum)",
  "function refundETH()",
  "function sweepToken(address token, uint256 amountMinimum, address recipient)",
  "function sweepToken(address token, uint256 amountMinimum)",
  "function wrapETH(uint256 value)",
]);

export const MSG_SENDER = "0x0000000000000000000000000000000000000001";
export const ADDRESS_THIS = "0x0000000000000000000000000000000000000002";

export function decodeV3Path(path: unknown, exactOut: boolean): { tokens: string[]; fees: number[] } | null {
  if (typeof path !== "string" || !/^0x[0-9a-fA-F]*$/.test(path)) return null;
  const hex = path.slice(2);
  if (hex.length < 80 || (hex.length - 40) % 46 !== 0) return null;
  const tokens = [`0x${hex.slice(0, 40)}`.toLowerCase()];
  const fees: number[] = [];
  for (let i = 40; i < hex.length; i += 46) {
    fees.push(parseInt(hex.slice(i, i + 6), 16));
    tokens.push(`0x${hex.slice(i + 6, i + 46)}`.toLowerCase());
  }
  if (exactOut) {
    tokens.reverse();
    fees.reverse();
  }
  return { tokens, fees };
}

const routeOf = (tokens: string[], fees?: number[]) => tokens.map((t, i) => (fees && i < fees.length ? `${t} -(${fees[i]})-> ` : t)).join("");

export interface RouterStep {
  kind: "swap" | "unwrap" | "sweep" | "refund" | "wrap" | "multicall" | "other";
  fn: string;
  leg?: SwapLeg;
  recipient?: string | null;
  token?: string | null;
  inner?: Hex[];
  usesEth?: boolean;
}

/** Decode one router call into a step, or null when the calldata is not a Uniswap router function. */
export function decodeRouterCall(data: Hex): RouterStep | null {
  const d = safeDecode(ROUTER_ABI, data);
  if (!d) return null;
  const a = d.args;
  const p = isRecord(a[0]) ? (a[0] as Record<string, unknown>) : null;
  switch (d.functionName) {
    case "exactInputSingle":
    case "exactOutputSingle": {
      if (!p) return null;
      const out = d.functionName === "exactOutputSingle";
      const leg: SwapLeg = {
        tokenIn: addrArg(p.tokenIn),
        tokenOut: addrArg(p.tokenOut),
        amountIn: out ? null : bigArg(p.amountIn),
        minOut: out ? null : bigArg(p.amountOutMinimum),
        amountOut: out ? bigArg(p.amountOut) : null,
        maxIn: out ? bigArg(p.amountInMaximum) : null,
        recipient: addrArg(p.recipient),
        route: `${addrArg(p.tokenIn)} -(${String(p.fee)})-> ${addrArg(p.tokenOut)}`,
      };
      return { kind: "swap", fn: d.functionName, leg };
    }
    case "exactInput":
    case "exactOutput": {
      if (!p) return null;
      const out = d.functionName === "exactOutput";
      const path = decodeV3Path(p.path, out);
      if (!path) return null;
      const leg: SwapLeg = {
        tokenIn: path.tokens[0],
        tokenOut: path.tokens[path.tokens.length - 1],
        amountIn: out ? null : bigArg(p.amountIn),
        minOut: out ? null : bigArg(p.amountOutMinimum),
        amountOut: out ? bigArg(p.amountOut) : null,
        maxIn: out ? bigArg(p.amountInMaximum) : null,
        recipient: addrArg(p.recipient),
        route: routeOf(path.tokens, path.fees),
      };
      return { kind: "swap", fn: d.functionName, leg };
    }
    case "multicall": {
      const inner = (a.length === 1 ? a[0] : a[1]) as Hex[];
      return Array.isArray(inner) ? { kind: "multicall", fn: "multicall", inner: inner.slice(0, 20) } : null;
    }
    case "unwrapWETH9":
      return { kind: "unwrap", fn: d.functionName, recipient: a.length > 1 ? addrArg(a[1]) : MSG_SENDER };
    case "sweepToken":
      return { kind: "sweep", fn: d.functionName, token: addrArg(a[0]), recipient: a.length > 2 ? addrArg(a[2]) : MSG_SENDER };
    case "refundETH":
      return { kind: "refund", fn: d.functionName };
    case "wrapETH":
      return { kind: "wrap", fn: d.functionName };
  }
  // V2-style: (amountIn|amountOutMin|amountOut, ..., path, to, deadline?)
  const fn = d.functionName;
  const ethIn = fn.startsWith("swapExactETH") || fn.startsWith("swapETH");
  const exactOut = fn.startsWith("swapTokensForExact") || fn === "swapETHForExactTokens";
  const pathIdx = ethIn ? 1 : 2;
  const path = a[pathIdx];
  if (!Array.isArray(path) || path.length < 2) return null;
  const tokens = path.map(addrArg);
  const leg: SwapLeg = {
    tokenIn: tokens[0],
    tokenOut: tokens[tokens.length - 1],
    amountIn: exactOut ? null : ethIn ? null : bigArg(a[0]),
    minOut: exactOut ? null : bigArg(ethIn ? a[0] : a[1]),
    amountOut: exactOut ? bigArg(a[0]) : null,
    maxIn: exactOut ? (ethIn ? null : bigArg(a[1])) : null,
    recipient: addrArg(a[pathIdx + 1]),
    route: routeOf(tokens),
  };
  return { kind: "swap", fn, leg, usesEth: ethIn };
}
