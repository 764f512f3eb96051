/**
 * RATE_LIMIT_STORE (src/rate-limits): the same token-bucket semantics in memory, in the database and in
 * Redis; the shared stores give two limiters (two processes) one budget, exactly, under concurrent takes;
 * a take of n tokens is all or nothing; through the app, a store that cannot answer lets requests through
 * and counts it. The database store runs on whichever database CI tests (PGlite or PostgreSQL).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dropSchema, openDatabase, type DatabaseHandle } from "../../src/db/client";
import { migrate } from "../../src/db/migrate";
import { memoryRateLimiter } from "../../src/rate-limits/memory";
import { postgresRateLimiter } from "../../src/rate-limits/postgres";
import { redisRateLimiter } from "../../src/rate-limits/redis";
import type { RateLimiter } from "../../src/rate-limits/types";
import { startTestRuntime } from "../helpers/runtime";

const REDIS_URL = "redis://127.0.0.1:6379";
const url = process.env.DATABASE_URL;
const schema = url ? `t_rl_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}` : undefined;
let database: DatabaseHandle;
const open: RateLimiter[] = [];
beforeAll(async () => {
  database = await openDatabase({ url, schema, dataDir: null, pgliteWorker: true });
  await migrate(database.db);
});
afterAll(async () => {
  for (const l of open) await l.close();
  await database?.close();
  if (url && schema) await dropSchema(url, schema);
});

const stores: [string, (perMinute: number, burst: number) => RateLimiter][] = [
  ["memory", (perMinute, burst) => memoryRateLimiter({ perMinute, burst })],
  ["postgres", (perMinute, burst) => postgresRateLimiter({ perMinute, burst, db: database.db, pipelined: database.pipelined })],
  ["redis", (perMinute, burst) => redisRateLimiter({ perMinute, burst, url: REDIS_URL })],
];
const make = (f: (p: number, b: number) => RateLimiter, p: number, b: number) => {
  const l = f(p, b);
  open.push(l);
  return l;
};
const uniqueKey = () => `k-${Math.random().toString(36).slice(2)}`;

describe.each(stores)("%s store", (name, factory) => {
  it("allows the burst, then refuses with the time until one token is back; n tokens are all or nothing", async () => {
    const l = make(factory, 6, 5); // one token per 10 s
    const key = uniqueKey();
    const first = [];
    for (let i = 0; i < 5; i++) first.push(await l.take(key));
    expect(first.map((d) => d.ok)).toEqual([true, true, true, true, true]);
    expect(first[4]).toEqual({ ok: true, remaining: 0 });
    const refused = await l.take(key);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(9);

    const other = uniqueKey();
    expect(await l.take(other, 3)).toEqual({ ok: true, remaining: 2 });
    const tooMany = await l.take(other, 3);
    expect(tooMany.ok).toBe(false); // 2 left: nothing taken
    if (!tooMany.ok) expect(tooMany.retryAfterSeconds).toBeGreaterThanOrEqual(5);
    if (!tooMany.ok) expect(tooMany.available).toBe(2); // what a partial taker (an MCP batch) may ask for
    expect((await l.take(other, 2)).ok).toBe(true);
  });

  it("refills at the per-minute rate", async () => {
    const l = make(factory, 600, 2); // one token per 100 ms
    const key = uniqueKey();
    expect((await l.take(key, 2)).ok).toBe(true);
    expect((await l.take(key)).ok).toBe(false);
    await new Promise((r) => setTimeout(r, 250));
    expect((await l.take(key)).ok).toBe(true);
  });

  it(name === "memory" ? "is per process: two limiters grant two budgets" : "is shared: two limiters (two processes) grant one budget, exactly, under concurrent takes", async () => {
    const a = make(factory, 1, 20);
    const b = make(factory, 1, 20);
    const key = uniqueKey();
    const all = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).take(key)));
    expect(all.filter((d) => d.ok).length).toBe(name === "memory" ? 40 : 20);
  });
});

describe("through the app", () => {
  it("a shared store that cannot answer lets requests through, counted and logged", async () => {
    const t = await startTestRuntime({ env: { RATE_LIMIT_PER_MINUTE: "6", RATE_LIMIT_BURST: "1", RATE_LIMIT_STORE: "redis", REDIS_URL: "redis://127.0.0.1:1" } });
    try {
      const a = await t.createAccount(10);
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await t.request("GET", "/api/v1/credits", { key: a.apiKey })).status);
      expect(statuses).toEqual([200, 200, 200]);
      expect(await t.runtime.metrics.registry.getSingleMetricAsString("arbiter_rate_limit_store_errors_total")).toMatch(/ 3$/m);
    } finally {
      await t.close();
    }
  });

  it("RATE_LIMIT_STORE=postgres limits through the app on the service's database", async () => {
    const t = await startTestRuntime({ env: { RATE_LIMIT_PER_MINUTE: "6", RATE_LIMIT_BURST: "3", RATE_LIMIT_STORE: "postgres" } });
    try {
      const a = await t.createAccount(10);
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await t.request("GET", "/api/v1/credits", { key: a.apiKey })).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await t.close();
    }
  });
});
