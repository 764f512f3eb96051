import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, describe, expect, it } from "vitest";
import { listen } from "../../src/server";
import { startFakeOpenAI } from "../helpers/fake-openai";
import { ADMIN_TOKEN, startTestRuntime, type TestRuntime } from "../helpers/runtime";

setFlagsFromString("--expose-gc");
const fullGc = runInNewContext("gc") as () => void;

const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of closers.reverse()) await c();
});

async function serve(t: TestRuntime) {
  const s = await listen(t.runtime, { host: "127.0.0.1", port: 0 });
  closers.push(s.stop);
  return `http://127.0.0.1:${s.port}`;
}
const verify = (url: string, key: string, intent: string) =>
  fetch(`${url}/api/v1/intent`, { method: "POST", headers: { "x-api-key": key, "content-type": "application/json" }, body: JSON.stringify({ intent, action: "buy 0.1 BTC" }) });
const credits = async (url: string, key: string) => (await (await fetch(`${url}/api/v1/credits`, { headers: { "x-api-key": key } })).json()).creditsRemaining as number;

describe("admission control (503 overloaded)", () => {
  it("refuses a body that would take the bodies in flight past INFLIGHT_BODY_BYTES, charges nothing, and admits it once room is back", async () => {
    const judge = await startFakeOpenAI({ verdict: "ALLOW", reasoning: "fine" }, 800);
    closers.push(async () => judge.server.close());
    const t = await startTestRuntime({ env: { INFLIGHT_BODY_BYTES: "2048", JUDGE_PROVIDER: "openai", JUDGE_BASE_URL: judge.url, JUDGE_MODEL: "m", JUDGE_API_KEY: "k" } });
    closers.push(t.close);
    const url = await serve(t);
    const a = await t.createAccount(5);
    const intent = "Only buy BTC. " + "Keep every order small. ".repeat(55); // ~1.3 kB body

    const held = verify(url, a.apiKey, intent); // admitted; the judge holds it for 800 ms
    await new Promise((r) => setTimeout(r, 250));
    const refused = await verify(url, a.apiKey, intent);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(await refused.json()).toEqual({ error: "overloaded", message: expect.stringContaining("nothing was done") });
    // A request without a body takes no budget.
    expect(await credits(url, a.apiKey)).toBe(4);

    expect((await held).status).toBe(201);
    expect((await verify(url, a.apiKey, intent)).status).toBe(201);
    expect(await credits(url, a.apiKey)).toBe(3); // two runs charged, the refused one not
    const metrics = await (await fetch(`${url}/metrics`)).text();
    expect(metrics).toMatch(/arbiter_requests_shed_total\{reason="body_budget"\} 1\b/);
    expect(await t.ledgerMismatches()).toEqual([]);
  });

  it("under memory pressure refuses API and MCP requests while health, metrics and the admin API still answer", async () => {
    // Any live data at all passes 0.001% of the heap limit: the first full collection turns shedding on.
    const t = await startTestRuntime({ env: { SHED_HEAP_PERCENT: "0.001" } });
    closers.push(t.close);
    const url = await serve(t);
    const a = await t.createAccount(2);
    expect((await verify(url, a.apiKey, "Only buy BTC.")).status).toBe(201);

    fullGc();
    await new Promise((r) => setTimeout(r, 50));
    const res = await verify(url, a.apiKey, "Only buy BTC.");
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("1");
    expect((await res.json()).error).toBe("overloaded");
    const mcp = await fetch(`${url}/api/mcp`, { method: "POST", headers: { "x-api-key": a.apiKey, "content-type": "application/json", accept: "application/json, text/event-stream" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) });
    expect(mcp.status).toBe(503);

    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const metrics = await (await fetch(`${url}/metrics`)).text();
    expect(metrics).toMatch(/arbiter_memory_shedding 1\b/);
    expect(metrics).toMatch(/arbiter_requests_shed_total\{reason="memory"\} 2\b/);
    expect(metrics).toMatch(/arbiter_heap_limit_bytes \d{7,}/);
    // The admin API is not shed: an operator can still act. Adding 1 credit to the 1 left shows the refused run was not charged.
    const adjusted = await fetch(`${url}/admin/v1/accounts/${a.accountId}/credits`, { method: "POST", headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" }, body: JSON.stringify({ credits: 1, reason: "test" }) });
    expect(adjusted.status).toBe(200);
    expect((await adjusted.json()).creditsRemaining).toBe(2);
  });
});
