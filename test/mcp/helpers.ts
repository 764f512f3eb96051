import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { RuntimeOverrides } from "../../src/deps";
import { listen } from "../../src/server";
import { freePort } from "../helpers/process";
import { startTestRuntime } from "../helpers/runtime";

/**
 * A real runtime served over real HTTP on a loopback port, with PUBLIC_URL set to that port so the
 * OAuth discovery documents it advertises can be fetched by the SDK's client helpers.
 */
export async function startMcpRuntime(env: Record<string, string> = {}, overrides?: RuntimeOverrides) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const t = await startTestRuntime({ env: { PUBLIC_URL: url, SHUTDOWN_GRACE_MS: "1000", ...env }, overrides });
  const server = await listen(t.runtime, { host: "127.0.0.1", port });
  const clients: Client[] = [];

  /** The official SDK client over Streamable HTTP, sending `headers` on every request. */
  async function connect(headers: Record<string, string>): Promise<Client> {
    const client = new Client({ name: "arbiter-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/api/mcp`), { requestInit: { headers } }));
    clients.push(client);
    return client;
  }

  /** HTTP API call over the same port (the transports must agree on the same data). */
  const http = (method: string, route: string, key: string, body?: unknown) =>
    fetch(`${url}${route}`, { method, headers: { "x-api-key": key, ...(body ? { "content-type": "application/json" } : {}) }, body: body ? JSON.stringify(body) : undefined });

  return {
    ...t,
    url,
    mcpUrl: `${url}/api/mcp`,
    connect,
    http,
    async close() {
      for (const c of clients) await c.close().catch(() => {});
      await server.stop();
      await t.close();
    },
  };
}
export type McpTestRuntime = Awaited<ReturnType<typeof startMcpRuntime>>;

export const textOf = (r: unknown): string => ((r as CallToolResult).content[0] as { text: string }).text;

/** The fenced ```json block that ends a tool's text. */
export function jsonBlockOf(r: unknown): Record<string, unknown> {
  const m = textOf(r).match(/```json\n([\s\S]*)\n```$/);
  if (!m) throw new Error(`no JSON block in: ${textOf(r)}`);
  return JSON.parse(m[1]);
}

export async function balanceOf(t: McpTestRuntime, key: string): Promise<number> {
  return ((await (await t.http("GET", "/api/v1/credits", key)).json()) as { creditsRemaining: number }).creditsRemaining;
}
