/**
 * Per-credential rate limiting (src/http/rate-limit.ts): the token bucket itself on a fake clock, then
 * through the app: 429 `rate_limited` with Retry-After, per key (another key, or another account, is not
 * affected), on the MCP endpoint and the top-up by code too, and off with RATE_LIMIT_PER_MINUTE=0.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRateLimiter } from "../../src/http/rate-limit";
import { startTestRuntime, type TestRuntime } from "../helpers/runtime";

describe("token bucket", () => {
  it("allows a burst, then refills at the per-minute rate and says when to retry", () => {
    let now = 0;
    const l = createRateLimiter({ perMinute: 60, burst: 3, now: () => now });
    expect([l.take("a"), l.take("a"), l.take("a")].every((d) => d.ok)).toBe(true);
    expect(l.take("a")).toEqual({ ok: false, retryAfterSeconds: 1, available: 0 });
    expect(l.take("b").ok).toBe(true); // another key has its own bucket
    now += 1000;
    expect(l.take("a").ok).toBe(true);
    expect(l.take("a").ok).toBe(false);
    now += 60_000; // refills to the burst, not beyond
    expect([1, 2, 3].map(() => l.take("a").ok)).toEqual([true, true, true]);
    expect(l.take("a").ok).toBe(false);
  });

  it("a slow rate gives a long Retry-After", () => {
    let now = 0;
    const l = createRateLimiter({ perMinute: 2, burst: 1, now: () => now });
    expect(l.take("k").ok).toBe(true);
    expect(l.take("k")).toEqual({ ok: false, retryAfterSeconds: 30, available: 0 });
    now += 29_000;
    expect(l.take("k")).toEqual({ ok: false, retryAfterSeconds: 1, available: 0 });
  });

  it("keeps memory bounded under many distinct keys", () => {
    let now = 0;
    const l = createRateLimiter({ perMinute: 60, maxKeys: 1000, now: () => now });
    for (let i = 0; i < 10_000; i++) {
      l.take(`key-${i}`);
      now += 1;
    }
    expect(l.size).toBeLessThanOrEqual(1000);
  });
});

describe("through the API", () => {
  let t: TestRuntime;
  beforeAll(async () => {
    // One request per 10 s after a burst of 5: slow enough that a busy machine cannot refill a token mid-test.
    t = await startTestRuntime({ env: { RATE_LIMIT_PER_MINUTE: "6", RATE_LIMIT_BURST: "5" } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("answers 429 with Retry-After once a key's burst is spent; other keys and accounts are not affected", async () => {
    const a = await t.createAccount(10);
    const statuses = [];
    for (let i = 0; i < 7; i++) statuses.push((await t.request("GET", "/api/v1/credits", { key: a.apiKey })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    const limited = await t.request("GET", "/api/v1/credits", { key: a.apiKey });
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(10);
    expect(await limited.json()).toMatchObject({ error: "rate_limited", message: expect.stringContaining("6 per minute with bursts of 5") });

    const b = await t.createAccount(10);
    expect((await t.request("GET", "/api/v1/credits", { key: b.apiKey })).status).toBe(200);
    // A second key of the same account has its own bucket (the limit is per credential).
    const second = await t.admin("POST", `/admin/v1/accounts/${a.accountId}/keys`);
    const k2 = ((await second.json()) as { apiKey: string }).apiKey;
    expect((await t.request("GET", "/api/v1/credits", { key: k2 })).status).toBe(200);
  });

  it("a rate-limited verification is not charged", async () => {
    const a = await t.createAccount(10);
    const body = { intent: "Trade only BTC.", action: "buy 0.01 BTC" };
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await t.request("POST", "/api/v1/intent", { key: a.apiKey, body })).status);
    expect(statuses.filter((s) => s === 429)).toHaveLength(1);
    const row = await t.runtime.database.db.selectFrom("accounts").select("credits_remaining").where("id", "=", a.accountId).executeTakeFirstOrThrow();
    expect(row.credits_remaining).toBe(5);
  });

  it("counts MCP calls and Bearer credentials the same way", async () => {
    const a = await t.createAccount(10);
    const call = () =>
      t.request("POST", "/api/mcp", {
        headers: { authorization: `Bearer ${a.apiKey}`, accept: "application/json, text/event-stream" },
        body: { jsonrpc: "2.0", id: 1, method: "tools/list" },
      });
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await call()).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    // The same credential on the REST API shares the bucket.
    expect((await t.request("GET", "/api/v1/credits", { key: a.apiKey })).status).toBe(429);
  });

  it("counts top-ups by public code per code", async () => {
    const a = await t.createAccount(0);
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await t.request("POST", `/api/v1/credits/topup?account=${a.topupCode}`)).status);
    expect(statuses.slice(0, 5).every((s) => s !== 429)).toBe(true);
    expect(statuses[5]).toBe(429);
  });

  it("does not count requests without a credential, health checks or the admin API", async () => {
    for (let i = 0; i < 10; i++) expect((await t.request("GET", "/api/v1/credits")).status).toBe(401);
    for (let i = 0; i < 10; i++) expect((await t.request("GET", "/healthz")).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await t.admin("POST", "/admin/v1/accounts", { name: "many" })).status).toBe(201);
  });
});

describe("RATE_LIMIT_PER_MINUTE=0", () => {
  it("turns the limit off", async () => {
    const t = await startTestRuntime({ env: { RATE_LIMIT_PER_MINUTE: "0" } });
    try {
      const a = await t.createAccount(0);
      const statuses = new Set<number>();
      for (let i = 0; i < 50; i++) statuses.add((await t.request("GET", "/api/v1/credits", { key: a.apiKey })).status);
      expect([...statuses]).toEqual([200]);
    } finally {
      await t.close();
    }
  });
});
