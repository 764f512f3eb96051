/**
 * One error vocabulary, mapped once per transport (src/lib/error-vocabulary.ts): a database outage during an
 * MCP tool call is a clear `database_unavailable` isError result, as it is a 503 over HTTP, not an unhandled
 * `internal` error.
 *
 * The outage is real: the runtime reaches PostgreSQL through a loopback TCP proxy that the test cuts (every
 * open connection destroyed, nothing listening), while the change feed connects directly so caches stay
 * coherent. Needs DATABASE_URL (PGlite has no connection to lose); the mapper's own test below runs on both.
 */
import net from "node:net";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { dropSchema, openDatabase } from "../../src/db/client";
import { toolError } from "../../src/mcp/errors";
import { startMcpRuntime, textOf, type McpTestRuntime } from "./helpers";

const PG = process.env.DATABASE_URL;

/** A TCP proxy in front of PostgreSQL that can be cut: the service sees its server vanish. */
async function startProxy(target: URL) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => {});
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    /** Stop listening and drop every connection: new connects are refused, open ones terminated. */
    async cut() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}

describe.skipIf(!PG)("a database outage during an MCP tool call (PostgreSQL through a proxy)", () => {
  const schema = `t_mcpdown_${Date.now().toString(36)}`;
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  let database: Awaited<ReturnType<typeof openDatabase>>;
  let t: McpTestRuntime;
  beforeAll(async () => {
    const target = new URL(PG!);
    proxy = await startProxy(target);
    const via = new URL(PG!);
    via.hostname = "127.0.0.1";
    via.port = String(proxy.port);
    database = await openDatabase({ url: via.toString(), schema, listenUrl: PG! });
    t = await startMcpRuntime({}, { database });
  });
  afterAll(async () => {
    await t?.close();
    await database?.close().catch(() => {});
    if (PG) await dropSchema(PG, schema);
  });

  it("answers database_unavailable as an isError result, like HTTP's 503, instead of an internal error", async () => {
    const a = await t.createAccount(3);
    const client = await t.connect({ "x-api-key": a.apiKey });
    // Before the outage the tool works (and the API key is now cached, so authentication needs no query).
    const before = (await client.callTool({ name: "check_connection", arguments: {} })) as CallToolResult;
    expect(before.isError).toBeFalsy();

    await proxy.cut();
    const r = (await client.callTool({ name: "check_connection", arguments: {} })) as CallToolResult;
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/^database_unavailable: /);
    expect(r.structuredContent).toMatchObject({ error: "database_unavailable" });
    // The same vocabulary over HTTP: 503 with Retry-After and the same `error` (a verification must write).
    const http = await t.http("POST", "/api/v1/intent", a.apiKey, { intent: "Trade only BTC perpetuals on Hyperliquid.", action: "buy 0.01 BTC perpetual on Hyperliquid" });
    expect(http.status).toBe(503);
    expect(http.headers.get("retry-after")).toBe("1");
    expect(await http.json()).toMatchObject({ error: "database_unavailable" });
  });
});

describe("the MCP error mapper", () => {
  const logged: { level: number; msg: string }[] = [];
  const logger = pino({ level: "info" }, { write: (line: string) => void logged.push(JSON.parse(line)) });

  it("maps a lost connection to database_unavailable (a warning), and only a bug to internal (an error)", () => {
    // The pg driver's own error when the server goes away, as isDatabaseUnavailable recognises it.
    const outage = toolError(Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }), logger, "check_connection");
    expect(outage.isError).toBe(true);
    expect(outage.structuredContent).toEqual({ error: "database_unavailable", message: "the database connection was lost; retry in a moment" });
    expect(logged.at(-1)).toMatchObject({ level: 40 });

    const bug = toolError(new TypeError("x is undefined"), logger, "check_connection");
    expect(bug.structuredContent).toMatchObject({ error: "internal" });
    expect(textOf(bug)).toMatch(/^internal: /);
    expect(logged.at(-1)).toMatchObject({ level: 50, msg: "unhandled error in MCP tool" });
  });
});
