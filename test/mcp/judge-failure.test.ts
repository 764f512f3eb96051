import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { balanceOf, startMcpRuntime, textOf, type McpTestRuntime } from "./helpers";

describe("verify_intent with a judge that cannot be reached", () => {
  let t: McpTestRuntime;
  beforeAll(async () => {
    // A real OpenAI-compatible client pointed at a closed port.
    t = await startMcpRuntime({ JUDGE_PROVIDER: "openai", JUDGE_BASE_URL: "http://127.0.0.1:9/v1", JUDGE_MODEL: "m", JUDGE_API_KEY: "k", JUDGE_TIMEOUT_MS: "2000" });
  });
  afterAll(async () => {
    expect(await t.ledgerMismatches()).toEqual([]);
    await t.close();
  });

  it("is an isError result starting verification_failed, and the credit is refunded", async () => {
    const a = await t.createAccount(3);
    const client = await t.connect({ "x-api-key": a.apiKey });
    const r = await client.callTool({ name: "verify_intent", arguments: { intent: "Only buy BTC.", action: "buy 1 BTC" } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/^verification_failed: .*refunded/);
    expect(r.structuredContent).toMatchObject({ error: "verification_failed" });
    expect(await balanceOf(t, a.apiKey)).toBe(3);
    const entries = await t.runtime.database.db.selectFrom("credit_entries").select(["delta", "reason"]).where("account_id", "=", a.accountId).orderBy("id").execute();
    expect(entries.map((e) => e.delta)).toEqual([3, -1, 1]);
    expect(entries[2].reason).toBe("refund:judge_failed");
  });
});
