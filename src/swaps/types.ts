/**
 * Swaps (SPEC 2.9, 4.10): the quote-provider port and the swap summary. A provider turns "sell this much of
 * A for B, at most this slippage, for this taker" into calls the wallet makes (after an approval the
 * service adds when the allowance is short) and the amounts it expects. Two providers exist: the 0x Swap
 * API (production) and the sandbox pool (real liquidity on the sandbox chain).
 */
import type { Address, Hex } from "viem";
import { ServiceError, type ErrorKind } from "../lib/errors";

/** How aggregators name native ETH. */
export const NATIVE_TOKEN_SENTINEL: Address = "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE";

export interface SwapToken {
  /** Token contract, or "native" for ETH. */
  address: Address | "native";
  symbol: string;
  name: string;
  decimals: number;
}

export const isNative = (t: SwapToken) => t.address === "native";
/** The address a provider uses for the token (native ETH as 0xEeee...). */
export const wireAddress = (t: SwapToken): Address => (t.address === "native" ? NATIVE_TOKEN_SENTINEL : t.address);

export interface QuoteRequest {
  chainId: number;
  sell: SwapToken;
  buy: SwapToken;
  sellAmount: bigint;
  taker: Address;
  slippageBps: number;
}

export interface SwapCall {
  to: Address;
  data: Hex;
  value: bigint;
}

export interface ProviderQuote {
  /** `routing` of the summary: the provider. */
  routing: string;
  buyAmount: bigint;
  /** The minimum output written into the calldata the wallet signs. */
  minBuyAmount: bigint;
  /** The swap itself (the service prepends the approval). */
  calls: SwapCall[];
  /** Who must be approved to pull the sell token; null for native ETH. */
  allowanceSpender: Address | null;
  /** Network fee of the swap call(s) in wei, when the provider knows it. */
  networkFeeWei: bigint | null;
  /** Gas of the swap call(s), when known (used for the fee when networkFeeWei is null). */
  gasEstimate: bigint | null;
  priceImpactPct: number | null;
  routeString: string;
}

export interface QuoteProvider {
  readonly name: string;
  /** Every address a swap call may target or an approval may name (the provider's routers). */
  readonly routers: readonly Address[];
  quote(req: QuoteRequest): Promise<ProviderQuote>;
}

/** SPEC 2.9. */
export interface SwapSummary {
  routing: string;
  sell: { address: string; decimals: number; symbol: string };
  buy: { address: string; decimals: number; symbol: string };
  amountIn: string;
  amountOut: string;
  minimumOut: string;
  amountInHuman: string;
  amountOutHuman: string;
  minimumOutHuman: string;
  priceImpactPct: number | null;
  slippagePct: number;
  gasFeeUSD: number | null;
  routeString: string;
  approvalNeeded: boolean;
  approvalSpender: string | null;
}

/** SPEC 7: every swap failure is `swap_failed`; the status says which kind (400, 502, 503, 500). */
export const swapFailed = (kind: ErrorKind, message: string) => new ServiceError(kind, "swap_failed", message);
/** 400: unknown token, bad amount or slippage, wrong chain, a quote refused (by the provider or by our checks). */
export const swapRefused = (message: string) => swapFailed("invalid_input", message);
/** 502: the quote service could not be reached or answered garbage. */
export const quoteUnavailable = (message: string) => swapFailed("upstream_failed", message);

/** The least output a slippage allows: amountOut x (1 - bps/10000), rounded down. */
export const minimumOutFor = (amountOut: bigint, slippageBps: number): bigint => (amountOut * BigInt(10_000 - slippageBps)) / 10_000n;
