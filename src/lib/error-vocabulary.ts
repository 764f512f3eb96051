/**
 * The one error vocabulary: what any thrown value means to a caller, whatever the transport. Each transport
 * (src/http/errors.ts, src/mcp/errors.ts) maps the result to its own shape once; neither decides on its own
 * what a database outage or a NUL byte is, so the two cannot drift apart again (the MCP mapper once answered
 * a database outage as an unhandled `internal` error while HTTP answered 503 database_unavailable).
 *
 * - a ServiceError is already in the vocabulary (its `kind` and SPEC `error` string);
 * - PostgreSQL 22021 (a NUL character reached a query) is the client's input: invalid_input;
 * - a lost database connection is not a bug: `database_unavailable`, retry in a second (SPEC 2.12 error body,
 *   HTTP 503 with Retry-After, an MCP isError result);
 * - anything else is a bug: `internal`, and the caller logs it with its stack.
 */
import { isDatabaseUnavailable } from "../db/client";
import { ServiceError } from "./errors";

/** How loudly a transport logs the failure: a ServiceError is an answer, an outage a warning, a bug an error. */
export type FailureLog = "none" | "warn" | "error";

export interface Failure {
  error: ServiceError;
  log: FailureLog;
}

export const DATABASE_UNAVAILABLE = "database_unavailable";
/** Seconds a client should wait before retrying after a database outage (the pool reconnects meanwhile). */
export const DATABASE_RETRY_AFTER_SECONDS = 1;

export function classifyFailure(err: unknown): Failure {
  if (err instanceof ServiceError) return { error: err, log: "none" };
  if ((err as { code?: unknown } | null)?.code === "22021") {
    return { error: new ServiceError("invalid_input", "invalid_input", "text must not contain NUL characters (U+0000)", { cause: err }), log: "none" };
  }
  if (isDatabaseUnavailable(err)) {
    return {
      error: new ServiceError("unavailable", DATABASE_UNAVAILABLE, "the database connection was lost; retry in a moment", {
        headers: { "Retry-After": String(DATABASE_RETRY_AFTER_SECONDS) },
        cause: err,
      }),
      log: "warn",
    };
  }
  return { error: new ServiceError("internal", "internal", "unexpected failure; nothing was charged twice, retry later", { cause: err }), log: "error" };
}
