import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestRuntime, type TestRuntime } from "../helpers/runtime";

let t: TestRuntime;
let key: string;
beforeAll(async () => {
  t = await startTestRuntime();
  key = (await t.createAccount(1_000_000)).apiKey;
});
afterAll(async () => {
  expect(await t.ledgerMismatches()).toEqual([]);
  await t.close();
});

const anyJson = fc.jsonValue({ maxDepth: 6 });
// Bodies shaped like the real ones, with any JSON in any field.
const intentBody = fc.record({ intent: anyJson, action: anyJson, venue: anyJson, context: anyJson, preset: anyJson }, { requiredKeys: [] });
const heartbeatBody = fc.dictionary(
  fc.constantFrom("instanceId", "name", "version", "state", "mode", "dryRun", "venue", "walletAddress", "startedAt", "lastTickAt", "openPositions", "totalExposureUsd", "dailyRealizedPnlUsd", "creditsRemaining", "note"),
  anyJson,
);

function expectSpecError(status: number, body: unknown) {
  expect(status).toBeLessThan(500);
  if (status >= 400) {
    expect(typeof (body as { error?: unknown }).error).toBe("string");
  }
}

describe("any JSON in any field never yields a 500", () => {
  it("POST /api/v1/intent", async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(intentBody, anyJson), async (body) => {
        const res = await t.request("POST", "/api/v1/intent", { key, body });
        expectSpecError(res.status, await res.json());
      }),
      { numRuns: 150 },
    );
  });

  it("POST /api/v1/trader/heartbeat", async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(heartbeatBody, anyJson), async (body) => {
        const res = await t.request("POST", "/api/v1/trader/heartbeat", { key, body });
        expectSpecError(res.status, await res.json());
      }),
      { numRuns: 150 },
    );
  });

  it("GET /api/v1/intent/{id} with arbitrary ids", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 80 }), async (id) => {
        const res = await t.request("GET", `/api/v1/intent/${encodeURIComponent(id)}`, { key });
        expect([404]).toContain(res.status);
      }),
      { numRuns: 100 },
    );
  });

  it("unicode edge cases, NUL characters and deep nesting are refused or judged, never 500", async () => {
    const deep: unknown = Array.from({ length: 500 }).reduce((acc) => ({ a: acc }), {});
    const veryDeep = "[".repeat(200_000) + "]".repeat(200_000);
    const raw = await t.request("POST", "/api/v1/intent", { key, raw: `{"intent":"x","action":${veryDeep}}` });
    expect([400, 413]).toContain(raw.status);
    const big = await t.request("POST", "/api/v1/intent", { key, raw: '{"intent":"x","action":{"big":12345678901234567890123456789,"e":1e400}}' });
    expectSpecError(big.status, await big.json());
    for (const body of [
      { intent: "x\u0000y", action: "z" },
      { intent: "rules", action: { "\u0000": 1 } },
      { intent: "\ud800 lone surrogate", action: "\udfff" },
      { intent: "rules", action: deep },
      { intent: "rules", action: { n: 1e308, m: -0, tiny: 5e-324 } },
    ]) {
      const res = await t.request("POST", "/api/v1/intent", { key, body });
      expectSpecError(res.status, await res.json());
    }
  });
});
