import type { Logger } from "pino";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Principal } from "../accounts/principal";
import type { Services } from "../services";
import type { McpToolRegistry } from "./registry";
import type { McpToolDefinition, ToolContext } from "./types";
import { scopeMissing, toolError } from "./errors";
import { ServiceError } from "../lib/errors";
import { describeUnstorable, findUnstorable } from "../lib/storable-json";

/**
 * Stateless Streamable HTTP (SPEC 4.12): every POST gets a fresh McpServer and transport (the SDK refuses
 * to reuse a transport across requests, and nothing may live in process memory between requests), no
 * session id, JSON answers. What can be shared is: one JSON-schema validator (building Ajv per request
 * was the dominant set-up cost) and the module-level zod schemas of the tool definitions.
 */
const validator = new AjvJsonSchemaValidator();

const SERVER_INFO = { name: "arbiter", title: "Arbiter", version: "1.0.0" };
const INSTRUCTIONS =
  "Arbiter judges an agent's proposed action against its owner's rules. Call verify_intent before any consequential action and execute only on verdict ALLOW; any other verdict or any error means do not execute. check_connection shows the account, credits and available tools.";

export interface McpDeps {
  services: Services;
  logger: Logger;
  publicUrl: string;
  tools: McpToolRegistry;
  /** Read per request: whether escrow wallets are configured on this deployment. */
  escrowConfigured: () => boolean;
}

/**
 * Scope check, the storable-text rule HTTP bodies obey (src/lib/storable-json.ts: a NUL character or a lone
 * surrogate in any argument, at any depth, is `invalid_input` naming the argument, never a failed query),
 * then the handler; anything thrown becomes an isError result in errors.ts.
 */
async function runTool(def: McpToolDefinition, args: unknown, ctx: ToolContext): Promise<CallToolResult> {
  if (!ctx.principal.scopes.has(def.scope)) return scopeMissing(def.name, def.scope);
  const unstorable = findUnstorable(args);
  if (unstorable) return toolError(new ServiceError("invalid_input", "invalid_input", describeUnstorable(unstorable, "arguments")), ctx.logger, def.name);
  try {
    return await def.handler(args as never, ctx);
  } catch (err) {
    return toolError(err, ctx.logger, def.name);
  }
}

export function buildMcpServer(principal: Principal, deps: McpDeps): McpServer {
  const escrowConfigured = deps.escrowConfigured();
  const server = new McpServer(SERVER_INFO, { capabilities: { tools: {} }, jsonSchemaValidator: validator, instructions: INSTRUCTIONS });
  for (const def of deps.tools.available(escrowConfigured)) {
    server.registerTool(def.name, { title: def.title, description: def.description, inputSchema: def.inputSchema, annotations: def.annotations }, (args, extra) =>
      runTool(def, args, {
        principal,
        services: deps.services,
        publicUrl: deps.publicUrl,
        logger: deps.logger,
        escrowConfigured,
        meta: extra._meta as Record<string, unknown> | undefined,
        signal: extra.signal,
      }),
    );
  }
  return server;
}

/** Answers one authenticated POST /api/mcp; `parsedBody` is the JSON body when the caller already read it. */
export async function handleMcpRequest(req: Request, principal: Principal, deps: McpDeps, parsedBody?: unknown): Promise<Response> {
  const server = buildMcpServer(principal, deps);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  // No server.close() afterwards: in JSON mode the Response is complete when this resolves and neither
  // object holds a timer or socket (keep-alives are SSE-only), so both are simply garbage. Closing would
  // abort the just-finished handler's AbortController (its bookkeeping is cleared a microtask later) and
  // build a "Connection closed" McpError: two stack captures per request, ~60 us measured under load.
  return transport.handleRequest(req, parsedBody === undefined ? undefined : { parsedBody });
}
