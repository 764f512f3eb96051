import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { Logger } from "pino";
import type { ErrorKind } from "../lib/errors";
import { classifyFailure } from "../lib/error-vocabulary";

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
 * The one place a thrown error becomes an HTTP response. What the error means comes from the shared
 * vocabulary (src/lib/error-vocabulary.ts): ServiceErrors carry their SPEC body, a database outage is 503
 * database_unavailable with Retry-After, anything else is a bug: logged with its stack, answered as 500
 * without internals. `errorCode` lets a route family whose SPEC uses one code for every failure (e.g.
 * `propose_failed`) rename the body's `error`.
 */
export function errorResponse(c: Context, err: unknown, logger: Logger, errorCode?: string): Response {
  const { error, log } = classifyFailure(err);
  if (log === "warn") logger.warn({ err: (err as Error).message, path: c.req.path }, error.error.replace(/_/g, " "));
  else if (log === "error") logger.error({ err, path: c.req.path }, "unhandled error");
  const body = error.body();
  if (errorCode && error.kind !== "unauthenticated" && error.kind !== "not_found") {
    body.error = errorCode;
    body.message = error.detail ?? error.error;
  }
  if (error.headers) for (const [k, v] of Object.entries(error.headers)) c.header(k, v);
  return c.json(body, STATUS[error.kind]);
}
