/**
 * Serves the sandbox node over HTTP JSON-RPC 2.0 on loopback (single requests and batches). Requests
 * are handled one at a time, in arrival order, as a sequencer orders transactions.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { RpcError } from "./errors";
import { SandboxNode, type NodeOptions } from "./node";
import { dispatch } from "./rpc";

const MAX_BODY = 8 * 1024 * 1024;

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
  const server: Server = createServer((req, res) => {
    if (req.method !== "POST") {
      res.writeHead(405, { allow: "POST", "content-type": "text/plain" }).end("JSON-RPC over POST only (Arbiter's sandbox Starknet node: a model, not a Cairo VM)\n");
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        res.writeHead(413).end();
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on("end", () => {
      if (res.headersSent) return;
      const out = handleBody(node, Buffer.concat(chunks).toString("utf8"));
      const failed = (Array.isArray(out) ? out : [out]).filter((x) => (x as { error?: unknown }).error);
      for (const f of failed) opts.log?.(`starknet sandbox: ${JSON.stringify((f as { error: unknown }).error).slice(0, 300)}`);
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(out));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, opts.host ?? "127.0.0.1", () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}/rpc`,
    node,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
