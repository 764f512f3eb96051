/**
 * A token bucket per key: up to `capacity` tokens, refilled continuously at `perMinute` per minute. A take of
 * `n` tokens is all or nothing (an MCP batch counts one token per JSON-RPC call, taken at once); `n` should
 * not exceed the capacity, which could never grant it.
 */
export type RateDecision = { ok: true; remaining: number } | { ok: false; retryAfterSeconds: number; available: number };

export interface RateLimiter {
  /** `memory` answers from this process; `postgres` and `redis` are shared by every process using them. */
  readonly store: "memory" | "postgres" | "redis";
  take(key: string, n?: number): Promise<RateDecision>;
  close(): Promise<void>;
}

export interface BucketShape {
  perMinute: number;
  /** Bucket size: tokens available at once after a quiet period (default: perMinute). */
  burst?: number;
}

export function bucketShape(o: BucketShape) {
  const capacity = Math.max(1, o.burst || o.perMinute);
  return { capacity, perMs: o.perMinute / 60_000 };
}

/** The answer for `tokens` left after a take of `n` that was (or was not) granted. */
export function decision(granted: boolean, tokens: number, n: number, perMs: number, capacity: number): RateDecision {
  if (granted) return { ok: true, remaining: Math.floor(tokens) };
  const missing = Math.min(n, capacity) - tokens;
  // `available`: whole tokens still in the bucket (untouched by the refused take), so a caller that can use
  // fewer than `n` (an MCP batch serving its first calls) can ask for exactly those.
  return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(missing / perMs / 1000)), available: Math.max(0, Math.floor(tokens)) };
}
