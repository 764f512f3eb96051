/**
 * The token buckets in this process's memory (RATE_LIMIT_STORE=memory, the default): exact for one process;
 * with N processes behind a load balancer a key gets up to N times the limit (use postgres or redis).
 */
import { bucketShape, decision, type BucketShape, type RateDecision, type RateLimiter } from "./types";

export interface MemoryBucketOptions extends BucketShape {
  /** Most buckets kept; past it, full buckets (idle keys) are dropped first. */
  maxKeys?: number;
  now?: () => number;
}

/** Synchronous buckets (the memory store, and the unit tests on a fake clock). */
export function createRateLimiter(opts: MemoryBucketOptions) {
  const { capacity, perMs } = bucketShape(opts);
  const maxKeys = opts.maxKeys ?? 100_000;
  const now = opts.now ?? Date.now;
  const buckets = new Map<string, { tokens: number; at: number }>();

  /** Bounded memory under many distinct keys: drop buckets that have refilled (same as absent), then the oldest. */
  function prune(t: number) {
    for (const [k, b] of buckets) if (b.tokens + (t - b.at) * perMs >= capacity) buckets.delete(k);
    for (const k of buckets.keys()) {
      if (buckets.size < maxKeys * 0.9) break;
      buckets.delete(k);
    }
  }

  return {
    take(key: string, n = 1): RateDecision {
      const t = now();
      let b = buckets.get(key);
      if (!b) {
        if (buckets.size >= maxKeys) prune(t);
        b = { tokens: capacity, at: t };
        buckets.set(key, b);
      }
      b.tokens = Math.min(capacity, b.tokens + (t - b.at) * perMs);
      b.at = t;
      const granted = b.tokens >= n;
      if (granted) b.tokens -= n;
      return decision(granted, b.tokens, n, perMs, capacity);
    },
    get size() {
      return buckets.size;
    },
  };
}

export function memoryRateLimiter(opts: MemoryBucketOptions): RateLimiter {
  const l = createRateLimiter(opts);
  return { store: "memory", take: async (key, n) => l.take(key, n), close: async () => {} };
}
