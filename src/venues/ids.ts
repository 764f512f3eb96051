/** The 17 adapter ids (SPEC 4.1): three neutral words and fourteen venues/protocols (see README.md). */
export const ADAPTER_IDS = [
  "x402",
  "solana",
  "starknet",
  "hyperliquid",
  "polymarket",
  "ethereum",
  "uniswap",
  "aave",
  "lido",
  "jupiter",
  "morpho",
  "aerodrome",
  "gmx",
  "pendle",
  "drift",
  "dydx",
  "paradex",
] as const;
export type AdapterId = (typeof ADAPTER_IDS)[number];

/** MCP `venue` enum: the 17 ids plus `evm`, the alias of `ethereum`. */
export const MCP_VENUE_ENUM = [...ADAPTER_IDS, "evm"] as const;
export type McpVenue = (typeof MCP_VENUE_ENUM)[number];

export const isAdapterId = (v: unknown): v is AdapterId => typeof v === "string" && (ADAPTER_IDS as readonly string[]).includes(v);
