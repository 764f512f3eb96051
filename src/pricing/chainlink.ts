/**
 * Production prices: Chainlink aggregators read over the chain's own RPC (no third-party price API, so
 * a deployment needs nothing beyond BASE_RPC_URL). An answer older than the feed's allowed age, a
 * non-positive answer or a failed read is "unknown" (null), never a stale guess.
 */
import { parseAbi, type Address, type PublicClient } from "viem";
import type { Clock } from "../lib/clock";
import type { PriceKey, PriceSource } from "./source";

const AGGREGATOR_ABI = parseAbi([
  "function latestRoundData() view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)",
  "function decimals() view returns (uint8)",
]);

export interface ChainlinkFeed {
  feed: Address;
  /** Oldest acceptable `updatedAt`, in seconds (a little over the feed's heartbeat). */
  maxAgeSeconds: number;
}

/** Chainlink USD feeds on Base mainnet (docs.chain.link, network=base), keyed by what they price. */
const ETH_USD: ChainlinkFeed = { feed: "0x71041dddad3595F9CEd3DcCFBe3D1F4b0a16Bb70", maxAgeSeconds: 3 * 3600 };
const BTC_USD: ChainlinkFeed = { feed: "0x64c911996D3c6aC71f9b455B1E8E7266BcbD848F", maxAgeSeconds: 3 * 3600 };
export const BASE_CHAINLINK_FEEDS: Record<PriceKey, ChainlinkFeed> = {
  native: ETH_USD,
  "0x4200000000000000000000000000000000000006": ETH_USD, // WETH is redeemable 1:1 for ETH
  "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913": { feed: "0x7e860098F58bBFC8648a4311b374B1D669a2bc6B", maxAgeSeconds: 26 * 3600 }, // USDC/USD
  "0xfde4c96c8593536e31f229ea8f37b2ada2699bb2": { feed: "0xf19d560eB8d2ADf07BD6D13ed03e1D11215721F9", maxAgeSeconds: 26 * 3600 }, // USDT/USD
  "0x50c5725949a6f0c72e6c4a641f24049a917db0cb": { feed: "0x591e79239a7d679378eC8c847e5038150364C78F", maxAgeSeconds: 26 * 3600 }, // DAI/USD
  "0xcbb7c0000ab88b473b1f5afd9ef808440eed33bf": BTC_USD, // cbBTC priced as BTC
};

export function chainlinkPrices(client: PublicClient, feeds: Record<PriceKey, ChainlinkFeed>, clock: Clock): PriceSource {
  const decimals = new Map<string, number>();
  return {
    name: "chainlink",
    async usd(key) {
      const f = feeds[key.toLowerCase()];
      if (!f) return null;
      try {
        let d = decimals.get(f.feed);
        if (d === undefined) {
          d = Number(await client.readContract({ address: f.feed, abi: AGGREGATOR_ABI, functionName: "decimals" }));
          decimals.set(f.feed, d);
        }
        const [, answer, , updatedAt] = await client.readContract({ address: f.feed, abi: AGGREGATOR_ABI, functionName: "latestRoundData" });
        const ageSeconds = clock.now().getTime() / 1000 - Number(updatedAt);
        if (answer <= 0n || ageSeconds > f.maxAgeSeconds) return null;
        return Number(answer) / 10 ** d;
      } catch {
        return null;
      }
    },
  };
}
