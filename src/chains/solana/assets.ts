/** The chain port's AssetRegistry for Solana: SOL plus known SPL mints (exact base58), priced. */
import type { AssetRegistry } from "../port";
import { NATIVE, type TokenInfo } from "../types";
import { solanaAddressCodec, looksLikeSolanaAddress } from "./codec";
import type { SolanaPriceSource } from "./prices";
import { NATIVE_SOL, type SplTokenRegistry } from "./tokens";
import { inputError } from "./errors";

export function createSolanaAssets(registry: SplTokenRegistry, prices: SolanaPriceSource): AssetRegistry {
  const tokens: TokenInfo[] = registry.tokens.map((t) => ({ symbol: t.symbol, name: t.name, address: t.mint, decimals: t.decimals, logoUrl: t.logoUrl }));
  const byAddress = (address: string): TokenInfo | null => tokens.find((t) => t.address === address.trim()) ?? null;
  return {
    native: { ...NATIVE_SOL },
    tokens,
    resolve(asset) {
      const a = asset.trim();
      if (a.toUpperCase() === "SOL" || a === NATIVE) return { kind: "native", asset: { ...NATIVE_SOL } };
      const t = byAddress(a) ?? tokens.find((x) => x.symbol.toUpperCase() === a.toUpperCase()) ?? null;
      return t ? { kind: "token", token: t } : null;
    },
    byAddress,
    allowlistEntry(entry) {
      const e = entry.trim();
      if (e.toUpperCase() === "SOL" || e.toLowerCase() === NATIVE) return { id: NATIVE };
      const sym = tokens.find((x) => x.symbol.toUpperCase() === e.toUpperCase());
      if (sym) return { id: sym.address };
      // Anything longer than a symbol is meant as a mint: it must be a valid one.
      if (looksLikeSolanaAddress(e) || e.length > 20) {
        const p = solanaAddressCodec.validate(e);
        if (p) throw inputError(`tokenAllowlist entry ${JSON.stringify(e.slice(0, 60))} ${p}`, "limits.tokenAllowlist");
        return { id: e };
      }
      return { unknown: e.toUpperCase() };
    },
    usd: (token) => prices.usd(token === NATIVE ? NATIVE : token.trim()),
  };
}
