/**
 * Slow and oversized clients against the real HTTP server (src/server.ts on a loopback port): clients that
 * trickle their headers or body are cut off after HEADERS_TIMEOUT_MS / REQUEST_TIMEOUT_MS (408) while
 * other clients are served meanwhile, and bodies over BODY_LIMIT_BYTES get 413 whether they announce
 * their length or stream it chunked.
 */
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen } from "../../src/server";
import { STRK20_PROOF_BODY_BYTES } from "../../src/http/body-limit";
import { startTestRuntime, type TestRuntime } from "../helpers/runtime";

let t: TestRuntime;
let server: { port: number; stop: () => Promise<void> };
let key: string;
const LIMIT = 4096;

beforeAll(async () => {
  t = await startTestRuntime({ env: { HEADERS_TIMEOUT_MS: "1000", REQUEST_TIMEOUT_MS: "2000", BODY_LIMIT_BYTES: String(LIMIT), SHUTDOWN_GRACE_MS: "500" } });
  server = await listen(t.runtime, { host: "127.0.0.1", port: 0 });
  key = (await t.createAccount(100)).apiKey;
});
afterAll(async () => {
  await server?.stop();
  await t?.close();
});

/** A raw connection that records what the server sends and when it closes. */
function rawClient() {
  const socket: Socket = connect(server.port, "127.0.0.1");
  let received = "";
  socket.on("data", (d) => (received += d.toString("latin1")));
  socket.on("error", () => {});
  const closed = new Promise<number>((resolve) => socket.on("close", () => resolve(Date.now())));
  return { socket, closed, received: () => received };
}

const get = (path: string) => fetch(`http://127.0.0.1:${server.port}${path}`, { headers: { "x-api-key": key } });

describe("slow clients cannot hold the server", () => {
  it("clients that trickle their headers are answered 408 and closed; others are served meanwhile", async () => {
    const clients = Array.from({ length: 40 }, () => rawClient());
    const started = Date.now();
    for (const c of clients) c.socket.write("POST /api/v1/intent HTTP/1.1\r\nHost: localhost\r\n");
    // One more header byte every 150 ms: never a complete header block.
    const drip = setInterval(() => {
      for (const c of clients) if (!c.socket.destroyed) c.socket.write("X");
    }, 150);
    try {
      const t0 = Date.now();
      const res = await get("/api/v1/credits");
      expect(res.status).toBe(200);
      expect(Date.now() - t0).toBeLessThan(1000);
      const closedAt = await Promise.all(clients.map((c) => c.closed));
      for (const c of clients) expect(c.received()).toMatch(/^HTTP\/1\.1 408/);
      // headersTimeout 1 s, checked every second: all gone within ~2 s (plus scheduling slack on a busy machine).
      expect(Math.max(...closedAt) - started).toBeLessThan(4500);
    } finally {
      clearInterval(drip);
    }
  });

  it("a client that trickles its body is answered 408 after REQUEST_TIMEOUT_MS and nothing is charged", async () => {
    const a = await t.createAccount(5);
    const c = rawClient();
    const started = Date.now();
    c.socket.write(`POST /api/v1/intent HTTP/1.1\r\nHost: localhost\r\nx-api-key: ${a.apiKey}\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"intent":"`);
    const drip = setInterval(() => !c.socket.destroyed && c.socket.write("x"), 150);
    try {
      const closedAt = await c.closed;
      expect(c.received()).toMatch(/^HTTP\/1\.1 408/);
      expect(closedAt - started).toBeGreaterThanOrEqual(1900);
      expect(closedAt - started).toBeLessThan(5000);
    } finally {
      clearInterval(drip);
    }
    expect(((await (await fetch(`http://127.0.0.1:${server.port}/api/v1/credits`, { headers: { "x-api-key": a.apiKey } })).json()) as { creditsRemaining: number }).creditsRemaining).toBe(5);
  });

  it("an idle connection that never sends anything is closed", async () => {
    const c = rawClient();
    const started = Date.now();
    const closedAt = await c.closed;
    expect(closedAt - started).toBeLessThan(7000);
  });
});

describe("bodies over the limit get 413", () => {
  it("announced by Content-Length: refused without reading the body", async () => {
    const c = rawClient();
    c.socket.write(`POST /api/v1/intent HTTP/1.1\r\nHost: localhost\r\nx-api-key: ${key}\r\ncontent-type: application/json\r\ncontent-length: ${10 * LIMIT}\r\n\r\n`);
    await new Promise((r) => setTimeout(r, 300));
    expect(c.received()).toMatch(/^HTTP\/1\.1 413/);
    c.socket.destroy();
  });

  it("streamed chunked without a length, on every body-taking route family", async () => {
    for (const route of ["/api/v1/intent", "/api/v1/trader/heartbeat", "/api/v1/wallets", "/api/mcp", "/admin/v1/accounts"]) {
      // MCP (and the propose route) take bodies up to the STRK20 proof limit: a proof just under 4 MB in base64.
      const big = JSON.stringify({ intent: "x".repeat(route === "/api/mcp" ? STRK20_PROOF_BODY_BYTES : LIMIT), action: "y" });
      const body = new ReadableStream({
        start(ctrl) {
          ctrl.enqueue(new TextEncoder().encode(big));
          ctrl.close();
        },
      });
      const res = await fetch(`http://127.0.0.1:${server.port}${route}`, {
        method: "POST",
        headers: { "x-api-key": key, "content-type": "application/json", accept: "application/json, text/event-stream", authorization: "Bearer test-admin-token-0123456789abcdef" },
        body,
        duplex: "half",
      } as RequestInit);
      expect({ route, status: res.status }).toEqual({ route, status: 413 });
      expect(((await res.json()) as { error: string }).error).toBe("payload_too_large");
    }
  });

  it("a body just under the limit is accepted", async () => {
    const res = await fetch(`http://127.0.0.1:${server.port}/api/v1/intent`, {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: JSON.stringify({ intent: "Trade only BTC.", action: "buy 0.01 BTC on Hyperliquid", note: "n".repeat(LIMIT - 200) }),
    });
    expect(res.status).toBeLessThan(500);
    expect(res.status).not.toBe(413);
  });
});
