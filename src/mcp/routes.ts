import type { Hono } from "hono";
import type { AppEnv, RouteDeps } from "../http/types";
import type { McpToolRegistry } from "./registry";
import { authenticateMcp, MCP_PATH, protectedResourceMetadata, RESOURCE_METADATA_PATH, unauthorized } from "./auth";
import { handleMcpRequest } from "./server";
import { allRefused, batchTooLarge, MCP_MAX_BATCH, messageCount, withRefusedTail } from "./batch";
import { holdToLimit } from "../http/body-limit";
import { mcpProofChars } from "./proof-body";

export interface McpMountOptions {
  tools: McpToolRegistry;
  escrowConfigured: () => boolean;
}

/** JSON-RPC shaped 405, like the SDK's own: stateless servers offer no GET stream and no session to DELETE. */
const methodNotAllowed = () =>
  new Response(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed: this MCP server is stateless; use POST." }, id: null }), {
    status: 405,
    headers: { "content-type": "application/json", allow: "POST" },
  });

/** Mounts POST /api/mcp and the OAuth protected-resource metadata (a `createApp` mount). */
export function mcpMount(opts: McpMountOptions) {
  return (app: Hono<AppEnv>, deps: RouteDeps) => {
    const mcp = { services: deps.services, logger: deps.logger, publicUrl: deps.publicUrl, tools: opts.tools, escrowConfigured: opts.escrowConfigured };
    const metadata = protectedResourceMetadata(deps.publicUrl);

    // The bare path (named by our WWW-Authenticate) and the path-suffixed one clients try first (RFC 9728 3.1).
    app.get(RESOURCE_METADATA_PATH, (c) => c.json(metadata));
    app.get(`${RESOURCE_METADATA_PATH}${MCP_PATH}`, (c) => c.json(metadata));

    app.post(MCP_PATH, async (c) => {
      // The body is read here, straight from the socket, and handed over parsed: the SDK reading it from
      // c.req.raw made @hono/node-server build a full web Request (ReadableStream, AbortController) for every
      // call (docs/performance.md). Text that is not JSON goes to the SDK as a request that still carries it,
      // so its answer (406/415 first, then -32700) is exactly the SDK's own.
      const text = await c.req.text();
      let parsed: unknown;
      let isJson = true;
      try {
        parsed = JSON.parse(text);
      } catch {
        isJson = false;
      }
      // Read up to the STRK20 proof limit; all but a proof is held to the ordinary one (413).
      holdToLimit(text, isJson ? mcpProofChars(parsed) : 0, deps.bodyLimitBytes);
      // One token per JSON-RPC message, taken before authentication as for every other request (a batch
      // over the cap costs one: it is refused whole below). src/mcp/batch.ts.
      const count = isJson ? messageCount(parsed) : 1;
      const cost = count > MCP_MAX_BATCH ? 1 : count;
      const share = (await c.var.rateShare?.(cost)) ?? { granted: cost, retryAfterSeconds: 0, message: "" };
      if (share.granted === 0) return allRefused(parsed, share.message, share.retryAfterSeconds);

      const auth = await authenticateMcp(c, deps.services.accounts, deps.publicUrl);
      if (!("principal" in auth)) return unauthorized(c, deps.publicUrl, auth.presented);
      c.set("principal", auth.principal);
      if (!isJson) return handleMcpRequest(new Request(c.req.url, { method: "POST", headers: c.req.raw.headers, body: text }), auth.principal, mcp);
      if (count > MCP_MAX_BATCH) return batchTooLarge(count);
      if (share.granted >= count || !Array.isArray(parsed)) return handleMcpRequest(c.req.raw, auth.principal, mcp, parsed);
      const served = await handleMcpRequest(c.req.raw, auth.principal, mcp, parsed.slice(0, share.granted));
      return withRefusedTail(served, parsed.slice(share.granted), share.message, share.retryAfterSeconds);
    });
    app.all(MCP_PATH, () => methodNotAllowed());
  };
}
