/**
 * The change feed fails closed (src/db/change-feed.ts). Two runtimes on one PostgreSQL schema stand for two
 * processes; B's LISTEN connection goes through a TCP proxy on loopback that the test freezes: no reset, no
 * FIN, the connection just goes silent (what a stalled NAT entry does, and what TCP alone would not notice
 * for hours). Before the fix B kept accepting a revoked key from its cache for as long as the stall lasted;
 * now B's own heartbeat stops coming back, B drops to read-through within the bound, says so in /healthz,
 * the metric and the log, and refuses the revoked key. Thawed, B listens on a new connection and caches again.
 * Needs PostgreSQL (PGlite is one process, its feed cannot stall): skipped without DATABASE_URL.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config";
import { createRuntime, type Runtime } from "../../src/deps";
import { dropSchema, openDatabase, type DatabaseHandle } from "../../src/db/client";
import { ADMIN_TOKEN } from "../helpers/runtime";
import { startFreezableProxy, viaProxy, type FreezableProxy } from "../helpers/tcp-proxy";

const URL = process.env.DATABASE_URL;
const HEARTBEAT_MS = 200;
/** Stale after 3 missed beats, found at the next beat; plus a request's time. */
const BOUND_MS = 5 * HEARTBEAT_MS + 500;

describe.skipIf(!URL)("a stalled change feed", () => {
  const schema = `t_stall_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
  const dirs: string[] = [];
  const handles: DatabaseHandle[] = [];
  const runtimes: Runtime[] = [];
  let proxy: FreezableProxy;
  let a: Runtime;
  let b: Runtime;
  let logB = "";

  async function runtimeOn(database: DatabaseHandle, logger = pino({ level: "silent" })) {
    const dataDir = mkdtempSync(path.join(tmpdir(), "arbiter-stall-"));
    dirs.push(dataDir);
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent", ADMIN_TOKEN, SANDBOX: "false", RATE_LIMIT_PER_MINUTE: "0" });
    const rt = await createRuntime(config, { database, lockDataDir: false, logger });
    runtimes.push(rt);
    return rt;
  }

  beforeAll(async () => {
    const u = new globalThis.URL(URL!);
    proxy = await startFreezableProxy({ host: u.hostname, port: Number(u.port || 5432) });
    const dbA = await openDatabase({ url: URL, schema, feed: { heartbeatMs: HEARTBEAT_MS } });
    handles.push(dbA);
    a = await runtimeOn(dbA);
    const dbB = await openDatabase({ url: URL, schema, listenUrl: viaProxy(URL!, proxy), feed: { heartbeatMs: HEARTBEAT_MS, logger: pino({ level: "info" }, new Writable({ write: (c, _e, cb) => ((logB += c), cb()) })) } });
    handles.push(dbB);
    b = await runtimeOn(dbB);
  });
  afterAll(async () => {
    for (const r of runtimes) await r.close();
    for (const h of handles) await h.close();
    await proxy?.close();
    if (URL) await dropSchema(URL, schema);
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  const call = async (rt: Runtime, method: string, route: string, init: { key?: string; admin?: boolean; body?: unknown } = {}) => {
    const res = await rt.app.request(route, {
      method,
      headers: { ...(init.body !== undefined ? { "content-type": "application/json" } : {}), ...(init.key ? { "x-api-key": init.key } : {}), ...(init.admin ? { authorization: `Bearer ${ADMIN_TOKEN}` } : {}) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    return { status: res.status, body: (res.status === 204 ? {} : await res.json()) as Record<string, unknown> };
  };
  const until = async (what: string, f: () => Promise<boolean> | boolean, ms: number) => {
    const start = Date.now();
    while (!(await f())) {
      if (Date.now() - start > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return Date.now() - start;
  };
  // Runtimes in one test process share in-process announcements (src/db/change-feed.ts): revoking through A
  // would reach B's cache without the database. The revocation comes from SQL instead, as another process's
  // (or an operator's) would: only the notification can tell B.
  const revokeElsewhere = (keyId: string) => handles[0].db.updateTable("api_keys").set({ revoked_at: new Date() }).where("id", "=", keyId).execute();
  const gauge = async (rt: Runtime) => /^arbiter_change_feed_live (\d)$/m.exec(await rt.metrics.registry.metrics())![1];

  it("refuses a revoked key within the bound, reports read-through, and caches again once thawed", async () => {
    await until("both feeds live", () => a.database.changes.live && b.database.changes.live, 10_000);
    expect((await call(b, "GET", "/healthz")).body).toEqual({ ok: true, caches: "live" });
    const acct = (await call(a, "POST", "/admin/v1/accounts", { admin: true, body: { name: "stall", credits: 5 } })).body;
    const created = (await call(a, "POST", `/admin/v1/accounts/${acct.accountId as string}/keys`, { admin: true })).body;
    const key = created.apiKey as string;
    expect((await call(b, "GET", "/api/v1/credits", { key })).status).toBe(200); // cached in B
    // Live feed: another process's revocation reaches B by notification.
    const first = (await call(a, "POST", `/admin/v1/accounts/${acct.accountId as string}/keys`, { admin: true })).body;
    expect((await call(b, "GET", "/api/v1/credits", { key: first.apiKey as string })).status).toBe(200);
    await revokeElsewhere(first.keyId as string);
    await until("B refuses a key revoked elsewhere", async () => (await call(b, "GET", "/api/v1/credits", { key: first.apiKey as string })).status === 401, 2_000);

    proxy.freeze();
    const frozenAt = Date.now();
    await revokeElsewhere(created.keyId as string);
    await until("B refuses the revoked key", async () => (await call(b, "GET", "/api/v1/credits", { key })).status === 401, 10_000);
    expect(Date.now() - frozenAt).toBeLessThan(BOUND_MS);
    expect(b.database.changes.live).toBe(false);
    expect((await call(b, "GET", "/healthz")).body).toEqual({ ok: true, caches: "read-through" });
    expect(await gauge(b)).toBe("0");
    expect(await gauge(a)).toBe("1");
    expect(logB).toMatch(/no heartbeat for \d+ ms.*caches read through|caches read through.*no heartbeat/);
    // Still frozen: B stays read-through (its reconnects through the proxy cannot listen) and stays correct.
    await new Promise((r) => setTimeout(r, 4 * HEARTBEAT_MS));
    expect(b.database.changes.live).toBe(false);
    expect((await call(b, "GET", "/api/v1/credits", { key })).status).toBe(401);

    proxy.thaw();
    await until("B live again", () => b.database.changes.live, 15_000);
    expect((await call(b, "GET", "/healthz")).body).toEqual({ ok: true, caches: "live" });
    expect(await gauge(b)).toBe("1");
    expect(logB).toMatch(/change feed is live again/);
    // Live again, and invalidation works again: a fresh key cached in B, revoked in A, is refused in B.
    const second = (await call(a, "POST", `/admin/v1/accounts/${acct.accountId as string}/keys`, { admin: true })).body;
    expect((await call(b, "GET", "/api/v1/credits", { key: second.apiKey as string })).status).toBe(200);
    await revokeElsewhere(second.keyId as string);
    await until("B refuses the second revoked key", async () => (await call(b, "GET", "/api/v1/credits", { key: second.apiKey as string })).status === 401, 2_000);
  }, 60_000);
});
