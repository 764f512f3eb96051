/**
 * A loopback HTTP server that answers JSON bodies POSTed to it: the sandbox Starknet node and its STRK20
 * services (prover, paymaster) share it. Bodies over 8 MiB are refused (413) without being buffered; any other
 * method gets 405 with `banner`, which says what the server is.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

const MAX_BODY = 8 * 1024 * 1024;

export interface PostServer {
  url: string;
  close(): Promise<void>;
}

export async function servePostJson(
  answer: (body: string, headers: IncomingHttpHeaders) => unknown,
  o: { host?: string; port?: number; banner: string; path?: string },
): Promise<PostServer> {
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
      void Promise.resolve(answer(Buffer.concat(chunks).toString("utf8"), req.headers)).then((out) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(out)));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(o.port ?? 0, o.host ?? "127.0.0.1", () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}${o.path ?? "/"}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
