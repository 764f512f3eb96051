import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestRuntime, type TestRuntime } from "../helpers/runtime";

let t: TestRuntime;
beforeAll(async () => {
  t = await startTestRuntime();
});
afterAll(async () => {
  expect(await t.ledgerMismatches()).toEqual([]);
  await t.close();
});

const HL_ORDER = { type: "order", orders: [{ a: 0, b: true, p: "97050", s: "0.02", r: false, t: { limit: { tif: "Gtc" } } }], grouping: "na" };
const INTENT = "Trade only BTC and ETH perpetuals on Hyperliquid. Max notional $2,000 per order.";
const CONTEXT = { assets: { "0": "BTC", "1": "ETH" }, prices: { BTC: 97000, ETH: 3400 } };

describe("POST /api/v1/intent", () => {
  it("returns exactly the fields of SPEC 2.1 and debits one credit", async () => {
    const acct = await t.createAccount(5);
    const res = await t.request("POST", "/api/v1/intent", { key: acct.apiKey, body: { intent: INTENT, action: HL_ORDER, venue: "hyperliquid", context: CONTEXT } });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(Object.keys(body).sort()).toEqual(["actionFamily", "actionType", "creditsRemaining", "id", "mode", "proof", "reasoning", "requestHash", "status", "venue", "verdict"]);
    expect(body.status).toBe("COMPLETED");
    expect(body.creditsRemaining).toBe(4);
    expect(body.requestHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(body.mode).toBe("structured");
    expect(body.venue).toBe("hyperliquid");
    expect(body.actionFamily).toBe("order");
    expect(["ALLOW", "BLOCK", "ESCALATE", null]).toContain(body.verdict);
    expect(Object.keys(body.proof).sort()).toEqual(["anchorTx", "anchorVerified", "attested", "explorerTx", "judge", "outputHash", "signature", "transcriptRoot", "transcriptUri"]);
    expect(body.proof.attested).toBe(false);
    expect(body.proof.anchorTx).toBeNull();
    expect(body.proof.anchorVerified).toBe(false);
    expect(body.proof.transcriptUri).toBe(`http://arbiter.test/api/v1/intent/${body.id}/transcript`);
  });

  it("judges a string action semantically with venue null", async () => {
    const acct = await t.createAccount(2);
    const res = await t.request("POST", "/api/v1/intent", { key: acct.apiKey, body: { intent: "Never transfer funds.", action: "Send 5 ETH to 0xabc", venue: "hyperliquid" } });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.mode).toBe("semantic");
    expect(body.venue).toBeNull();
    expect(body.actionFamily).toBeNull();
    expect(body.verdict).not.toBe("ALLOW");
  });

  it("gives consecutive runs distinct random requestHashes", async () => {
    const acct = await t.createAccount(2);
    const body = { intent: "Never transfer funds.", action: "Send 5 ETH to 0xabc" };
    const a = await (await t.request("POST", "/api/v1/intent", { key: acct.apiKey, body })).json();
    const b = await (await t.request("POST", "/api/v1/intent", { key: acct.apiKey, body })).json();
    expect(a.requestHash).not.toBe(b.requestHash);
  });

  const badBodies: [string, { raw?: string; body?: unknown }, string][] = [
    ["unparseable JSON", { raw: "{not json" }, "invalid JSON body"],
    ["missing intent", { body: { action: "x" } }, "intent is required"],
    ["blank intent", { body: { intent: "   ", action: "x" } }, "intent is required"],
    ["intent of wrong type", { body: { intent: 5, action: "x" } }, "invalid_input"],
    ["an array action", { body: { intent: "rules", action: [{ type: "order" }] } }, "invalid_input"],
    ["missing action", { body: { intent: "rules" } }, "action is required"],
    ["null action", { body: { intent: "rules", action: null } }, "action is required"],
    ["blank action", { body: { intent: "rules", action: "  \n" } }, "action is required"],
  ];
  for (const [name, init, error] of badBodies) {
    it(`400 ${error} for ${name}, no credit charged`, async () => {
      const acct = await t.createAccount(3);
      const res = await t.request("POST", "/api/v1/intent", { key: acct.apiKey, ...init });
      expect(res.status).toBe(400);
      expect((await res.json()).error).toBe(error);
      const credits = await (await t.request("GET", "/api/v1/credits", { key: acct.apiKey })).json();
      expect(credits.creditsRemaining).toBe(3);
    });
  }

  it("says a numeric intent must be a string and an array action is neither a string nor an object", async () => {
    const acct = await t.createAccount(1);
    const a = await (await t.request("POST", "/api/v1/intent", { key: acct.apiKey, body: { intent: 42, action: "x" } })).json();
    expect(a).toEqual({ error: "invalid_input", message: "intent: must be a string (the owner's rules in plain language)" });
    const b = await (await t.request("POST", "/api/v1/intent", { key: acct.apiKey, body: { intent: "rules", action: ["buy", "BTC"] } })).json();
    expect(b.error).toBe("invalid_input");
    expect(b.message).toMatch(/^action: must be a non-empty string or a JSON object; the only array accepted is a Starknet multicall/);
    expect(await t.ledgerMismatches()).toEqual([]);
    // A Starknet multicall (the native payload starknet.js and the labelled cases send) is judged, and charged.
    const calls = [{ contractAddress: "0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d", entrypoint: "transfer", calldata: ["0x1", "0x64", "0x0"] }];
    const c = await t.request("POST", "/api/v1/intent", { key: acct.apiKey, body: { intent: "Only send STRK.", action: calls } });
    expect(c.status).toBe(201);
    expect(await c.json()).toMatchObject({ venue: "starknet", creditsRemaining: 0 });
  });

  it("405 with Allow for a wrong method on a known route; 404 stays for unknown routes", async () => {
    const acct = await t.createAccount(1);
    const res = await t.request("GET", "/api/v1/intent", { key: acct.apiKey });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
    expect((await res.json()).error).toBe("method_not_allowed");
    const del = await t.request("DELETE", "/api/v1/intent/abc", { key: acct.apiKey });
    expect(del.status).toBe(405);
    expect(del.headers.get("allow")).toBe("GET");
    expect((await t.request("GET", "/api/v1/nothing-here", { key: acct.apiKey })).status).toBe(404);
  });

  it("400 invalid_input naming the field for a numeric action or a non-object context", async () => {
    const acct = await t.createAccount(1);
    const r1 = await t.request("POST", "/api/v1/intent", { key: acct.apiKey, body: { intent: "x", action: 42 } });
    expect(r1.status).toBe(400);
    expect(await r1.json()).toMatchObject({ error: "invalid_input", message: expect.stringContaining("action") });
    const r2 = await t.request("POST", "/api/v1/intent", { key: acct.apiKey, body: { intent: "x", action: "y", context: [1] } });
    expect(r2.status).toBe(400);
    expect(await r2.json()).toMatchObject({ error: "invalid_input", message: expect.stringContaining("context") });
  });

  it("402 out_of_credits with a message when the balance is zero", async () => {
    const acct = await t.createAccount(0);
    const res = await t.request("POST", "/api/v1/intent", { key: acct.apiKey, body: { intent: "x", action: "y" } });
    expect(res.status).toBe(402);
    const body = await res.json();
    expect(body.error).toBe("out_of_credits");
    expect(typeof body.message).toBe("string");
  });

  it("with N credits, N+5 concurrent verifications give exactly N 201s and 5 402s", async () => {
    const N = 12;
    const acct = await t.createAccount(N);
    const results = await Promise.all(
      Array.from({ length: N + 5 }, () => t.request("POST", "/api/v1/intent", { key: acct.apiKey, body: { intent: "Never transfer funds.", action: "Send 1 USDC to bob" } })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(N);
    expect(statuses.filter((s) => s === 402)).toHaveLength(5);
    const credits = await (await t.request("GET", "/api/v1/credits", { key: acct.apiKey })).json();
    expect(credits.creditsRemaining).toBe(0);
    expect(await t.ledgerMismatches()).toEqual([]);
  });
});

describe("GET /api/v1/intent/{id}", () => {
  it("finds a run by id and by requestHash with exactly the fields of SPEC 4.2", async () => {
    const acct = await t.createAccount(2);
    const created = await (await t.request("POST", "/api/v1/intent", { key: acct.apiKey, body: { intent: INTENT, action: HL_ORDER, context: CONTEXT } })).json();
    for (const id of [created.id, created.requestHash]) {
      const res = await t.request("GET", `/api/v1/intent/${id}`, { key: acct.apiKey });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(Object.keys(body).sort()).toEqual(["createdAt", "id", "proof", "reasoning", "requestHash", "status", "verdict"]);
      expect(Object.keys(body.proof).sort()).toEqual(["anchorStatus", "anchorTx", "attested", "judge", "outputHash", "signature", "transcriptRoot"]);
      expect(body.proof.anchorStatus).toBe("skipped");
      expect(body.verdict).toBe(created.verdict);
      expect(body.proof.signature).toBe(created.proof.signature);
      expect(new Date(body.createdAt).toISOString()).toBe(body.createdAt);
    }
  });

  it("404 not found for unknown ids, garbage and other accounts' runs", async () => {
    const a = await t.createAccount(1);
    const b = await t.createAccount(1);
    const created = await (await t.request("POST", "/api/v1/intent", { key: a.apiKey, body: { intent: "x", action: "y" } })).json();
    for (const id of ["00000000-0000-4000-8000-000000000000", "garbage", created.id]) {
      const res = await t.request("GET", `/api/v1/intent/${id}`, { key: b.apiKey });
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ error: "not found" });
    }
    const transcript = await t.request("GET", `/api/v1/intent/${created.id}/transcript`, { key: b.apiKey });
    expect(transcript.status).toBe(404);
  });
});
