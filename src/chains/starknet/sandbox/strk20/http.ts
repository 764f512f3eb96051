/** A loopback JSON-RPC 2.0 server for the sandbox's STRK20 services (single requests; POST only). */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { RpcError } from "../errors";

const MAX_BODY = 8 * 1024 * 1024;

export type RpcHandler = (params: unknown, headers: IncomingHttpHeaders) => unknown;

export interface LocalRpcServer {
  url: string;
  close(): Promise<void>;
}

export async function serveJsonRpc(methods: Record<string, RpcHandler>, o: { host?: string; port?: number; banner: string }): Promise<LocalRpcServer> {
  const server: Server = createServer((req, res) => {
    if (req.method !== "POST") {
      res.writeHead(405, { allow: "POST", "content-type": "text/plain" }).end(`${o.banner}\n`);
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
      let id: unknown = null;
      const reply = async (): Promise<object> => {
        let r: { jsonrpc?: unknown; method?: unknown; params?: unknown; id?: unknown };
        try {
          r = JSON.parse(Buffer.concat(chunks).toString("utf8")) as typeof r;
        } catch {
          return { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } };
        }
        id = r?.id ?? null;
        if (!r || r.jsonrpc !== "2.0" || typeof r.method !== "string") return { jsonrpc: "2.0", id, error: { code: -32600, message: "Invalid Request" } };
        const h = methods[r.method];
        if (!h) return { jsonrpc: "2.0", id, error: { code: -32601, message: "Method not found" } };
        try {
          return { jsonrpc: "2.0", id, result: await h(r.params, req.headers) };
        } catch (e) {
          if (e instanceof RpcError) return { jsonrpc: "2.0", id, error: { code: e.code, message: e.message, ...(e.data !== undefined ? { data: e.data } : {}) } };
          return { jsonrpc: "2.0", id, error: { code: -32603, message: "Internal error" } };
        }
      };
      void reply().then((out) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(out)));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(o.port ?? 0, o.host ?? "127.0.0.1", () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
