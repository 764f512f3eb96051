/**
 * Serves the sandbox node over HTTP JSON-RPC 2.0 on loopback (single requests and batches). Requests
 * are handled one at a time, in arrival order, as a sequencer orders transactions.
 */
import { RpcError } from "./errors";
import { SandboxNode, type NodeOptions } from "./node";
import { dispatch } from "./rpc";
import { servePostJson } from "./post-server";


export interface StarknetSandbox {
  url: string;
  node: SandboxNode;
  close(): Promise<void>;
}

export interface SandboxServerOptions extends NodeOptions {
  host?: string;
  port?: number;
  /** Log a line per failed call (never params: they may hold signatures). */
  log?: (msg: string) => void;
}

function answer(node: SandboxNode, req: unknown): Record<string, unknown> {
  const r = req as Record<string, unknown> | null;
  const id = r && typeof r === "object" && "id" in r ? r.id : null;
  if (!r || typeof r !== "object" || r.jsonrpc !== "2.0" || typeof r.method !== "string") {
    return { jsonrpc: "2.0", id, error: { code: -32600, message: "Invalid Request" } };
  }
  try {
    return { jsonrpc: "2.0", id, result: dispatch(node, r.method, r.params) };
  } catch (e) {
    if (e instanceof RpcError) return { jsonrpc: "2.0", id, error: { code: e.code, message: e.message, ...(e.data !== undefined ? { data: e.data } : {}) } };
    return { jsonrpc: "2.0", id, error: { code: -32603, message: "Internal error", data: (e as Error).message } };
  }
}

export function handleBody(node: SandboxNode, body: string): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } };
  }
  if (Array.isArray(parsed)) {
    if (parsed.length === 0) return { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request" } };
    return parsed.map((r) => answer(node, r));
  }
  return answer(node, parsed);
}

export async function startStarknetSandbox(opts: SandboxServerOptions = {}): Promise<StarknetSandbox> {
  const node = SandboxNode.open(opts);
  const server = await servePostJson(
    (body) => {
      const out = handleBody(node, body);
      const failed = (Array.isArray(out) ? out : [out]).filter((x) => (x as { error?: unknown }).error);
      for (const f of failed) opts.log?.(`starknet sandbox: ${JSON.stringify((f as { error: unknown }).error).slice(0, 300)}`);
      return out;
    },
    { host: opts.host, port: opts.port, path: "/rpc", banner: "JSON-RPC over POST only (Arbiter's sandbox Starknet node: a model, not a Cairo VM)" },
  );
  return {
    url: server.url,
    node,
    close: async () => {
      await server.close();
      node.close();
    },
  };
}
