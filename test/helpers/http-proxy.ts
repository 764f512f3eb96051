/**
 * A small round-robin HTTP load balancer on loopback: each request goes to the next backend, with the
 * socket's peer appended to X-Forwarded-For (as nginx's $proxy_add_x_forwarded_for does). Connections to
 * the backends are kept alive. What N service processes look like behind a real load balancer.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface RoundRobinProxy {
  url: string;
  /** Requests sent to each backend so far, in backend order. */
  counts: number[];
  close(): Promise<void>;
}

export async function startRoundRobinProxy(backends: string[]): Promise<RoundRobinProxy> {
  const targets = backends.map((b) => new URL(b));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const counts = backends.map(() => 0);
  let next = 0;
  const server = http.createServer((req, res) => {
    const i = next++ % targets.length;
    counts[i]++;
    const t = targets[i];
    const peer = req.socket.remoteAddress ?? "";
    const prior = req.headers["x-forwarded-for"];
    const headers = { ...req.headers, host: t.host, "x-forwarded-for": prior ? `${String(prior)}, ${peer}` : peer };
    const up = http.request({ host: t.hostname, port: t.port, method: req.method, path: req.url, headers, agent }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on("error", () => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: "bad_gateway" }));
    });
    req.pipe(up);
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counts,
    close: () =>
      new Promise<void>((r) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
