/**
 * All adapters, in shape-detection priority: the most specific shapes first (x402 envelopes, Hyperliquid
 * typed actions, Polymarket orders, Jupiter quotes) and the broad ones last. `ethereum` covers every EVM
 * transaction and hands protocol calldata to the EVM protocol adapters, so those need no slot of their own.
 */
import type { VenueAdapter } from "../types";
import type { AdapterId } from "../ids";
import { aave } from "./aave";
import { aerodrome } from "./aerodrome";
import { drift } from "./drift";
import { dydx } from "./dydx";
import { ethereum } from "./ethereum";
import { gmx } from "./gmx";
import { hyperliquid } from "./hyperliquid";
import { jupiter } from "./jupiter";
import { lido } from "./lido";
import { morpho } from "./morpho";
import { paradex } from "./paradex";
import { pendle } from "./pendle";
import { polymarket } from "./polymarket";
import { solana } from "./solana";
import { starknet } from "./starknet";
import { uniswap } from "./uniswap";
import { x402 } from "./x402";

export const ADAPTERS: Record<AdapterId, VenueAdapter> = {
  x402,
  solana,
  starknet,
  hyperliquid,
  polymarket,
  ethereum,
  uniswap,
  aave,
  lido,
  jupiter,
  morpho,
  aerodrome,
  gmx,
  pendle,
  drift,
  dydx,
  paradex,
};

export const DETECTION_ORDER: VenueAdapter[] = [x402, hyperliquid, polymarket, jupiter, solana, starknet, paradex, dydx, drift, ethereum];
