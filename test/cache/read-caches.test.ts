/**
 * API keys and balances are served from memory (docs/performance.md); these tests show the caches never
 * serve what the database no longer says. On PostgreSQL (DATABASE_URL) two runtimes on the same schema
 * stand for two service processes; on PGlite, one process, the "other writer" is an operator's SQL.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pino from "pino";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config";
import { createRuntime, type Runtime } from "../../src/deps";
import { dropSchema, openDatabase, type DatabaseHandle } from "../../src/db/client";
import { ADMIN_TOKEN } from "../helpers/runtime";

const URL = process.env.DATABASE_URL;
const schema = URL ? `t_cache_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}` : undefined;
const dirs: string[] = [];
const handles: DatabaseHandle[] = [];
const runtimes: Runtime[] = [];

async function runtimeOn(database: DatabaseHandle): Promise<Runtime> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "arbiter-cache-"));
  dirs.push(dataDir);
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent", ADMIN_TOKEN, PUBLIC_URL: "http://arbiter.test", SANDBOX: "false", RATE_LIMIT_PER_MINUTE: "0" });
  const rt = await createRuntime(config, { database, lockDataDir: false, logger: pino({ level: "silent" }) });
  runtimes.push(rt);
  return rt;
}

const call = async (rt: Runtime, method: string, route: string, init: { key?: string; admin?: boolean; body?: unknown } = {}) => {
  const res = await rt.app.request(route, {
    method,
    headers: {
      ...(init.body !== undefined ? { "content-type": "application/json" } : {}),
      ...(init.key ? { "x-api-key": init.key } : {}),
      ...(init.admin ? { authorization: `Bearer ${ADMIN_TOKEN}` } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: res.status, body: (res.status === 204 ? {} : await res.json()) as Record<string, unknown> };
};
const balance = async (rt: Runtime, key: string) => (await call(rt, "GET", "/api/v1/credits", { key })).body.creditsRemaining;
const VERIFY = { intent: "Trade only BTC and ETH perpetuals on Hyperliquid. Max notional $2,000 per order.", action: "buy 0.01 BTC perpetual on Hyperliquid at market" };

async function eventually<T>(read: () => Promise<T>, want: T, ms = 3_000): Promise<number> {
  const start = Date.now();
  for (;;) {
    if ((await read()) === want) return Date.now() - start;
    if (Date.now() - start > ms) throw new Error(`still ${String(await read())}, wanted ${String(want)} after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

// On PGlite the suite runs twice: in process, and on its worker thread (PGLITE_WORKER), whose replies carry
// the notifications their statements raised.
const modes = URL ? [{ name: "PostgreSQL", worker: false }] : [{ name: "PGlite in process", worker: false }, { name: "PGlite on a worker thread", worker: true }];

describe.each(modes)("read caches stay true to the database ($name)", ({ worker }) => {
  let a: Runtime;
  let b: Runtime;
  let dbA: DatabaseHandle;

  beforeAll(async () => {
    dbA = await openDatabase({ url: URL, schema, dataDir: null, pgliteWorker: worker });
    handles.push(dbA);
    a = await runtimeOn(dbA);
    if (URL) {
      const dbB = await openDatabase({ url: URL, schema, dataDir: null });
      handles.push(dbB);
      b = await runtimeOn(dbB);
      await eventually(async () => dbA.changes.live && dbB.changes.live, true, 10_000);
    } else {
      b = a;
    }
  });

  afterAll(async () => {
    for (const rt of runtimes.splice(0)) await rt.close();
    for (const h of handles.splice(0)) await h.close();
  });

  it("the feed is live, so keys and balances are served from memory", async () => {
    await eventually(async () => dbA.changes.live, true, 10_000);
    const acct = (await call(a, "POST", "/admin/v1/accounts", { admin: true, body: { name: "served", credits: 3 } })).body;
    expect(await balance(a, acct.apiKey as string)).toBe(3);
    // The account's own creation notification may still be on its way and evict that first load: wait until a
    // read is served from memory before changing anything behind the service's back.
    const hits = async () => Number(/^arbiter_cache_reads_total\{cache="balance",outcome="hit"\} (\d+)$/m.exec(await a.metrics.registry.metrics())?.[1] ?? 0);
    await new Promise((r) => setTimeout(r, 200));
    await eventually(async () => {
      const before = await hits();
      await balance(a, acct.apiKey as string);
      return (await hits()) > before;
    }, true, 10_000);
    // A change made behind the service's back without a notification (the trigger disabled) is not seen:
    // the balance really comes from the cache, not from a read per request.
    await sql`alter table accounts disable trigger accounts_balance_changed`.execute(dbA.db);
    try {
      await dbA.db.updateTable("accounts").set({ credits_remaining: 99 }).where("id", "=", acct.accountId as string).execute();
      expect(await balance(a, acct.apiKey as string)).toBe(3);
    } finally {
      await sql`alter table accounts enable trigger accounts_balance_changed`.execute(dbA.db);
    }
  });

  it("under concurrent reads right after batched debits, balances come from memory (arbiter_cache_reads_total)", async () => {
    const acct = (await call(a, "POST", "/admin/v1/accounts", { admin: true, body: { name: "busy", credits: 100 } })).body;
    const key = acct.apiKey as string;
    // Concurrent verifications are written in batches: one statement, several debits of this account.
    const runs = await Promise.all(Array.from({ length: 12 }, () => call(a, "POST", "/api/v1/intent", { key, body: VERIFY })));
    expect(runs.every((r) => r.status === 201)).toBe(true);
    const reads = async () => {
      const text = await a.metrics.registry.metrics();
      const n = (outcome: string) => Number(new RegExp(`^arbiter_cache_reads_total\\{cache="balance",outcome="${outcome}"\\} (\\d+)$`, "m").exec(text)?.[1] ?? 0);
      return { hit: n("hit"), joined: n("joined"), loaded: n("loaded"), readThrough: n("readThrough") };
    };
    const before = await reads();
    // 16 clients in a closed loop, 10 reads each.
    const seen = await Promise.all(Array.from({ length: 16 }, async () => {
      const out: unknown[] = [];
      for (let i = 0; i < 10; i++) out.push(await balance(a, key));
      return out;
    }));
    expect(new Set(seen.flat())).toEqual(new Set([88]));
    const after = await reads();
    const d = { hit: after.hit - before.hit, joined: after.joined - before.joined, loaded: after.loaded - before.loaded, readThrough: after.readThrough - before.readThrough };
    expect(d.hit + d.joined + d.loaded + d.readThrough).toBe(160);
    if (URL) {
      // PostgreSQL: the batch's notification may still be on its way for the first reads.
      expect(d.hit).toBeGreaterThanOrEqual(100);
    } else {
      // PGlite: the notification came back with the batch's statement, so nothing was pending; before,
      // a run's announcement per debit outlived it by the 2 s time-out, and under concurrency no load stored.
      expect(d).toMatchObject({ loaded: 1, readThrough: 0 });
      expect(d.hit).toBeGreaterThanOrEqual(160 - 16);
    }
  });

  it("a balance read is never older than a debit this process answered", async () => {
    const acct = (await call(a, "POST", "/admin/v1/accounts", { admin: true, body: { name: "cache", credits: 50 } })).body;
    const key = acct.apiKey as string;
    expect(await balance(a, key)).toBe(50);
    for (let i = 1; i <= 20; i++) {
      const v = await call(a, "POST", "/api/v1/intent", { key, body: VERIFY });
      expect(v.status).toBe(201);
      // Read-your-writes in the answering process, with no wait at all.
      expect(await balance(a, key)).toBe(v.body.creditsRemaining);
      expect(v.body.creditsRemaining).toBe(50 - i);
    }
  });

  it("another writer's change (a second process, or an operator's SQL) reaches a cached balance", async () => {
    const acct = (await call(a, "POST", "/admin/v1/accounts", { admin: true, body: { name: "cache2", credits: 10 } })).body;
    const key = acct.apiKey as string;
    expect(await balance(b, key)).toBe(10); // cached in b
    expect((await call(a, "POST", "/api/v1/intent", { key, body: VERIFY })).status).toBe(201);
    await eventually(() => balance(b, key), 9);
    await dbA.db.updateTable("accounts").set({ credits_remaining: sql`credits_remaining + 5` }).where("id", "=", acct.accountId as string).execute();
    await eventually(() => balance(b, key), 14);
    await eventually(() => balance(a, key), 14);
  });

  it("revocation is immediate where it happened and reaches other processes", async () => {
    const acct = (await call(a, "POST", "/admin/v1/accounts", { admin: true, body: { name: "cache3", credits: 5 } })).body;
    const created = (await call(a, "POST", `/admin/v1/accounts/${acct.accountId as string}/keys`, { admin: true })).body;
    const key = created.apiKey as string;
    expect(await balance(a, key)).toBe(5);
    expect(await balance(b, key)).toBe(5); // the key is now cached in both
    expect((await call(a, "DELETE", `/admin/v1/keys/${created.keyId as string}`, { admin: true })).status).toBe(204);
    expect((await call(a, "GET", "/api/v1/credits", { key })).status).toBe(401);
    await eventually(async () => (await call(b, "GET", "/api/v1/credits", { key })).status, 401);
    expect((await call(b, "POST", "/api/v1/intent", { key, body: VERIFY })).status).toBe(401);
  });

  it.skipIf(!URL)("when the notification connection dies, caches read through and recover once it is back", async () => {
    const acct = (await call(a, "POST", "/admin/v1/accounts", { admin: true, body: { name: "cache4", credits: 7 } })).body;
    const key = acct.apiKey as string;
    expect(await balance(b, key)).toBe(7);
    await sql`select pg_terminate_backend(pid) from pg_stat_activity where query = 'LISTEN arbiter_cache' and pid <> pg_backend_pid()`.execute(dbA.db);
    // While nobody listens, a change still shows (reads go to the database) ...
    await dbA.db.updateTable("accounts").set({ credits_remaining: 3 }).where("id", "=", acct.accountId as string).execute();
    await eventually(() => balance(b, key), 3);
    // ... and once the feeds are back, caching resumes and still follows changes.
    await eventually(async () => handles.every((h) => h.changes.live), true, 10_000);
    expect(await balance(b, key)).toBe(3);
    await dbA.db.updateTable("accounts").set({ credits_remaining: 4 }).where("id", "=", acct.accountId as string).execute();
    await eventually(() => balance(b, key), 4);
  });
});

afterAll(async () => {
  if (URL && schema) await dropSchema(URL, schema);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
