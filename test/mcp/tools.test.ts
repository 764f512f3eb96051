import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { MCP_VENUE_ENUM } from "../../src/venues/registry";
import { balanceOf, jsonBlockOf, startMcpRuntime, textOf, type McpTestRuntime } from "./helpers";

let t: McpTestRuntime;
beforeAll(async () => {
  t = await startMcpRuntime();
});
afterAll(async () => {
  expect(await t.ledgerMismatches()).toEqual([]);
  await t.close();
});

const HL_ORDER = { type: "order", orders: [{ a: 0, b: true, p: "97050", s: "0.02", r: false, t: { limit: { tif: "Gtc" } } }], grouping: "na" };
const INTENT = "Trade only BTC and ETH perpetuals on Hyperliquid. Max notional $2,000 per order.";
const CONTEXT = { assets: { "0": "BTC", "1": "ETH" }, prices: { BTC: 97000, ETH: 3400 } };
const VERIFY_FIELDS = ["actionFamily", "creditsRemaining", "id", "mode", "proof", "reasoning", "requestHash", "status", "venue", "verdict"];

async function account(credits: number): Promise<{ key: string; client: Client; accountId: string }> {
  const a = await t.createAccount(credits);
  return { key: a.apiKey, accountId: a.accountId, client: await t.connect({ "x-api-key": a.apiKey }) };
}

describe("tools/list", () => {
  it("lists the core tools with descriptive schemas and SPEC annotations; no escrow tools without escrow", async () => {
    const { client } = await account(0);
    const { tools } = await client.listTools();
    // Core tools first; other capabilities may add tools, but none that need escrow wallets here.
    const withoutEscrow = t.runtime.mcpTools.all().filter((x) => !x.requiresEscrow).map((x) => x.name);
    expect(t.runtime.escrowConfigured).toBe(false);
    expect(tools.map((x) => x.name)).toEqual(withoutEscrow);
    expect(withoutEscrow.slice(0, 3)).toEqual(["verify_intent", "get_verification", "check_connection"]);
    const byName = Object.fromEntries(tools.map((x) => [x.name, x]));

    const verify = byName.verify_intent.inputSchema as { properties: Record<string, { description?: string; enum?: string[]; type?: string }>; required?: string[] };
    expect(Object.keys(verify.properties).sort()).toEqual(["action", "context", "intent", "venue"]);
    expect(verify.required?.sort()).toEqual(["action", "intent"]);
    expect(verify.properties.intent.type).toBe("string");
    expect(verify.properties.venue.enum).toHaveLength(18);
    expect(verify.properties.venue.enum).toEqual([...MCP_VENUE_ENUM]);
    expect(verify.properties.venue.enum).toContain("evm");
    for (const tool of tools) {
      expect(tool.description!.length).toBeGreaterThan(40);
      const props = (tool.inputSchema.properties ?? {}) as Record<string, { description?: string }>;
      for (const [field, schema] of Object.entries(props)) expect(schema.description, `${tool.name}.${field}`).toMatch(/\w{3,}/);
    }
    expect((byName.get_verification.inputSchema as { required?: string[] }).required).toEqual(["id"]);

    expect(byName.verify_intent.annotations?.readOnlyHint).toBe(false);
    expect(byName.get_verification.annotations).toMatchObject({ readOnlyHint: true });
    expect(byName.check_connection.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
  });
});

describe("verify_intent", () => {
  it("judges a structured action: readable text, a JSON block and structuredContent with the SPEC fields; one credit", async () => {
    const { client, key } = await account(5);
    const r = await client.callTool({ name: "verify_intent", arguments: { intent: INTENT, action: HL_ORDER, venue: "hyperliquid", context: CONTEXT } });
    expect(r.isError).toBeFalsy();
    const json = jsonBlockOf(r);
    expect(Object.keys(json).sort()).toEqual(VERIFY_FIELDS);
    expect(r.structuredContent).toEqual(json);
    expect(json).toMatchObject({ status: "COMPLETED", mode: "structured", venue: "hyperliquid", actionFamily: "order", creditsRemaining: 4 });
    expect(["ALLOW", "BLOCK", "ESCALATE", null]).toContain(json.verdict);
    expect(json.requestHash).toMatch(/^0x[0-9a-f]{64}$/);
    const proof = json.proof as Record<string, unknown>;
    expect(Object.keys(proof).sort()).toEqual(["anchorTx", "anchorVerified", "attested", "explorerTx", "judge", "outputHash", "signature", "transcriptRoot", "transcriptUri"]);
    expect(proof.transcriptUri).toBe(`${t.url}/api/v1/intent/${json.id}/transcript`);

    const text = textOf(r);
    expect(text).toMatch(new RegExp(`^Verdict: ${json.verdict ?? "none"}`));
    expect(text).toContain(`Reasoning: ${json.reasoning ?? "none"}`);
    expect(text).toContain("Proof: signed by judge");
    expect(text).toContain(`Verification id: ${json.id}`);
    expect(text).toContain("Credits remaining: 4");
    expect(await balanceOf(t, key)).toBe(4);
    const row = await t.runtime.database.db.selectFrom("verifications").select("source").where("id", "=", json.id as string).executeTakeFirstOrThrow();
    expect(row.source).toBe("mcp");
  });

  it("judges a string action semantically", async () => {
    const { client } = await account(2);
    const r = await client.callTool({ name: "verify_intent", arguments: { intent: "Never transfer funds.", action: "Send 5 ETH to 0xabc" } });
    const json = jsonBlockOf(r);
    expect(json).toMatchObject({ mode: "semantic", venue: null, actionFamily: null, creditsRemaining: 1 });
    expect(json.verdict).not.toBe("ALLOW");
    expect(textOf(r)).toContain("Do not execute this action");
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    ["missing intent", { action: "buy 1 BTC" }, "intent is required"],
    ["blank intent", { intent: "  \n", action: "buy 1 BTC" }, "intent is required"],
    ["missing action", { intent: "Only buy BTC." }, "action is required"],
    ["null action", { intent: "Only buy BTC.", action: null }, "action is required"],
    ["blank action", { intent: "Only buy BTC.", action: "   " }, "action is required"],
  ];
  for (const [name, args, message] of invalid) {
    it(`isError "${message}" for ${name}, no credit charged`, async () => {
      const { client, key } = await account(3);
      const r = await client.callTool({ name: "verify_intent", arguments: args });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toBe(message);
      expect(r.structuredContent).toEqual({ error: message });
      expect(await balanceOf(t, key)).toBe(3);
    });
  }

  for (const [name, args, field] of [
    ["a numeric intent", { intent: 7, action: "buy 1 BTC" }, "intent: must be a string"],
    ["an array action", { intent: "Only buy BTC.", action: [{ to: "0xabc" }] }, "action: must be a non-empty string or a JSON object; the only array accepted is a Starknet multicall"],
  ] as const) {
    it(`isError invalid_input naming the field for ${name}, no credit charged`, async () => {
      const { client, key } = await account(3);
      const r = await client.callTool({ name: "verify_intent", arguments: args });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toContain(`invalid_input: ${field}`);
      expect(await balanceOf(t, key)).toBe(3);
    });
  }

  it("refuses what the database cannot store (NUL characters) like HTTP does, no credit charged", async () => {
    const { client, key } = await account(3);
    const r = await client.callTool({ name: "verify_intent", arguments: { intent: "Only buy BTC.", action: "buy 1 BTC", context: { note: "a\u0000b" } } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/^invalid_input: /);
    expect(await balanceOf(t, key)).toBe(3);
  });

  it("an unknown venue fails schema validation as an isError result, no credit charged", async () => {
    const { client, key } = await account(3);
    const r = await client.callTool({ name: "verify_intent", arguments: { intent: "Only buy BTC.", action: HL_ORDER, venue: "nasdaq" } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/validation/i);
    expect(textOf(r)).toContain("venue");
    expect(await balanceOf(t, key)).toBe(3);
  });

  it("out of credits is an isError result with the out_of_credits message", async () => {
    const { client, key } = await account(0);
    const r = await client.callTool({ name: "verify_intent", arguments: { intent: "Only buy BTC.", action: "buy 1 BTC" } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/^out_of_credits: No credits left/);
    expect(r.structuredContent).toMatchObject({ error: "out_of_credits" });
    expect(await balanceOf(t, key)).toBe(0);
  });
});

describe("get_verification", () => {
  it("reads a run by id and by requestHash with anchorStatus, transcriptUri and explorerTx inside proof; free", async () => {
    const { client, key } = await account(2);
    const made = jsonBlockOf(await client.callTool({ name: "verify_intent", arguments: { intent: "Never transfer funds.", action: "Send 5 ETH to 0xabc" } }));
    for (const id of [made.id, made.requestHash]) {
      const r = await client.callTool({ name: "get_verification", arguments: { id } });
      expect(r.isError).toBeFalsy();
      const json = jsonBlockOf(r);
      expect(r.structuredContent).toEqual(json);
      expect(Object.keys(json).sort()).toEqual(["createdAt", "id", "proof", "reasoning", "requestHash", "status", "verdict"]);
      expect(json).toMatchObject({ id: made.id, requestHash: made.requestHash, status: "COMPLETED", verdict: made.verdict, reasoning: made.reasoning });
      const proof = json.proof as Record<string, unknown>;
      expect(proof).toMatchObject({ anchorStatus: "skipped", transcriptUri: `${t.url}/api/v1/intent/${made.id}/transcript`, explorerTx: null });
      expect(proof.signature).toBe((made.proof as Record<string, unknown>).signature);
      expect(textOf(r)).toContain(`Verification id: ${made.id}`);
    }
    expect(await balanceOf(t, key)).toBe(1);
  });

  it("isError not found for an unknown id, a malformed id, and another account's run", async () => {
    const { client } = await account(1);
    const other = await account(1);
    const theirs = jsonBlockOf(await other.client.callTool({ name: "verify_intent", arguments: { intent: "Never transfer funds.", action: "Send 5 ETH to 0xabc" } }));
    for (const id of ["6f9619ff-8b86-4011-b42d-00c04fc964ff", "nope", theirs.id]) {
      const r = await client.callTool({ name: "get_verification", arguments: { id } });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/^not found/);
    }
  });
});

describe("one service behind both transports", () => {
  it("a verification made over MCP is readable over HTTP, and one made over HTTP over MCP", async () => {
    const { client, key } = await account(3);
    const viaMcp = jsonBlockOf(await client.callTool({ name: "verify_intent", arguments: { intent: INTENT, action: HL_ORDER, context: CONTEXT } }));
    const overHttp = await t.http("GET", `/api/v1/intent/${viaMcp.id}`, key);
    expect(overHttp.status).toBe(200);
    expect(await overHttp.json()).toMatchObject({ id: viaMcp.id, requestHash: viaMcp.requestHash, verdict: viaMcp.verdict, reasoning: viaMcp.reasoning });

    const viaHttp = await (await t.http("POST", "/api/v1/intent", key, { intent: "Never transfer funds.", action: "Send 5 ETH to 0xabc" })).json();
    const overMcp = jsonBlockOf(await client.callTool({ name: "get_verification", arguments: { id: viaHttp.requestHash } }));
    expect(overMcp).toMatchObject({ id: viaHttp.id, verdict: viaHttp.verdict, reasoning: viaHttp.reasoning });
    expect(await balanceOf(t, key)).toBe(1);
  });
});

describe("check_connection", () => {
  it("reports the account, balance and auth method; escrowTools false where escrow is not configured", async () => {
    const { client, accountId } = await account(7);
    const r = await client.callTool({ name: "check_connection", arguments: {} });
    expect(r.isError).toBeFalsy();
    expect(jsonBlockOf(r)).toEqual({ ok: true, account: accountId, creditsRemaining: 7, escrowTools: false, authMethod: "api_key" });
    expect(r.structuredContent).toEqual(jsonBlockOf(r));
    expect(textOf(r)).toContain(`account ${accountId}`);
  });
});
