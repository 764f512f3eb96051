/**
 * USD prices for balances, simulation reports and the wallet limits. A price is a plain number at the
 * edge (DESIGN "Data and invariants"); `null` means "not known" and is never guessed: a limit that needs
 * an unknown price cannot be checked, which holds the proposal for the owner instead of executing it.
 */
import type { Clock } from "../lib/clock";

/** `native` for the chain's coin, else a lower-case token address. */
export type PriceKey = string;

export interface PriceSource {
  /** Shown as the source of prices in reports, e.g. "sandbox-fixed" or "chainlink". */
  readonly name: string;
  usd(key: PriceKey): Promise<number | null>;
}

/** A fixed table (the sandbox: prices that match the seeded pool, so swaps and limits agree). */
export function fixedPrices(name: string, table: Record<PriceKey, number>): PriceSource {
  const t = new Map(Object.entries(table).map(([k, v]) => [k.toLowerCase(), v]));
  return { name, usd: async (key) => t.get(key.toLowerCase()) ?? null };
}

/**
 * Caches each answer (including "unknown") for `ttlMs`, and shares one in-flight lookup between
 * concurrent callers, so a burst of proposals reads a feed once.
 */
export function cachedPrices(inner: PriceSource, ttlMs: number, clock: Clock): PriceSource {
  const cache = new Map<string, { at: number; value: Promise<number | null> }>();
  return {
    name: inner.name,
    usd(key) {
      const k = key.toLowerCase();
      const now = clock.now().getTime();
      const hit = cache.get(k);
      if (hit && now - hit.at < ttlMs) return hit.value;
      const value = inner.usd(k).catch(() => null);
      cache.set(k, { at: now, value });
      return value;
    },
  };
}
