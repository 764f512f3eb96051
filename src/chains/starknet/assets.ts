/**
 * The Starknet asset registry: STRK, ETH, USDC (native Circle) and USDT at their mainnet addresses. STRK
 * pays the fees but is an ERC-20 like the others, so every asset resolves to its token; `native` has no
 * separate meaning on Starknet (the registry's `native` entry describes the fee token).
 */
import { ChainInputError, type AssetRegistry } from "../port";
import { NATIVE, type TokenInfo } from "../types";
import { STARKNET_TOKENS } from "./constants";
import { FeltError, normaliseAddress } from "./felt";

export interface StarknetPrices {
  /** USD per whole unit by canonical token address; null when unknown. */
  usd(tokenAddress: string): Promise<number | null>;
}

export const STARKNET_TOKEN_INFOS: readonly TokenInfo[] = STARKNET_TOKENS.map((t) => ({ symbol: t.symbol, name: t.name, address: t.address, decimals: t.decimals, logoUrl: null }));
const STRK_INFO = STARKNET_TOKEN_INFOS[0]!;

const looksLikeAddress = (s: string) => /^0x[0-9a-fA-F]+$/.test(s) || /^[0-9]{10,}$/.test(s);

export function starknetAssets(prices: StarknetPrices): AssetRegistry {
  const byAddress = (address: string): TokenInfo | null => {
    try {
      const a = normaliseAddress(address);
      return STARKNET_TOKEN_INFOS.find((t) => t.address === a) ?? null;
    } catch {
      return null;
    }
  };
  return {
    native: { symbol: "STRK", name: "Starknet Token", decimals: 18 },
    tokens: STARKNET_TOKEN_INFOS,
    resolve(asset) {
      const s = asset.trim();
      const sym = s.toUpperCase();
      const bySym = STARKNET_TOKEN_INFOS.find((t) => t.symbol === sym) ?? (sym === NATIVE.toUpperCase() ? STRK_INFO : undefined);
      if (bySym) return { kind: "token", token: bySym };
      const t = byAddress(s);
      return t ? { kind: "token", token: t } : null;
    },
    byAddress,
    allowlistEntry(entry) {
      const s = entry.trim();
      if (looksLikeAddress(s)) {
        try {
          return { id: normaliseAddress(s, "tokenAllowlist entry") };
        } catch (e) {
          if (e instanceof FeltError) throw new ChainInputError(e.message);
          throw e;
        }
      }
      const sym = s.toUpperCase();
      const t = STARKNET_TOKEN_INFOS.find((x) => x.symbol === sym) ?? (sym === NATIVE.toUpperCase() ? STRK_INFO : undefined);
      return t ? { id: t.address } : { unknown: sym };
    },
    usd(token) {
      const t = token === NATIVE ? STRK_INFO : byAddress(token);
      return t ? prices.usd(t.address) : Promise.resolve(null);
    },
  };
}
