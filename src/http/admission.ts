import type { MiddlewareHandler } from "hono";
import { ServiceError } from "../lib/errors";

/**
 * Admission control: new work is refused with 503 `overloaded` and `Retry-After` (a) while the heap is
 * under pressure (src/observability/memory-pressure.ts) and (b) when the request bodies already admitted
 * and not yet answered would exceed `bodyBudgetBytes`. (b) bounds what a burst of large requests can
 * allocate before any garbage collection has had a chance to report pressure: each admitted body is
 * parsed, validated and copied several times while it is in flight.
 *
 * A refused request did nothing: no credit debited, nothing written, safe to retry as is.
 * Requests already admitted always run to completion.
 */
export interface AdmissionOptions {
  pressure: { readonly shedding: boolean };
  bodyBudgetBytes: number;
  /** What a chunked body (no content-length) reserves on a path: that path's body limit, all it may grow to. */
  chunkedBodyBytes: (path: string) => number;
  retryAfterSeconds?: number;
  onShed?: (reason: "memory" | "body_budget") => void;
}

export function admission(opts: AdmissionOptions): MiddlewareHandler {
  let inFlightBytes = 0;
  const retryAfter = String(opts.retryAfterSeconds ?? 1);
  const refuse = (reason: "memory" | "body_budget") => {
    opts.onShed?.(reason);
    return new ServiceError("unavailable", "overloaded", "the service is shedding load to stay within its memory; nothing was done, retry after the Retry-After delay", {
      headers: { "Retry-After": retryAfter },
    });
  };
  return async (c, next) => {
    if (opts.pressure.shedding) throw refuse("memory");
    // The body limit ran first, so a declared length is within it.
    const declared = Number(c.req.header("content-length") ?? 0);
    const bytes = c.req.header("transfer-encoding") !== undefined ? opts.chunkedBodyBytes(c.req.path) : Number.isFinite(declared) && declared > 0 ? declared : 0;
    if (bytes > 0 && inFlightBytes + bytes > opts.bodyBudgetBytes) throw refuse("body_budget");
    inFlightBytes += bytes;
    try {
      await next();
    } finally {
      inFlightBytes -= bytes;
    }
  };
}
