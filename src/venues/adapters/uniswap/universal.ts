/**
 * Uniswap Universal Router: execute(commands, inputs[, deadline]). Each command byte (low 6 bits) names
 * an operation whose input is ABI-encoded on its own. V3/V2 swaps, wrap/unwrap, sweep, transfer and
 * Permit2 permits are decoded; V4 swaps and anything else are reported as undecoded steps.
 */
import { decodeAbiParameters, parseAbi, parseAbiParameters, type Hex } from "viem";
import { addrArg, bigArg, safeDecode } from "../../lib/evm";
import type { SwapLeg } from "../../lib/evm-swap";
import { isRecord } from "../../lib/util";
import { decodeV3Path } from "./routers";

export const UR_ABI = parseAbi(["function execute(bytes commands, bytes[] inputs, uint256 deadline)", "function execute(bytes commands, bytes[] inputs)"]);

const V3_IN = parseAbiParameters("address recipient, uint256 amountIn, uint256 amountOutMin, bytes path, bool payerIsUser");
const V2_IN = parseAbiParameters("address recipient, uint256 amountIn, uint256 amountOutMin, address[] path, bool payerIsUser");
const ADDR_ADDR_UINT = parseAbiParameters("address token, address recipient, uint256 amount");
const ADDR_UINT = parseAbiParameters("address recipient, uint256 amountMin");
const PERMIT = parseAbiParameters("((address token, uint160 amount, uint48 expiration, uint48 nonce) details, address spender, uint256 sigDeadline) permitSingle, bytes signature");

export interface UrStep {
  command: string;
  leg?: SwapLeg;
  payerIsUser?: boolean;
  recipient?: string;
  token?: string;
  amount?: bigint | null;
  permit?: { token: string; spender: string; amount: bigint | null };
}

const NAMES: Record<number, string> = {
  0x00: "V3_SWAP_EXACT_IN",
  0x01: "V3_SWAP_EXACT_OUT",
  0x02: "PERMIT2_TRANSFER_FROM",
  0x03: "PERMIT2_PERMIT_BATCH",
  0x04: "SWEEP",
  0x05: "TRANSFER",
  0x06: "PAY_PORTION",
  0x08: "V2_SWAP_EXACT_IN",
  0x09: "V2_SWAP_EXACT_OUT",
  0x0a: "PERMIT2_PERMIT",
  0x0b: "WRAP_ETH",
  0x0c: "UNWRAP_WETH",
  0x10: "V4_SWAP",
};

function decodeStep(code: number, input: Hex): UrStep {
  const command = NAMES[code] ?? `0x${code.toString(16).padStart(2, "0")}`;
  try {
    if (code === 0x00 || code === 0x01) {
      const [recipient, amt, limit, path, payerIsUser] = decodeAbiParameters(V3_IN, input);
      const out = code === 0x01;
      const p = decodeV3Path(path, out);
      if (!p) return { command };
      return {
        command,
        payerIsUser,
        leg: { tokenIn: p.tokens[0], tokenOut: p.tokens[p.tokens.length - 1], amountIn: out ? null : amt, minOut: out ? null : limit, amountOut: out ? amt : null, maxIn: out ? limit : null, recipient: addrArg(recipient) },
      };
    }
    if (code === 0x08 || code === 0x09) {
      const [recipient, amt, limit, path, payerIsUser] = decodeAbiParameters(V2_IN, input);
      const out = code === 0x09;
      if (path.length < 2) return { command };
      return {
        command,
        payerIsUser,
        leg: { tokenIn: addrArg(path[0]), tokenOut: addrArg(path[path.length - 1]), amountIn: out ? null : amt, minOut: out ? null : limit, amountOut: out ? amt : null, maxIn: out ? limit : null, recipient: addrArg(recipient) },
      };
    }
    if (code === 0x04 || code === 0x05 || code === 0x06) {
      const [token, recipient, amount] = decodeAbiParameters(ADDR_ADDR_UINT, input);
      return { command, token: addrArg(token), recipient: addrArg(recipient), amount };
    }
    if (code === 0x0b || code === 0x0c) {
      const [recipient, amount] = decodeAbiParameters(ADDR_UINT, input);
      return { command, recipient: addrArg(recipient), amount };
    }
    if (code === 0x0a) {
      const [ps] = decodeAbiParameters(PERMIT, input);
      const det: Record<string, unknown> = isRecord(ps) && isRecord(ps.details) ? ps.details : {};
      return { command, permit: { token: addrArg(det.token), spender: addrArg(isRecord(ps) ? ps.spender : ""), amount: bigArg(det.amount) } };
    }
  } catch {
    return { command: `${command} (undecodable)` };
  }
  return { command };
}

export function decodeUniversal(data: Hex): UrStep[] | null {
  const d = safeDecode(UR_ABI, data);
  if (!d) return null;
  const [commands, inputs] = d.args as [Hex, Hex[]];
  if (typeof commands !== "string" || !Array.isArray(inputs)) return null;
  const bytes = commands.slice(2).match(/../g) ?? [];
  return bytes.slice(0, 30).map((b, i) => decodeStep(parseInt(b, 16) & 0x3f, inputs[i] ?? "0x"));
}
