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
  const d = await takeUpTo(c, opts, n, false);
  if (d.granted < n) throw rateLimited(opts, d.retryAfterSeconds);
}

/** A request's share of its credential's budget: `granted` of the `n` asked for (n when not limited). */
export interface RateShare {
  granted: number;
  /** When `granted < n`: whole seconds until one more token is back. */
  retryAfterSeconds: number;
}

/**
 * Takes up to `n` tokens (`partial`) or exactly `n` (all or nothing). A partial take asks for all `n`, and
 * when they are not there, for the whole tokens the bucket said it still holds (a concurrent take may have
 * spent them meanwhile: then none is granted). A credential-less request or a store outage is granted all.
 */
export async function takeUpTo(c: Context, opts: RateLimitOptions, n: number, partial = true): Promise<RateShare> {
  const key = bucketKey(c);
  if (!key || n <= 0) return { granted: n, retryAfterSeconds: 0 };
  try {
    const d = await opts.limiter.take(key, n);
    if (d.ok) return { granted: n, retryAfterSeconds: 0 };
    if (!partial || d.available < 1) return { granted: 0, retryAfterSeconds: d.retryAfterSeconds };
    const some = await opts.limiter.take(key, d.available);
    return { granted: some.ok ? d.available : 0, retryAfterSeconds: d.retryAfterSeconds };
  } catch (err) {
    opts.onStoreError?.();
    const now = Date.now();
    if (now - lastLogged > 10_000) {
      lastLogged = now;
      opts.logger?.warn({ err, store: opts.limiter.store }, "rate limiter store unavailable: requests are not limited until it answers");
    }
    return { granted: n, retryAfterSeconds: 0 };
  }
}

/** The message every refusal carries (HTTP 429 body, MCP JSON-RPC error). */
export function rateLimitedMessage(opts: Pick<RateLimitOptions, "perMinute" | "burst">, retryAfterSeconds: number): string {
  const burst = Math.max(1, opts.burst || opts.perMinute);
  return `too many requests for this credential: the limit is ${opts.perMinute} per minute with bursts of ${burst}; retry after ${retryAfterSeconds} s`;
}

function rateLimited(opts: RateLimitOptions, retryAfterSeconds: number) {
  return new ServiceError("rate_limited", "rate_limited", rateLimitedMessage(opts, retryAfterSeconds), {
    headers: { "Retry-After": String(retryAfterSeconds) },
  });
}
let lastLogged = 0;

export function rateLimit(opts: RateLimitOptions): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await takeTokens(c, opts);
    await next();
  };
}

/**
 * For POST /api/mcp: nothing is taken here; the route counts the JSON-RPC calls in the body and takes one
 * token per call through `c.var.rateShare` (a batch of 100 calls costs 100, issue 18). Absent = not limited.
 */
export function deferredRateLimit(opts: RateLimitOptions): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set("rateShare", async (n: number) => {
      const share = await takeUpTo(c, opts, n);
      return { ...share, message: share.granted < n ? rateLimitedMessage(opts, share.retryAfterSeconds) : "" };
    });
    await next();
  };
}
