/** A loopback JSON-RPC 2.0 server for the sandbox's STRK20 services (single requests; POST only). */
import type { IncomingHttpHeaders } from "node:http";
import { RpcError } from "../errors";
import { servePostJson, type PostServer } from "../post-server";

export type RpcHandler = (params: unknown, headers: IncomingHttpHeaders) => unknown;

export type LocalRpcServer = PostServer;

export async function serveJsonRpc(methods: Record<string, RpcHandler>, o: { host?: string; port?: number; banner: string }): Promise<LocalRpcServer> {
  return servePostJson(async (body, headers): Promise<object> => {
    let r: { jsonrpc?: unknown; method?: unknown; params?: unknown; id?: unknown };
    try {
      r = JSON.parse(body) as typeof r;
    } catch {
      return { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } };
    }
    const id = r?.id ?? null;
    if (!r || r.jsonrpc !== "2.0" || typeof r.method !== "string") return { jsonrpc: "2.0", id, error: { code: -32600, message: "Invalid Request" } };
    const h = methods[r.method];
    if (!h) return { jsonrpc: "2.0", id, error: { code: -32601, message: "Method not found" } };
    try {
      return { jsonrpc: "2.0", id, result: await h(r.params, headers) };
    } catch (e) {
      if (e instanceof RpcError) return { jsonrpc: "2.0", id, error: { code: e.code, message: e.message, ...(e.data !== undefined ? { data: e.data } : {}) } };
      return { jsonrpc: "2.0", id, error: { code: -32603, message: "Internal error" } };
    }
  }, o);
}
