/**
 * Well-known ERC-20 contracts per chain. The registry wins over caller context for these addresses:
 * a context that calls a real USDC contract "DAI" or gives it 18 decimals is either a mistake or an
 * attack, and the judge is warned either way.
 */
import { canonSymbol } from "./prices";
import { isRecord, lookupCI, num, str } from "./util";

export interface TokenInfo {
  symbol: string;
  decimals: number;
  source: "registry" | "context";
}

type Table = Record<string, [string, number]>;

const ETHEREUM: Table = {
  "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48": ["USDC", 6],
  "0xdac17f958d2ee523a2206206994597c13d831ec7": ["USDT", 6],
  "0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2": ["WETH", 18],
  "0x6b175474e89094c44da98b954eedeac495271d0f": ["DAI", 18],
  "0x2260fac5e5542a773aa44fbcfedf7c193bc2c599": ["WBTC", 8],
  "0xcbb7c0000ab88b473b1f5afd9ef808440eed33bf": ["CBBTC", 8],
  "0xae7ab96520de3a18e5e111b5eaab095312d7fe84": ["STETH", 18],
  "0x7f39c581f595b53c5cb19bd0b3f8da6c935e2ca0": ["WSTETH", 18],
  "0x4c9edd5852cd905f086c759e8383e09bff1e68b3": ["USDE", 18],
  "0x6c3ea9036406852006290770bedfcaba0e23a0e8": ["PYUSD", 6],
  "0x1abaea1f7c830bd89acc67ec4af516284b1bc33c": ["EURC", 6],
  "0x514910771af9ca656af840dff83e8264ecf986ca": ["LINK", 18],
  "0x1f9840a85d5af5bf1d1762f925bdaddc4201f984": ["UNI", 18],
  "0x7fc66500c84a76ad7e9c93437bfc5ac33e2ddae9": ["AAVE", 18],
  "0x40d16fc0246ad3160ccc09b8d0d3a2cd28ae6c2f": ["GHO", 18],
  "0xae78736cd615f374d3085123a210448e74fc6393": ["RETH", 18],
  "0xcd5fe23c85820f7b72d0926fc9b05b43e359b7ee": ["WEETH", 18],
  "0x808507121b80c02388fad14726482e061b8da827": ["PENDLE", 18],
  "0x58d97b57bb95320f9a05dc918aef65434969c2b2": ["MORPHO", 18],
};

const BASE: Table = {
  "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913": ["USDC", 6],
  "0xd9aaec86b65d86f6a7b5b1b0c42ffa531710b6ca": ["USDBC", 6],
  "0xfde4c96c8593536e31f229ea8f37b2ada2699bb2": ["USDT", 6],
  "0x4200000000000000000000000000000000000006": ["WETH", 18],
  "0x50c5725949a6f0c72e6c4a641f24049a917db0cb": ["DAI", 18],
  "0xcbb7c0000ab88b473b1f5afd9ef808440eed33bf": ["CBBTC", 8],
  "0xc1cba3fcea344f92d9239c08c0568f6f2f0ee452": ["WSTETH", 18],
  "0x2ae3f1ec7f1f5012cfeab0185bfc7aa3cf0dec22": ["CBETH", 18],
  "0x940181a94a35a4569e4529a3cdfb74e38fd98631": ["AERO", 18],
  "0x60a3e35cc302bfa44cb288bc5a4f316fdb1adb42": ["EURC", 6],
};

const ARBITRUM: Table = {
  "0xaf88d065e77c8cc2239327c5edb3a432268e5831": ["USDC", 6],
  "0xff970a61a04b1ca14834a43f5de4533ebddb5cc8": ["USDC.E", 6],
  "0xfd086bc7cd5c481dcc9c85ebe478a1c0b69fcbb9": ["USDT", 6],
  "0x82af49447d8a07e3bd95bd0d56f35241523fbab1": ["WETH", 18],
  "0xda10009cbd5d07dd0cecc66161fc93d7c9000da1": ["DAI", 18],
  "0x2f2a2543b76a4166549f7aab2e75bef0aefc5b0f": ["WBTC", 8],
  "0x912ce59144191c1204e64559fe8253a0e49e6548": ["ARB", 18],
  "0x5979d7b546e38e414f7e9822514be443a4800529": ["WSTETH", 18],
  "0xfc5a1a6eb076a2c7ad06ed22c90d7e710e35ad0a": ["GMX", 18],
};

const OPTIMISM: Table = {
  "0x0b2c639c533813f4aa9d7837caf62653d097ff85": ["USDC", 6],
  "0x7f5c764cbc14f9669b88837ca1490cca17c31607": ["USDC.E", 6],
  "0x94b008aa00579c1307b0ef2c499ad98a8ce58e58": ["USDT", 6],
  "0x4200000000000000000000000000000000000006": ["WETH", 18],
  "0x4200000000000000000000000000000000000042": ["OP", 18],
};

const POLYGON: Table = {
  "0x3c499c542cef5e3811e1192ce70d8cc03d5c3359": ["USDC", 6],
  "0x2791bca1f2de4661ed88a30c99a7a9449aa84174": ["USDC.E", 6],
  "0xc2132d05d31c914a87c6611c10748aeb04b58e8f": ["USDT", 6],
  "0x7ceb23fd6bc0add59e62ac25578270cff1b9f619": ["WETH", 18],
  "0x0d500b1d8e8ef31e21c99d1db9a6444d3adf1270": ["WPOL", 18],
};

const BY_CHAIN: Record<number, Table> = { 1: ETHEREUM, 8453: BASE, 42161: ARBITRUM, 10: OPTIMISM, 137: POLYGON };

/** Native coin of each EVM chain (what `value` moves). */
export function nativeSymbol(chainId: number | null): string {
  if (chainId === 137) return "POL";
  if (chainId === 56) return "BNB";
  if (chainId === 43114) return "AVAX";
  if (chainId === 999) return "HYPE";
  return "ETH";
}

/** WETH-style wrapper for the chain, used to recognise deposit()/withdraw() on it. */
export function wrappedNative(chainId: number | null, address: string): boolean {
  const a = address.toLowerCase();
  const t = chainId === null ? null : BY_CHAIN[chainId];
  const entry = t?.[a];
  if (entry && (entry[0] === "WETH" || entry[0] === "WPOL")) return true;
  if (chainId === null) return Object.values(BY_CHAIN).some((tb) => tb[a]?.[0] === "WETH");
  return false;
}

/** Registry symbol for an address on a chain; with no chain, only addresses that mean the same token everywhere. */
function registry(address: string, chainId: number | null): [string, number] | null {
  if (chainId !== null) return BY_CHAIN[chainId]?.[address] ?? null;
  const hits = Object.values(BY_CHAIN)
    .map((t) => t[address])
    .filter((x): x is [string, number] => !!x);
  if (hits.length === 0) return null;
  return hits.every((h) => h[0] === hits[0][0] && h[1] === hits[0][1]) ? hits[0] : null;
}

/** Context tokens: {tokens: {addr: {symbol, decimals}}}, {decimals: {addr: 6}}, {tokens: [{address, symbol, decimals}]}. */
export function contextToken(address: string, ctx: unknown, compare: (a: string, b: string) => boolean): TokenInfo | null {
  if (!isRecord(ctx)) return null;
  for (const table of ["tokens", "mints", "assets_by_address", "tokenInfo"]) {
    const t = ctx[table];
    if (Array.isArray(t)) {
      for (const e of t.slice(0, 500)) {
        if (!isRecord(e)) continue;
        const a = str(e.address) ?? str(e.mint) ?? str(e.contractAddress);
        if (a && compare(a, address)) return fromEntry(e);
      }
    } else if (isRecord(t)) {
      for (const k of Object.keys(t)) {
        const v = t[k];
        const inner = isRecord(v) ? (str(v.address) ?? str(v.mint)) : null;
        if (compare(k, address) || (inner !== null && compare(inner, address))) {
          const e = fromEntry(v);
          // a symbol-keyed table ({"USDC": {address, decimals}}) names the token by its key
          if (e && !e.symbol && !compare(k, address)) e.symbol = k;
          return e;
        }
      }
    }
  }
  const d = ctx.decimals;
  if (isRecord(d)) {
    for (const k of Object.keys(d)) {
      const n = num(d[k]);
      if (compare(k, address) && n !== null && Number.isInteger(n) && n >= 0 && n <= 36)
        return { symbol: address, decimals: n, source: "context" };
    }
  }
  return null;
}

function fromEntry(e: unknown): TokenInfo | null {
  if (typeof e === "string") return { symbol: e, decimals: -1, source: "context" };
  if (!isRecord(e)) return null;
  const d = num(e.decimals);
  const symbol = str(e.symbol) ?? str(e.name) ?? "";
  const okD = d !== null && Number.isInteger(d) && d >= 0 && d <= 36 ? d : -1;
  return { symbol, decimals: okD, source: "context" };
}

export interface ResolvedToken {
  address: string;
  symbol: string | null; // upper-case when known
  decimals: number | null;
  warnings: string[];
}

const evmEq = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export function resolveEvmToken(address: string, chainId: number | null, ctx: unknown): ResolvedToken {
  const a = address.toLowerCase();
  const warnings: string[] = [];
  const reg = registry(a, chainId);
  const c = contextToken(a, ctx, evmEq);
  if (reg) {
    if (c && c.decimals >= 0 && c.decimals !== reg[1])
      warnings.push(`context gives ${c.decimals} decimals for ${reg[0]} ${a}; the token has ${reg[1]}`);
    return { address: a, symbol: reg[0], decimals: reg[1], warnings };
  }
  if (c) {
    const symbol = c.symbol ? canonSymbol(c.symbol) : null;
    const decimals = c.decimals >= 0 ? c.decimals : null;
    if (decimals === null) warnings.push(`unknown token decimals for ${a}`);
    return { address: a, symbol, decimals, warnings };
  }
  warnings.push(`unknown token ${a}${chainId === null ? "" : ` on ${chainId}`}: symbol and decimals not known`);
  return { address: a, symbol: null, decimals: null, warnings };
}

/** Symbol -> address on a chain (for context that names tokens by symbol). */
export function evmTokenBySymbol(symbol: string, chainId: number | null): string | null {
  const t = chainId === null ? null : BY_CHAIN[chainId];
  if (!t) return null;
  const s = symbol.toUpperCase();
  for (const [addr, [sym]] of Object.entries(t)) if (sym === s) return addr;
  return null;
}

/** Lookup in an address-keyed context table ignoring case (e.g. context.vaults, context.markets). */
export function ctxByAddress(table: unknown, address: string): unknown {
  return isRecord(table) ? lookupCI(table, address) : undefined;
}
