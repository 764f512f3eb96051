import type { Logger } from "pino";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ServiceError } from "../lib/errors";
import type { Scope } from "../accounts/principal";
import { failure } from "./results";

/**
 * The one place a thrown error becomes an MCP tool result (the counterpart of src/http/errors.ts).
 * SPEC 4.12/7: a failure is a result with `isError: true`, never a protocol error. The text starts with
 * the SPEC wire string (`intent is required`, `out_of_credits: ...`, `verification_failed: ...`,
 * `not found: ...`) and structuredContent carries the same body HTTP would send (e.g. `topup` terms).
 */
export function toolError(err: unknown, logger: Logger, tool: string): CallToolResult {
  if (err instanceof ServiceError) {
    const body = err.body();
    const text = err.detail ? `${err.error}: ${err.detail}` : err.error;
    // Extra fields (top-up terms) are worth showing to a person too, not only to a client reading JSON.
    return failure(text, body, { json: err.extra !== undefined });
  }
  logger.error({ err, tool }, "unhandled error in MCP tool");
  return failure("internal: unexpected failure; nothing was charged twice, retry later", { error: "internal", message: "unexpected failure; retry later" });
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
