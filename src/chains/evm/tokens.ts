/**
 * Known tokens per EVM chain: what balances list, what `transfer` accepts by symbol, and what a
 * `tokenAllowlist` symbol resolves to. One registry per chain runtime: production Base lists the real
 * contracts; the sandbox lists only the contracts that exist on the local chain (USDC and WETH at their
 * Base addresses), so a balance read never calls an address without code.
 */
import { getAddress, type Address } from "viem";

export interface EvmToken {
  symbol: string;
  name: string;
  address: Address;
  decimals: number;
  logoUrl: string | null;
}

export interface NativeAsset {
  symbol: "ETH";
  name: string;
  decimals: 18;
}

/** The pseudo-address native ETH is stored under in allowlists and price tables. */
export const NATIVE = "native" as const;

export const BASE_USDC_TOKEN: EvmToken = { symbol: "USDC", name: "USD Coin", address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", decimals: 6, logoUrl: null };
export const BASE_WETH_TOKEN: EvmToken = { symbol: "WETH", name: "Wrapped Ether", address: "0x4200000000000000000000000000000000000006", decimals: 18, logoUrl: null };

export const BASE_TOKENS: readonly EvmToken[] = [
  BASE_USDC_TOKEN,
  BASE_WETH_TOKEN,
  { symbol: "USDT", name: "Tether USD", address: "0xfde4C96c8593536E31F229EA8f37b2ADa2699bb2", decimals: 6, logoUrl: null },
  { symbol: "DAI", name: "Dai Stablecoin", address: "0x50c5725949A6F0c72E6C4a641F24049A917DB0Cb", decimals: 18, logoUrl: null },
  { symbol: "cbBTC", name: "Coinbase Wrapped BTC", address: "0xcbB7C0000aB88B473b1f5aFd9ef808440eed33Bf", decimals: 8, logoUrl: null },
];

/** The sandbox chain holds SandboxUSDC and WETH at their Base addresses, and nothing else. */
export const SANDBOX_TOKENS: readonly EvmToken[] = [BASE_USDC_TOKEN, BASE_WETH_TOKEN];

export class TokenRegistry {
  readonly native: NativeAsset = { symbol: "ETH", name: "Ether", decimals: 18 };
  private readonly byAddr = new Map<string, EvmToken>();
  private readonly bySym = new Map<string, EvmToken>();

  constructor(readonly tokens: readonly EvmToken[]) {
    for (const t of tokens) {
      this.byAddr.set(t.address.toLowerCase(), t);
      this.bySym.set(t.symbol.toUpperCase(), t);
    }
  }

  byAddress(address: string): EvmToken | null {
    return this.byAddr.get(address.toLowerCase()) ?? null;
  }

  bySymbol(symbol: string): EvmToken | null {
    return this.bySym.get(symbol.trim().toUpperCase()) ?? null;
  }

  /** `ETH` (any case), a registry symbol, or a registry token address. */
  resolveAsset(asset: string): { kind: "native" } | { kind: "token"; token: EvmToken } | null {
    const a = asset.trim();
    if (a.toUpperCase() === "ETH") return { kind: "native" };
    if (/^0x[0-9a-fA-F]{40}$/.test(a)) {
      const t = this.byAddress(a);
      return t ? { kind: "token", token: t } : null;
    }
    const t = this.bySymbol(a);
    return t ? { kind: "token", token: t } : null;
  }
}

/** Normalised 0x address (checksummed) or null. */
export function toAddress(v: string): Address | null {
  return /^0x[0-9a-fA-F]{40}$/.test(v.trim()) ? getAddress(v.trim().toLowerCase()) : null;
}
