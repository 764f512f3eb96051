/**
 * Issue 18, attacks 2 and 3: the rules a proposal was judged under must still hold when it is signed.
 * A slow model judge (the fake OpenAI-compatible server on loopback, 1.5 s per answer) keeps a proposal in
 * `verifying` while the wallet is archived or its rules change; signing happens under the wallet's lock in
 * the transaction that moves it to `executing`, and refuses it there. Over the real HTTP app and the MCP SDK
 * client; balances read on the sandbox chain.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { startFakeOpenAI } from "../helpers/fake-openai";
import { freshAddress, startEscrowRuntime, type EscrowRuntime } from "../wallets/helpers";

const JUDGE_MS = 1500;
let t: EscrowRuntime;
let fake: Awaited<ReturnType<typeof startFakeOpenAI>>;
const clients: Client[] = [];
beforeAll(async () => {
  fake = await startFakeOpenAI({ verdict: "ALLOW", reasoning: "within the mandate" }, JUDGE_MS);
  t = await startEscrowRuntime({
    listen: true,
    modelJudge: true,
    env: { JUDGE_PROVIDER: "openai", JUDGE_BASE_URL: fake.url, JUDGE_MODEL: "test-model", JUDGE_API_KEY: "sk-test", JUDGE_TIMEOUT_MS: "20000" },
  });
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await t?.close();
  await new Promise((r) => fake?.server.close(r));
});

async function mcp(key: string): Promise<Client> {
  const client = new Client({ name: "rules-at-signing", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/api/mcp`), { requestInit: { headers: { "x-api-key": key } } }));
  clients.push(client);
  return client;
}
const text = (r: unknown) => ((r as CallToolResult).content[0] as { text: string }).text;

const MANDATE = "Pay suppliers in USDC, any amount up to 100 USDC per payment.";

async function setup(name: string, limits: Record<string, unknown> = { maxPerTxUsd: 100, dailyCapUsd: 500 }, mode = "autonomous") {
  const a = await t.createAccount(5);
  const w = await t.createWallet(a.apiKey, { name, mode, mandate: MANDATE, limits });
  await t.fund(w.address, "USDC", "100");
  await t.fund(w.address, "ETH", "0.01");
  return { a, w, c: await mcp(a.apiKey) };
}

/** Starts a 90 USDC transfer and resolves once the judge is thinking about it. */
async function proposeWhileJudging(key: string, walletId: string, to: string) {
  const before = fake.requests.length;
  const pending = t.propose(key, walletId, { kind: "transfer", transfer: { asset: "USDC", amount: "90", to } });
  const deadline = Date.now() + 10_000;
  while (fake.requests.length === before) {
    if (Date.now() > deadline) throw new Error("the judge was never called");
    await new Promise((r) => setTimeout(r, 20));
  }
  return { pending };
}

describe("rules re-checked at signing, under the wallet lock", () => {
  it("archiving while the judge runs stops the proposal: blocked, nothing sent, verdict and credit kept", async () => {
    const { a, w } = await setup("archive-during-judge");
    const bob = freshAddress();
    const { pending } = await proposeWhileJudging(a.apiKey, w.id, bob);
    expect((await t.admin("POST", `/admin/v1/wallets/${w.id}/archive`)).status).toBe(200);
    const r = await pending;
    expect(r.body.status).toBe("blocked");
    expect(r.body.reasoning).toMatch(/archived before this proposal could be signed/);
    expect(r.body.verdict).toBe("ALLOW");
    expect(r.body.scanId).toMatch(/[0-9a-f-]{36}/);
    expect(await t.usdcOf(bob)).toBe(0n);
    expect(await t.credits(a.apiKey)).toBe(4);
  });

  it("limits tightened over MCP while the judge runs: blocked, the reason says the rules changed", async () => {
    const { a, w, c } = await setup("tighten-during-judge");
    const bob = freshAddress();
    const { pending } = await proposeWhileJudging(a.apiKey, w.id, bob);
    const up = (await c.callTool({ name: "update_escrow_wallet", arguments: { wallet: w.id, limits: { maxPerTxUsd: 10, dailyCapUsd: 10 } } })) as CallToolResult;
    expect(up.isError, text(up)).toBeFalsy();
    const r = await pending;
    expect(r.body.status).toBe("blocked");
    expect(r.body.reasoning).toMatch(/rules changed after the judge ran .*maxPerTxUsd: this proposal moves \$?90/);
    expect(r.body.verdict).toBe("ALLOW");
    expect(await t.usdcOf(bob)).toBe(0n);
    expect(await t.credits(a.apiKey)).toBe(4);
  });

  it("only the daily cap tightened while the judge runs: blocked by the cap", async () => {
    const { a, w, c } = await setup("cap-during-judge");
    const bob = freshAddress();
    const { pending } = await proposeWhileJudging(a.apiKey, w.id, bob);
    await c.callTool({ name: "update_escrow_wallet", arguments: { wallet: w.id, limits: { dailyCapUsd: 50 } } });
    const r = await pending;
    expect(r.body.status).toBe("blocked");
    expect(r.body.reasoning).toMatch(/rules changed after the judge ran .*dailyCapUsd/);
    expect(await t.usdcOf(bob)).toBe(0n);
  });

  it("the mandate rewritten while the judge runs: blocked, the verdict was about another mandate", async () => {
    const { a, w, c } = await setup("mandate-during-judge");
    const bob = freshAddress();
    const { pending } = await proposeWhileJudging(a.apiKey, w.id, bob);
    await c.callTool({ name: "update_escrow_wallet", arguments: { wallet: w.id, mandate: "Never send anything." } });
    const r = await pending;
    expect(r.body.status).toBe("blocked");
    expect(r.body.reasoning).toMatch(/mandate was replaced after the judge ran/);
    expect(await t.usdcOf(bob)).toBe(0n);
  });

  it("a change the proposal still satisfies does not stop it (the control: the check can pass)", async () => {
    const { a, w, c } = await setup("loosen-during-judge");
    const bob = freshAddress();
    const { pending } = await proposeWhileJudging(a.apiKey, w.id, bob);
    await c.callTool({ name: "update_escrow_wallet", arguments: { wallet: w.id, limits: { maxPerTxUsd: 95 } } });
    const r = await pending;
    expect(r.body.status).toBe("executed");
    expect(await t.usdcOf(bob)).toBe(90_000_000n);
  });

  it("owner confirmation of a held proposal refuses it when the mandate changed while it waited", async () => {
    const { a, w, c } = await setup("held-mandate", { maxPerTxUsd: 100 }, "safe");
    const bob = freshAddress();
    const held = await t.propose(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "USDC", amount: "90", to: bob } });
    expect(held.body.status).toBe("awaiting_user");
    await c.callTool({ name: "update_escrow_wallet", arguments: { wallet: w.id, mandate: "Never send anything." } });
    const conf = await t.json(await t.admin("POST", `/admin/v1/proposals/${held.body.txId}/confirm`));
    expect(conf.status).toBe(409);
    expect(conf.body.message).toMatch(/blocked, not awaiting the owner/);
    const after = await t.runtime.database.db.selectFrom("proposals").select(["status", "reasoning"]).where("id", "=", held.body.txId).executeTakeFirstOrThrow();
    expect(after).toEqual({ status: "blocked", reasoning: expect.stringMatching(/mandate was replaced while this proposal waited/) });
    expect(await t.usdcOf(bob)).toBe(0n);
  });

  it("owner confirmation still executes when the changed limits still pass (the control)", async () => {
    const { a, w, c } = await setup("held-loosened", { maxPerTxUsd: 100 }, "safe");
    const bob = freshAddress();
    const held = await t.propose(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "USDC", amount: "90", to: bob } });
    expect(held.body.status).toBe("awaiting_user");
    await c.callTool({ name: "update_escrow_wallet", arguments: { wallet: w.id, limits: { maxPerTxUsd: 95 } } });
    const conf = await t.json(await t.admin("POST", `/admin/v1/proposals/${held.body.txId}/confirm`));
    expect(conf.body.status).toBe("executed");
    expect(await t.usdcOf(bob)).toBe(90_000_000n);
  });
});
