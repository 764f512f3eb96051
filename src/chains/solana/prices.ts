/**
 * USD prices for Solana assets, keyed by NATIVE ("native" = SOL) or the exact base58 mint.
 *
 * - Sandbox: a fixed table (SANDBOX_SOLANA_PRICES: SOL 150 USD, USDC 1 USD), documented in docs/wallets.md.
 * - Production: Pyth's sponsored push-feed accounts (PriceUpdateV2, owned by the Pyth receiver program),
 *   read over the same RPC as everything else: no API key, no other host. The account's owner, feed id
 *   and full verification are checked, and a price older than `maxAgeSeconds` is no price (null), never
 *   a guess. Layout: 8-byte discriminator, write authority (32), verification level (Full = tag 1;
 *   Partial = tag 0 + u8), feed id (32), price i64, conf u64, exponent i32, publish time i64, ...
 */
import { createSolanaRpc, getBase64Encoder, type Address } from "@solana/kit";
import { NATIVE } from "../types";
import { USDC_MINT } from "./tokens";

export interface SolanaPriceSource {
  readonly name: string;
  usd(key: string): Promise<number | null>;
}

export const SANDBOX_SOLANA_PRICES: Record<string, number> = { [NATIVE]: 150, [USDC_MINT]: 1 };

export function fixedSolanaPrices(table: Record<string, number> = SANDBOX_SOLANA_PRICES): SolanaPriceSource {
  const t = new Map(Object.entries(table));
  return { name: "sandbox-fixed", usd: async (key) => t.get(key) ?? null };
}

export const PYTH_RECEIVER_PROGRAM = "rec5EKMGg6MxZYaMdyBfgwp4d5rB9T1VQH5pJv5LtFJ";
/** Sponsored push feeds on mainnet (shard 0): account -> feed id (hex). */
export const PYTH_FEEDS: Record<string, { account: string; feedId: string }> = {
  [NATIVE]: { account: "7UVimffxr9ow1uXYxsr4LHAcV58mLzhmwaeKvJ1pjLiE", feedId: "ef0d8b6fda2ceba41da15d4095d1da392a0d2f8ed0c6c7bc0f4cfac8c280b56d" },
  [USDC_MINT]: { account: "Dpw1EAVrSB1ibxiDQyTAW6Zip3J4Btk2x4SgApQCeFbX", feedId: "eaa020c61cc479712813461ce153894a96a6c00b21ed0cfc2798d1f9a9e9c94a" },
};
const DISCRIMINATOR = [34, 241, 35, 99, 157, 126, 244, 205];

/** Parses a PriceUpdateV2 account; null when it is not one, not fully verified, or not the expected feed. */
export function parsePriceUpdate(data: Uint8Array, feedId: string): { price: number; publishTime: number } | null {
  if (data.length < 8 + 32 + 1 + 32 + 8 + 8 + 4 + 8 || !DISCRIMINATOR.every((b, i) => data[i] === b)) return null;
  let o = 40;
  if (data[o] !== 1) return null; // Full verification only
  o += 1;
  if (Buffer.from(data.subarray(o, o + 32)).toString("hex") !== feedId) return null;
  o += 32;
  const v = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const price = v.getBigInt64(o, true);
  const expo = v.getInt32(o + 16, true);
  const publishTime = Number(v.getBigInt64(o + 20, true));
  if (price <= 0n) return null;
  return { price: Number(price) * 10 ** expo, publishTime };
}

export function pythPrices(rpcUrl: string, o: { maxAgeSeconds?: number; now?: () => number } = {}): SolanaPriceSource {
  const rpc = createSolanaRpc(rpcUrl);
  const maxAge = o.maxAgeSeconds ?? 120;
  const now = o.now ?? (() => Date.now() / 1000);
  const b64 = getBase64Encoder();
  return {
    name: "pyth",
    async usd(key) {
      const feed = PYTH_FEEDS[key];
      if (!feed) return null;
      const res = await rpc.getAccountInfo(feed.account as Address, { encoding: "base64" }).send();
      const acct = res.value;
      if (!acct || acct.owner !== PYTH_RECEIVER_PROGRAM) return null;
      const parsed = parsePriceUpdate(new Uint8Array(b64.encode(acct.data[0])), feed.feedId);
      if (!parsed || now() - parsed.publishTime > maxAge) return null;
      return Math.round(parsed.price * 1e6) / 1e6;
    },
  };
}

/** Caches each answer (including "unknown") for `ttlMs` and shares in-flight lookups. */
export function cachedSolanaPrices(inner: SolanaPriceSource, ttlMs: number, now: () => number = Date.now): SolanaPriceSource {
  const cache = new Map<string, { at: number; value: Promise<number | null> }>();
  return {
    name: inner.name,
    usd(key) {
      const hit = cache.get(key);
      if (hit && now() - hit.at < ttlMs) return hit.value;
      const value = inner.usd(key).catch(() => null);
      cache.set(key, { at: now(), value });
      return value;
    },
  };
}
