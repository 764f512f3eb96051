import type { Logger } from "pino";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { classifyFailure } from "../lib/error-vocabulary";
import type { Scope } from "../accounts/principal";
import { failure } from "./results";

/**
 * The one place a thrown error becomes an MCP tool result (the counterpart of src/http/errors.ts, from the
 * same vocabulary: src/lib/error-vocabulary.ts). SPEC 4.12/7: a failure is a result with `isError: true`,
 * never a protocol error. The text starts with the SPEC wire string (`intent is required`,
 * `out_of_credits: ...`, `verification_failed: ...`, `not found: ...`, `database_unavailable: ...`) and
 * structuredContent carries the same body HTTP would send (e.g. `topup` terms).
 */
export function toolError(err: unknown, logger: Logger, tool: string): CallToolResult {
  const { error, log } = classifyFailure(err);
  if (log === "warn") logger.warn({ err: (err as Error).message, tool }, error.error.replace(/_/g, " "));
  else if (log === "error") logger.error({ err, tool }, "unhandled error in MCP tool");
  const text = error.detail ? `${error.error}: ${error.detail}` : error.error;
  // Extra fields (top-up terms) are worth showing to a person too, not only to a client reading JSON.
  return failure(text, error.body(), { json: error.extra !== undefined });
}

/**
 * SPEC 5: a tool called with an OAuth token whose scope does not cover it. In practice the `wallet` scope
 * (every token carries `mcp`); the user must reconnect and approve the access in their MCP host.
 */
export function scopeMissing(tool: string, scope: Scope): CallToolResult {
  const what = scope === "wallet" ? "wallet access" : "access";
  const message =
    `${what} not granted: ${tool} needs the "${scope}" scope, which this connection's OAuth token does not have. ` +
    `Reconnect Arbiter in your MCP client (sign in again) and approve ${what}, or connect with an API key.`;
  return failure(message, { error: "insufficient_scope", message, requiredScope: scope });
}
