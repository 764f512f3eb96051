/**
 * Swap tokens (SPEC 4.10, list_swap_tokens): ETH (address `native`) plus the verified tokens of the chain.
 * Base lists the deployment's token registry (the sandbox: USDC and WETH, the only contracts on its chain);
 * Ethereum lists its well-known contracts (this deployment has no Ethereum chain: legacy wallets only).
 *
 * `sell`: a 0x token address, ETH, WETH, USDC, or a symbol of the chain's registry (the tokens a wallet's
 * balances list). `buy`: a 0x token address, ETH, WETH or USDC. An address outside the registry must answer
 * as an ERC-20 (decimals) on the chain.
 */
import { getAddress, type Address } from "viem";
import type { EvmChain } from "../chains/evm/chain";
import type { EvmToken } from "../chains/evm/tokens";
import { tokenInfo } from "../x402/pay/onchain";
import { swapRefused, type SwapToken } from "./types";

export const ETHEREUM_TOKENS: readonly EvmToken[] = [
  { symbol: "USDC", name: "USD Coin", address: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", decimals: 6, logoUrl: null },
  { symbol: "WETH", name: "Wrapped Ether", address: "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2", decimals: 18, logoUrl: null },
  { symbol: "USDT", name: "Tether USD", address: "0xdAC17F958D2ee523a2206206994597C13D831ec7", decimals: 6, logoUrl: null },
  { symbol: "DAI", name: "Dai Stablecoin", address: "0x6B175474E89094C44Da98b954EedeAC495271d0F", decimals: 18, logoUrl: null },
];

export interface ListedToken {
  symbol: string;
  name: string;
  address: string;
  decimals: number;
  logoUrl: string | null;
}

const ETH: ListedToken = { symbol: "ETH", name: "Ether", address: "native", decimals: 18, logoUrl: null };

export function listSwapTokens(chainKey: "base" | "ethereum", base: EvmChain | null): ListedToken[] {
  const tokens = chainKey === "base" ? (base?.tokens.tokens ?? []) : ETHEREUM_TOKENS;
  return [ETH, ...tokens.map((t) => ({ symbol: t.symbol, name: t.name, address: t.address, decimals: t.decimals, logoUrl: t.logoUrl }))];
}

const NATIVE_TOKEN: SwapToken = { address: "native", symbol: "ETH", name: "Ether", decimals: 18 };
const BUY_SYMBOLS = new Set(["WETH", "USDC"]);

/** Resolves `sell` or `buy` on the wallet's chain; 400 swap_failed for an unknown token. */
export async function resolveSwapToken(chain: EvmChain, raw: string, side: "sell" | "buy"): Promise<SwapToken> {
  const v = raw.trim();
  if (v.toUpperCase() === "ETH") return NATIVE_TOKEN;
  if (/^0x[0-9a-fA-F]{40}$/.test(v)) {
    const address = getAddress(v.toLowerCase()) as Address;
    const known = chain.tokens.byAddress(address);
    if (known) return { address: known.address, symbol: known.symbol, name: known.name, decimals: known.decimals };
    const info = await tokenInfo(chain, address);
    if (!info) throw swapRefused(`${side}: unknown token ${address}: it does not answer as an ERC-20 token on ${chain.info.name}`);
    return { address, symbol: info.symbol, name: info.symbol, decimals: info.decimals };
  }
  const t = chain.tokens.bySymbol(v);
  if (t && (side === "sell" || BUY_SYMBOLS.has(t.symbol.toUpperCase()))) return { address: t.address, symbol: t.symbol, name: t.name, decimals: t.decimals };
  const allowed = side === "sell" ? ["ETH", ...chain.tokens.tokens.map((x) => x.symbol)].join(", ") : "ETH, WETH, USDC";
  throw swapRefused(`${side}: unknown token "${v.slice(0, 60)}": use a 0x token address or one of ${allowed}`);
}
