/**
 * Per-credential rate limiting for the API (`/api/v1/*`) and the MCP endpoint (`/api/mcp`): a token bucket
 * per API key or bearer token (or per public top-up code when no key is sent) holding up to `burst`
 * requests and refilling at `perMinute` per minute. Over the limit: 429 `rate_limited` with `Retry-After`
 * (whole seconds until one request is allowed again). `perMinute` 0 disables it.
 *
 * Where the buckets live is RATE_LIMIT_STORE (src/rate-limits): this process's memory (default), or shared
 * by every process in PostgreSQL or Redis. If a shared store cannot answer, the request is let through (a
 * limiter outage must not become an API outage), counted in `arbiter_rate_limit_store_errors_total` and
 * logged at most every 10 s. Requests without any credential are not counted here: they fail authentication
 * before touching the database, except the top-up by code, which is counted per code.
 */
import { createHash } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import type { Logger } from "pino";
import { ServiceError } from "../lib/errors";
import type { RateLimiter } from "../rate-limits/types";
import { presentedKey } from "./auth";
import type { AppEnv } from "./types";

export { createRateLimiter } from "../rate-limits/memory";
export type { RateDecision } from "../rate-limits/types";

export interface RateLimitOptions {
  perMinute: number;
  /** Bucket size: requests allowed at once after a quiet period (default: perMinute). */
  burst?: number;
  limiter: RateLimiter;
  logger?: Logger;
  onStoreError?: () => void;
}

/** The bucket a request counts against: a hash of its credential (secrets are not kept as keys). */
export function bucketKey(c: Context): string | null {
  const credential = presentedKey(c) ?? (c.req.path.endsWith("/credits/topup") ? c.req.query("account")?.trim() : undefined);
  return credential ? createHash("sha256").update(credential).digest("base64url") : null;
}

/** Takes `n` tokens from the request's bucket; throws 429 `rate_limited` when they are not there. */
export async function takeTokens(c: Context, opts: RateLimitOptions, n = 1): Promise<void> {
  const key = bucketKey(c);
  if (!key) return;
  let d;
  try {
    d = await opts.limiter.take(key, n);
  } catch (err) {
    opts.onStoreError?.();
    const now = Date.now();
    if (now - lastLogged > 10_000) {
      lastLogged = now;
      opts.logger?.warn({ err, store: opts.limiter.store }, "rate limiter store unavailable: requests are not limited until it answers");
    }
    return;
  }
  if (!d.ok) {
    const burst = Math.max(1, opts.burst || opts.perMinute);
    throw new ServiceError("rate_limited", "rate_limited", `too many requests for this credential: the limit is ${opts.perMinute} per minute with bursts of ${burst}; retry after ${d.retryAfterSeconds} s`, {
      headers: { "Retry-After": String(d.retryAfterSeconds) },
    });
  }
}
let lastLogged = 0;

export function rateLimit(opts: RateLimitOptions): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await takeTokens(c, opts);
    await next();
  };
}
