import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { Logger } from "pino";
import { ServiceError, type ErrorKind } from "../lib/errors";
import { isDatabaseUnavailable } from "../db/client";

const STATUS: Record<ErrorKind, ContentfulStatusCode> = {
  invalid_input: 400,
  unauthenticated: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  rate_limited: 429,
  internal: 500,
  upstream_failed: 502,
  unavailable: 503,
};

export const statusOf = (kind: ErrorKind): ContentfulStatusCode => STATUS[kind];

/**
 * The one place a thrown error becomes an HTTP response. ServiceErrors carry their SPEC body; anything
 * else is a bug: logged with its stack, answered as 500 without internals. `errorCode` lets a route family
 * whose SPEC uses one code for every failure (e.g. `propose_failed`) rename the body's `error`.
 */
export function errorResponse(c: Context, err: unknown, logger: Logger, errorCode?: string): Response {
  if (err instanceof ServiceError) {
    const body = err.body();
    if (errorCode && err.kind !== "unauthenticated" && err.kind !== "not_found") {
      body.error = errorCode;
      body.message = err.detail ?? err.error;
    }
    if (err.headers) for (const [k, v] of Object.entries(err.headers)) c.header(k, v);
    return c.json(body, STATUS[err.kind]);
  }
  if ((err as { code?: unknown } | null)?.code === "22021") {
    // A NUL character in a query parameter or header that reached a query: the client's input, not a bug.
    return c.json({ error: errorCode ?? "invalid_input", message: "text must not contain NUL characters (U+0000)" }, 400);
  }
  if (isDatabaseUnavailable(err)) {
    // Not a bug: the database dropped the connection (restart, failover). The pool reconnects; retry soon.
    logger.warn({ err: (err as Error).message, path: c.req.path }, "database unavailable");
    c.header("Retry-After", "1");
    return c.json({ error: errorCode ?? "database_unavailable", message: "the database connection was lost; retry in a moment" }, 503);
  }
  logger.error({ err, path: c.req.path }, "unhandled error");
  return c.json({ error: errorCode ?? "internal", message: "unexpected failure; nothing was charged twice, retry later" }, 500);
}
