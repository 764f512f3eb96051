import type { Logger } from "pino";
import type { z } from "zod";
import type { CallToolResult, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { Principal, Scope } from "../accounts/principal";
import type { Services } from "../services";

/**
 * The contract between the MCP transport and the capabilities that add tools (SPEC 4.12, 5).
 * A tool is plain data plus a handler; `src/mcp/server.ts` turns the registered definitions into an
 * McpServer per request, enforces scope and escrow availability, and maps thrown errors once.
 */

/** What a tool handler receives besides its validated arguments. */
export interface ToolContext {
  principal: Principal;
  services: Services;
  publicUrl: string;
  logger: Logger;
  /** True when this deployment has escrow wallets configured. */
  escrowConfigured: boolean;
  /**
   * The request's raw `params._meta`, untouched: `topup_credits` reads `meta["x402/payment"]` here.
   * A handler that needs to answer with `_meta` (e.g. `x402/payment-response`) sets it on its result.
   */
  meta: Record<string, unknown> | undefined;
  /** Aborted when the client cancels the call or the transport closes. */
  signal: AbortSignal;
}

/**
 * One MCP tool.
 * - `inputSchema` is a zod object defined at module level (converted for tools/list and used by the
 *   SDK to validate arguments before the handler runs; a failure there is an `isError` result).
 *   Give every field a `.describe()` an agent can act on.
 * - `scope`: the OAuth scope a token needs (SPEC 5). API keys hold every scope. A `wallet` tool called
 *   with a token lacking `wallet` gets an `isError` result asking the user to reconnect.
 * - `requiresEscrow`: listed and callable only when escrow wallets are configured on the deployment.
 * - `handler` returns a result (see `ok()` in results.ts) or throws; a ServiceError becomes an `isError`
 *   result in one place (errors.ts). Return an `isError` result yourself only when it must carry `_meta`.
 */
export interface McpToolDefinition<S extends z.ZodObject = z.ZodObject> {
  name: string;
  title?: string;
  description: string;
  inputSchema: S;
  annotations: ToolAnnotations;
  scope: Scope;
  requiresEscrow: boolean;
  handler: (args: z.output<S>, ctx: ToolContext) => Promise<CallToolResult>;
}

/** Keeps a definition's handler typed against its own schema while storing it with the others. */
export function defineTool<S extends z.ZodObject>(def: McpToolDefinition<S>): McpToolDefinition {
  return def as unknown as McpToolDefinition;
}
