/**
 * Known Solana assets: SOL (native, 9 decimals) and SPL tokens by mint. Mints are base58 and compared
 * exactly (case matters in base58). The sandbox holds only USDC, at its mainnet mint.
 */
export const USDC_MINT = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
export const USDT_MINT = "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB";
/** Wrapped SOL (the native mint). */
export const WSOL_MINT = "So11111111111111111111111111111111111111112";

export const SOL_DECIMALS = 9;
export const NATIVE_SOL = { symbol: "SOL", name: "Solana", decimals: SOL_DECIMALS } as const;

export interface SplToken {
  symbol: string;
  name: string;
  mint: string;
  decimals: number;
  logoUrl: string | null;
}

export const USDC_TOKEN: SplToken = { symbol: "USDC", name: "USD Coin", mint: USDC_MINT, decimals: 6, logoUrl: null };

export const MAINNET_SPL_TOKENS: readonly SplToken[] = [
  USDC_TOKEN,
  { symbol: "USDT", name: "Tether USD", mint: USDT_MINT, decimals: 6, logoUrl: null },
  { symbol: "WSOL", name: "Wrapped SOL", mint: WSOL_MINT, decimals: 9, logoUrl: null },
];

export const SANDBOX_SPL_TOKENS: readonly SplToken[] = [USDC_TOKEN];

export class SplTokenRegistry {
  private readonly byMint = new Map<string, SplToken>();
  private readonly bySym = new Map<string, SplToken>();

  constructor(readonly tokens: readonly SplToken[]) {
    for (const t of tokens) {
      this.byMint.set(t.mint, t);
      this.bySym.set(t.symbol.toUpperCase(), t);
    }
  }

  byMintAddress(mint: string): SplToken | null {
    return this.byMint.get(mint) ?? null;
  }

  bySymbol(symbol: string): SplToken | null {
    return this.bySym.get(symbol.trim().toUpperCase()) ?? null;
  }

  /** `SOL` (any case), a known symbol, or a known mint (exact base58). */
  resolveAsset(asset: string): { kind: "native" } | { kind: "token"; token: SplToken } | null {
    const a = asset.trim();
    if (a.toUpperCase() === "SOL") return { kind: "native" };
    const t = this.byMintAddress(a) ?? this.bySymbol(a);
    return t ? { kind: "token", token: t } : null;
  }
}
