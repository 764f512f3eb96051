/**
 * Swaps hidden in raw EVM calls (issue 18, item 7). The swap route writes a minimum output from a quote
 * and 1 to 1,000 bps of slippage; a raw `evm_transaction` or `evm_calls` could carry the same router call
 * with a minimum output of 0, which any sandwich or price move can take whole. Each call is decoded with
 * the venue adapters (Uniswap V2/V3/SwapRouter02/Universal Router, Aerodrome, ...) and the sandbox pool's
 * own `swapExactIn`; an exact-in swap whose minimum output is zero is refused before anything is
 * simulated, judged or charged, every decoded swap is described (sold amount, minimum output) in the
 * proposal's summary, which is what the judge and the owner read, and its minimum goes to the limits
 * (`minimumOutputs`), which hold it to the swap route's slippage bound against the simulated output.
 */
import { decodeFunctionData, formatUnits, type Address, type Hex } from "viem";
import { ethereum } from "../../venues/adapters/ethereum";
import { ZERO_MIN_OUT_WARNING } from "../../venues/lib/evm-swap";
import { ConstantProductPoolAbi } from "../../sandbox/contracts";
import { BASE_USDC, BASE_WETH, SANDBOX_POOL } from "../../sandbox/addresses";
import { ChainInputError } from "../port";
import type { EvmChain } from "./chain";
import type { MinimumOutput } from "../types";
import { evmAddressCodec } from "./codec";

export interface DecodedSwap {
  /** The call's index in the batch (0 for a single transaction). */
  index: number;
  router: Address;
  /** "sell 100 USDC for at least 0.03 WETH" */
  text: string;
  /** Minimum output in the buy token's base units, when decoded (an exact-out swap's exact output). */
  minOut: bigint | null;
  /** The buy token, when known. */
  tokenOut: string | null;
  /** The adapter saw an exact-in swap accepting zero output. */
  zero: boolean;
}

/** The sandbox ConstantProductPool's swapExactIn(tokenIn, amountIn, minAmountOut, to), or null. */
function sandboxPoolSwap(chain: EvmChain, to: Address, data: Hex, index: number): DecodedSwap | null {
  let d;
  try {
    d = decodeFunctionData({ abi: ConstantProductPoolAbi, data });
  } catch {
    return null;
  }
  if (d.functionName !== "swapExactIn") return null;
  const [tokenIn, amountIn, minOut] = d.args as readonly [Address, bigint, bigint, Address];
  const token = (a: Address) => chain.tokens.tokens.find((t) => t.address.toLowerCase() === a.toLowerCase());
  const tin = token(tokenIn);
  // The sandbox pool trades one pair (WETH/USDC): its output is the other token. Elsewhere it is unknown.
  const isPool = to.toLowerCase() === SANDBOX_POOL.toLowerCase();
  const tout = isPool ? token(tokenIn.toLowerCase() === BASE_WETH.toLowerCase() ? BASE_USDC : BASE_WETH) : undefined;
  const sell = tin ? `${formatUnits(amountIn, tin.decimals)} ${tin.symbol}` : `${amountIn} base units of ${tokenIn}`;
  const buy = tout ? `${formatUnits(minOut, tout.decimals)} ${tout.symbol}` : `${minOut} base units of the output token`;
  return { index, router: to, text: `sell ${sell} for at least ${buy}`, minOut, tokenOut: tout?.address ?? null, zero: minOut === 0n };
}

/** A venue adapter's reading of the call: its swap summary, and whether it saw a zero minimum output. */
function venueSwap(chain: EvmChain, to: Address, data: Hex, value: bigint, index: number): DecodedSwap | null {
  const facts = ethereum.describe({ chainId: chain.info.chainId, to, data, value: value.toString() }, null);
  if (!facts?.swap) return null;
  const zero = facts.warnings.includes(ZERO_MIN_OUT_WARNING);
  const buy = facts.swap.buy;
  const minOut = buy.amountBase && /^\d+$/.test(buy.amountBase) ? BigInt(buy.amountBase) : null;
  return { index, router: to, text: `${facts.summary} (${facts.venue})`, minOut, tokenOut: buy.tokenAddress ?? null, zero };
}

/**
 * The swaps among `calls`, described; throws a refusal (400 propose_failed) naming the first exact-in swap
 * with a minimum output of zero. `field` names the calls in the input (`input.calls` or `input.transaction`).
 */
export function checkSwapMinimums(chain: EvmChain, calls: { to: Address; data: Hex; value: bigint }[], field: string): (DecodedSwap & { where: string })[] {
  const swaps: (DecodedSwap & { where: string })[] = [];
  calls.forEach((c, i) => {
    if (c.data.length < 10) return;
    const s = sandboxPoolSwap(chain, c.to, c.data, i) ?? venueSwap(chain, c.to, c.data, c.value, i);
    if (!s) return;
    const where = field === "input.calls" ? `${field}.${i}` : field;
    if (s.zero) {
      throw new ChainInputError(
        `${where} is a swap on ${evmAddressCodec.display(c.to)} with no minimum output (0): anyone moving the price can take the whole output, so it is refused. Set a minimum output (the swap route, escrow_swap, writes one from 1 to 1,000 bps of slippage).`,
      );
    }
    swaps.push({ ...s, where });
  });
  return swaps;
}

/** The floors the limits check against the simulation (src/proposals/swap-bound.ts). */
export function minimumOutputsOf(swaps: (DecodedSwap & { where: string })[]): MinimumOutput[] {
  return swaps.filter((s) => s.minOut !== null && s.tokenOut).map((s) => ({ where: s.where, token: s.tokenOut!.toLowerCase(), minRaw: s.minOut!.toString() }));
}

/** " Swaps: call 1 sells ... for at least ...; ..." for the summary the judge and the owner read. */
export function describeSwaps(swaps: DecodedSwap[], batch: boolean): string {
  if (!swaps.length) return "";
  return `; swap${swaps.length === 1 ? "" : "s"}: ${swaps.map((s) => `${batch ? `call ${s.index} ` : ""}${s.text} on ${evmAddressCodec.display(s.router)}`).join("; ")}`;
}
