/**
 * Issue 18, item 4: JSON-RPC batches on POST /api/mcp count one token per call (src/mcp/batch.ts). The
 * attack: 10 POSTs of 100 `tools/call` each went through on a budget meant for far fewer calls. Raw HTTP
 * POSTs of JSON-RPC batches (the SDK client does not batch), on a real listening server.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MCP_MAX_BATCH, RATE_LIMITED_CODE } from "../../src/mcp/batch";
import { startMcpRuntime, type McpTestRuntime } from "./helpers";

type Answer = { id: number | null; result?: { isError?: boolean }; error?: { code: number; message: string; data?: { error: string; retryAfterSeconds: number } } };

describe("MCP batches and the rate limit", () => {
  let t: McpTestRuntime;
  // A burst of 250 calls and one more per minute: nothing refills while the test runs.
  beforeAll(async () => {
    t = await startMcpRuntime({ RATE_LIMIT_PER_MINUTE: "1", RATE_LIMIT_BURST: "250" });
  });
  afterAll(async () => {
    await t?.close();
  });

  const post = (key: string, body: unknown) =>
    fetch(t.mcpUrl, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify(body),
    });
  const batch = (from: number, n: number) =>
    Array.from({ length: n }, (_, i) => ({ jsonrpc: "2.0", id: from + i, method: "tools/call", params: { name: "check_connection", arguments: {} } }));

  it("1,000 calls in 10 POSTs: only the budget's 250 run, every call past it is a JSON-RPC rate_limited error with Retry-After", async () => {
    const a = await t.createAccount(5);
    const served: number[] = [];
    const refused: number[] = [];
    const statuses: number[] = [];
    for (let p = 0; p < 10; p++) {
      const res = await post(a.apiKey, batch(p * 100, 100));
      statuses.push(res.status);
      const answers = (await res.json()) as Answer[];
      expect(answers).toHaveLength(100); // every call is answered, by a result or an error
      for (const ans of answers) {
        if (ans.result) {
          expect(ans.result.isError).toBeFalsy();
          served.push(ans.id!);
        } else {
          expect(ans.error).toMatchObject({ code: RATE_LIMITED_CODE, data: { error: "rate_limited" } });
          expect(ans.error!.message).toContain("1 per minute with bursts of 250");
          refused.push(ans.id!);
        }
      }
      if (answers.some((x) => x.error)) {
        const retryAfter = Number(res.headers.get("retry-after"));
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        expect(answers.find((x) => x.error)!.error!.data!.retryAfterSeconds).toBe(retryAfter);
      } else {
        expect(res.headers.get("retry-after")).toBeNull();
      }
    }
    // The first 250 calls ran (two whole batches and half the third); the rest were refused.
    expect(served.sort((x, y) => x - y)).toEqual(Array.from({ length: 250 }, (_, i) => i));
    expect(refused).toHaveLength(750);
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429, 429, 429, 429, 429]);
    // The credential's budget is spent for the REST API too.
    expect((await t.http("GET", "/api/v1/credits", a.apiKey)).status).toBe(429);
  });

  it("refused calls do not run: a batch of verifications past the budget charges only the calls served", async () => {
    const a = await t.createAccount(300);
    expect((await post(a.apiKey, batch(0, 100))).status).toBe(200);
    expect((await post(a.apiKey, batch(100, 100))).status).toBe(200); // 200 of 250 spent
    const verify = Array.from({ length: 100 }, (_, i) => ({
      jsonrpc: "2.0",
      id: i,
      method: "tools/call",
      params: { name: "verify_intent", arguments: { intent: "Trade only BTC.", action: `buy 0.0${i} BTC` } },
    }));
    const res = await post(a.apiKey, verify);
    expect(res.status).toBe(200);
    const answers = (await res.json()) as Answer[];
    expect(answers.filter((x) => x.result)).toHaveLength(50);
    expect(answers.filter((x) => x.error?.code === RATE_LIMITED_CODE)).toHaveLength(50);
    const row = await t.runtime.database.db.selectFrom("accounts").select("credits_remaining").where("id", "=", a.accountId).executeTakeFirstOrThrow();
    expect(row.credits_remaining).toBe(250);
  });

  it(`a batch of more than ${MCP_MAX_BATCH} messages is refused whole (400), before any call runs, and costs one token`, async () => {
    const a = await t.createAccount(200);
    const verify = Array.from({ length: MCP_MAX_BATCH + 1 }, (_, i) => ({
      jsonrpc: "2.0",
      id: i,
      method: "tools/call",
      params: { name: "verify_intent", arguments: { intent: "Trade only BTC.", action: "buy 0.01 BTC" } },
    }));
    const res = await post(a.apiKey, verify);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.stringContaining(`at most ${MCP_MAX_BATCH}`) } });
    const row = await t.runtime.database.db.selectFrom("accounts").select("credits_remaining").where("id", "=", a.accountId).executeTakeFirstOrThrow();
    expect(row.credits_remaining).toBe(200);
    // A batch of exactly the cap is served (249 tokens left after the refused one).
    const ok = await post(a.apiKey, batch(0, MCP_MAX_BATCH));
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as Answer[]).every((x) => x.result)).toBe(true);
  });

  it("a single call over the budget is HTTP 429 with a JSON-RPC error carrying its id", async () => {
    const a = await t.createAccount(5);
    for (let i = 0; i < 2; i++) expect((await post(a.apiKey, batch(0, 100))).status).toBe(200);
    expect((await post(a.apiKey, batch(0, 50))).status).toBe(200);
    const res = await post(a.apiKey, { jsonrpc: "2.0", id: 7, method: "tools/list" });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await res.json()).toMatchObject({ jsonrpc: "2.0", id: 7, error: { code: RATE_LIMITED_CODE, data: { error: "rate_limited" } } });
  });
});
