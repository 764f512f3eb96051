/**
 * Per-credential rate limiting for the API (`/api/v1/*`) and the MCP endpoint (`/api/mcp`): a token bucket
 * per API key or bearer token (or per public top-up code when no key is sent) holding up to `burst`
 * requests and refilling at `perMinute` per minute. Over the limit: 429 `rate_limited` with `Retry-After`
 * (whole seconds until one request is allowed again). `perMinute` 0 disables it.
 *
 * The buckets live in this process's memory: with several processes behind a load balancer each enforces
 * its own limit, so a key gets up to N times the limit across N processes (docs/security.md). Requests
 * without any credential are not counted here: they fail authentication before touching the database,
 * except the top-up by code, which is counted per code.
 */
import { createHash } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { ServiceError } from "../lib/errors";
import { presentedKey } from "./auth";
import type { AppEnv } from "./types";

export interface RateLimitOptions {
  perMinute: number;
  /** Bucket size: requests allowed at once after a quiet period (default: perMinute). */
  burst?: number;
  /** Most buckets kept; past it, full buckets (idle keys) are dropped first. */
  maxKeys?: number;
  now?: () => number;
}

export type RateDecision = { ok: true; remaining: number } | { ok: false; retryAfterSeconds: number };

export function createRateLimiter(opts: RateLimitOptions) {
  const capacity = Math.max(1, opts.burst || opts.perMinute);
  const perMs = opts.perMinute / 60_000;
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
    take(key: string): RateDecision {
      const t = now();
      let b = buckets.get(key);
      if (!b) {
        if (buckets.size >= maxKeys) prune(t);
        b = { tokens: capacity, at: t };
        buckets.set(key, b);
      }
      b.tokens = Math.min(capacity, b.tokens + (t - b.at) * perMs);
      b.at = t;
      if (b.tokens >= 1) {
        b.tokens -= 1;
        return { ok: true, remaining: Math.floor(b.tokens) };
      }
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - b.tokens) / perMs / 1000)) };
    },
    get size() {
      return buckets.size;
    },
  };
}

/** The bucket a request counts against: a hash of its credential (secrets are not kept in memory as keys). */
function bucketKey(c: Parameters<MiddlewareHandler<AppEnv>>[0]): string | null {
  const credential = presentedKey(c) ?? (c.req.path.endsWith("/credits/topup") ? c.req.query("account")?.trim() : undefined);
  return credential ? createHash("sha256").update(credential).digest("base64url") : null;
}

export function rateLimit(opts: RateLimitOptions): MiddlewareHandler<AppEnv> {
  const limiter = createRateLimiter(opts);
  const burst = Math.max(1, opts.burst || opts.perMinute);
  return async (c, next) => {
    const key = bucketKey(c);
    if (key) {
      const d = limiter.take(key);
      if (!d.ok) {
        throw new ServiceError("rate_limited", "rate_limited", `too many requests for this credential: the limit is ${opts.perMinute} per minute with bursts of ${burst}; retry after ${d.retryAfterSeconds} s`, {
          headers: { "Retry-After": String(d.retryAfterSeconds) },
        });
      }
    }
    await next();
  };
}
