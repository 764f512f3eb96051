/**
 * escrow_pay_x402 end to end on the sandbox chain: the MCP tool over real HTTP, a local x402 v2 resource
 * server settling through the in-process facilitator, balances read on chain.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { sql } from "kysely";
import { loadConfig } from "../../src/config";
import { freshAddress, startEscrowRuntime, type EscrowRuntime } from "../wallets/helpers";
import { startResourceServer, type ResourceServer } from "./resource";
import { toolData as data, toolText as text } from "../helpers/tool-result";

let t: EscrowRuntime;
let rs: ResourceServer;
const clients: Client[] = [];
beforeAll(async () => {
  t = await startEscrowRuntime({ listen: true, env: { ALLOW_LOOPBACK_FETCH: "true" } });
  rs = await startResourceServer(t.sandbox.createFacilitator());
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await rs?.close();
  expect(await t.ledgerMismatches()).toEqual([]);
  await t?.close();
});

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: "x402-pay-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/api/mcp`), { requestInit: { headers: { "x-api-key": key } } }));
  clients.push(client);
  return client;
}
const call2 = async (c: Client, name: string, args: Record<string, unknown>) => (await c.callTool({ name, arguments: args })) as CallToolResult;
const call = async (c: Client, args: Record<string, unknown>) => (await c.callTool({ name: "escrow_pay_x402", arguments: args })) as CallToolResult;
const paid = (name: string, price: bigint, over: Partial<Parameters<ResourceServer["routes"]["set"]>[1]> = {}) => {
  const payTo = freshAddress();
  rs.routes.set(name, { price, payTo, content: JSON.stringify({ secret: `content of ${name}` }), ...over });
  return { url: `${rs.url}/paid/${name}`, payTo };
};

async function setup(mode: "autonomous" | "safe", limits?: Record<string, unknown>) {
  const a = await t.createAccount(5);
  const c = await connect(a.apiKey);
  const w = await t.createWallet(a.apiKey, { name: `payer-${mode}`, mode, ...(limits ? { limits } : {}) });
  await t.fund(w.address, "USDC", "10"); // no ETH: the facilitator pays the gas
  return { a, c, w };
}

describe("escrow_pay_x402", () => {
  it("pays from an autonomous wallet: declared simulation, limits, judge; content returned; USDC moves on chain", async () => {
    const { a, c, w } = await setup("autonomous", { maxPerTxUsd: 1, tokenAllowlist: ["USDC"] });
    const { url, payTo } = paid("article", 50_000n);
    const r = await call(c, { wallet: w.name, url, maxAmount: "0.10", note: "buying the article" });
    expect(r.isError).toBeFalsy();
    const body = data(r);
    expect(body).toMatchObject({ status: "executed", verdict: "ALLOW", creditsRemaining: 4 });
    expect(body.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(body.simulation).toMatchObject({ status: "clean", declared: true, provider: "x402-declared", totalUsdOut: 0.05, gasUsed: "0" });
    expect(body.simulation.changes).toEqual([expect.objectContaining({ direction: "out", changeType: "transfer", symbol: "USDC", amount: "0.05", usdValue: 0.05, counterparty: payTo })]);
    expect(body.payment).toMatchObject({ url, method: "GET", network: "eip155:8453", symbol: "USDC", amount: "50000", amountHuman: "0.05", payTo, responseStatus: 200, response: JSON.stringify({ secret: "content of article" }), responseTruncated: false });
    expect(body.payment.settlement).toMatchObject({ success: true, transaction: body.txHash });
    expect(text(r)).toMatch(/^Verdict: ALLOW/);
    expect(text(r)).toContain("Paid. The resource answered HTTP 200:\n{\"secret\":\"content of article\"}");
    expect(await t.usdcOf(w.address)).toBe(9_950_000n);
    expect(await t.usdcOf(payTo)).toBe(50_000n);
    const receipt = await t.pub.getTransactionReceipt({ hash: body.txHash });
    expect(receipt.status).toBe("success");
    // The judge saw the payment as a transfer to payTo, with the note as untrusted narration.
    const seen = t.judge.inputs.at(-1)!;
    expect(seen.note).toBe("buying the article");
    expect(seen.action).toMatchObject({ kind: "x402_payment", url, payment: { amount: "0.05", asset: "USDC", payTo } });
    expect(seen.facts).toMatchObject({ actionFamily: "payment", notionalUsd: 0.05 });
    expect(rs.hits.get("article")).toEqual({ paid: 1, unpaid: 1 });
    const listed = await c.callTool({ name: "list_escrow_transactions", arguments: { wallet: w.id } });
    expect(data(listed as CallToolResult).transactions[0]).toMatchObject({ id: body.txId, status: "executed", summary: expect.stringMatching(/^x402 payment of 0.05 USDC to 0x/) });
    expect(await t.credits(a.apiKey)).toBe(4);
  });

  it("holds on a safe wallet without paying; the owner's confirmation re-reads the terms and pays", async () => {
    const { c, w } = await setup("safe");
    const { url, payTo } = paid("report", 120_000n);
    const held = data(await call(c, { wallet: w.id, url }));
    expect(held).toMatchObject({ status: "awaiting_user", verdict: "ALLOW" });
    expect(held.payment).toMatchObject({ signed: false, responseStatus: null, response: null });
    expect(rs.hits.get("report")).toEqual({ paid: 0, unpaid: 1 });
    expect(await t.usdcOf(payTo)).toBe(0n);

    const confirmed = await t.json(await t.admin("POST", `/admin/v1/proposals/${held.txId}/confirm`));
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ txId: held.txId, status: "executed", payment: { responseStatus: 200, response: JSON.stringify({ secret: "content of report" }) } });
    expect(rs.hits.get("report")).toEqual({ paid: 1, unpaid: 2 });
    expect(await t.usdcOf(payTo)).toBe(120_000n);
    expect(await t.usdcOf(w.address)).toBe(9_880_000n);
  });

  it("refuses at confirmation when the resource's terms changed since the proposal", async () => {
    const { c, w } = await setup("safe");
    const { url } = paid("moving", 100_000n);
    const held = data(await call(c, { wallet: w.id, url }));
    expect(held.status).toBe("awaiting_user");
    rs.routes.get("moving")!.price = 200_000n;
    const r = await t.json(await t.admin("POST", `/admin/v1/proposals/${held.txId}/confirm`));
    expect(r.body).toMatchObject({ status: "blocked" });
    expect(r.body.reasoning).toMatch(/the resource's terms changed since the proposal \(amount 200000 instead of 100000\)/);
    expect(rs.hits.get("moving")!.paid).toBe(0);
    expect(await t.usdcOf(w.address)).toBe(10_000_000n);
  });

  it("refuses an invoice above maxAmount before recording or charging anything", async () => {
    const { a, c, w } = await setup("autonomous");
    const { url } = paid("pricey", 5_000_000n);
    const r = await call(c, { wallet: w.id, url, maxAmount: "1" });
    expect(r.isError).toBe(true);
    expect(text(r)).toBe("propose_failed: the invoice asks 5 USDC, above maxAmount 1 USDC: refused; nothing was recorded or paid");
    const bad = await call(c, { wallet: w.id, url, maxAmount: "0.0000001" });
    expect(text(bad)).toMatch(/^propose_failed: maxAmount: more than 6 decimal places/);
    const listed = await c.callTool({ name: "list_escrow_transactions", arguments: { wallet: w.id } });
    expect(data(listed as CallToolResult).transactions).toEqual([]);
    expect(await t.credits(a.apiKey)).toBe(5);
  });

  it("refuses terms whose payTo has a wrong EIP-55 checksum (issue 18, attack 8): nothing recorded, charged or paid", async () => {
    const { a, c, w } = await setup("autonomous");
    const { url, payTo } = paid("mistyped", 10_000n);
    const flipped = payTo.replace(/[a-f]/, (ch) => ch.toUpperCase());
    const advertised = flipped !== payTo ? flipped : payTo.replace(/[A-F]/, (ch) => ch.toLowerCase());
    rs.routes.get("mistyped")!.advertisedPayTo = advertised;
    const r = await call(c, { wallet: w.id, url, maxAmount: "1" });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/^propose_failed: the resource's payTo 0x[0-9a-fA-F]{40} has mixed case but a wrong EIP-55 checksum/);
    expect(data(await call2(c, "list_escrow_transactions", { wallet: w.id })).transactions).toEqual([]);
    expect(await t.credits(a.apiKey)).toBe(5);
    expect(await t.usdcOf(payTo)).toBe(0n);
  });

  it("lets the wallet's limits block a payment for free", async () => {
    const { a, c, w } = await setup("autonomous", { maxPerTxUsd: 0.01 });
    const { url } = paid("limited", 50_000n);
    const body = data(await call(c, { wallet: w.id, url }));
    expect(body).toMatchObject({ status: "blocked", verdict: "BLOCK", scanId: null, creditsRemaining: null });
    expect(body.reasoning).toMatch(/^maxPerTxUsd: this proposal moves \$0.05/);
    expect(rs.hits.get("limited")!.paid).toBe(0);
    expect(await t.credits(a.apiKey)).toBe(5);
  });

  it("blocks a payment the wallet cannot cover (the declared simulation reverts)", async () => {
    const a = await t.createAccount(5);
    const c = await connect(a.apiKey);
    const w = await t.createWallet(a.apiKey, { name: "empty-payer" });
    const { url } = paid("unaffordable", 50_000n);
    const body = data(await call(c, { wallet: w.id, url }));
    expect(body).toMatchObject({ status: "blocked", simulation: { status: "reverted", declared: true, error: "insufficient balance: the wallet holds 0 USDC; the payment needs 0.05" }, payment: { amountHuman: "0.05", symbol: "USDC", signed: false } });
    expect(rs.hits.get("unaffordable")!.paid).toBe(0);
  });

  it("records a payment the resource answers with an error as executed, with the status and text", async () => {
    const { c, w } = await setup("autonomous");
    const { url, payTo } = paid("flaky", 30_000n, { statusAfter: 500, content: "internal error after payment" });
    const body = data(await call(c, { wallet: w.id, url }));
    expect(body).toMatchObject({ status: "executed", payment: { responseStatus: 500, response: "internal error after payment" } });
    expect(await t.usdcOf(payTo)).toBe(30_000n);
  });

  it("keeps a refused payment executing until its authorization expires, then fails it (nothing moved)", async () => {
    const { a, c, w } = await setup("autonomous");
    const { url, payTo } = paid("refuser", 40_000n, { refuse: true });
    const body = data(await call(c, { wallet: w.id, url }));
    expect(body.status).toBe("executing");
    expect(body.payment.pending).toMatch(/the resource refused the payment \(HTTP 402: refused_by_test\); the authorization has not been used on chain/);
    const db = t.runtime.database.db;
    await sql`update x402_payments set valid_before = now() - interval '5 minutes' where proposal_id = ${body.txId}`.execute(db);
    const report = await t.runtime.services.proposals.reconcile();
    expect(report.failed).toBeGreaterThanOrEqual(1);
    const row = await db.selectFrom("proposals").select(["status", "error"]).where("id", "=", body.txId).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: "failed", error: "the signed authorization expired unused: nothing moved" });
    const status = await t.json(await t.request("GET", `/api/v1/escrow-transactions/${body.txId}`, { key: a.apiKey }));
    expect(status.body).toMatchObject({ status: "failed", txHash: null });
    expect(await t.usdcOf(payTo)).toBe(0n);
  });

  it("refuses private hosts, redirects, resources that do not ask for payment, and self-custodial wallets", async () => {
    const { c, w } = await setup("autonomous");
    const meta = await call(c, { wallet: w.id, url: "http://169.254.169.254/latest/meta-data" });
    expect(text(meta)).toMatch(/^propose_failed: refused to request .*: 169\.254\.169\.254 is a cloud metadata address: refused/);
    const ten = await call(c, { wallet: w.id, url: "https://10.0.0.1/paid" });
    expect(text(ten)).toMatch(/private address/);
    const redirect = await call(c, { wallet: w.id, url: `${rs.url}/redirect` });
    expect(text(redirect)).toMatch(/^propose_failed: the resource answered a redirect \(HTTP 302 to http:\/\/169\.254\.169\.254/);
    const free = await call(c, { wallet: w.id, url: `${rs.url}/free` });
    expect(text(free)).toMatch(/^propose_failed: the resource answered HTTP 200 without asking for a payment/);
    await t.runtime.database.db.updateTable("wallets").set({ custody: "embedded" }).where("id", "=", w.id).execute();
    const { url } = paid("embedded", 10_000n);
    const emb = await call(c, { wallet: w.id, url });
    expect(text(emb)).toMatch(/^propose_failed: a self-custodial safe wallet cannot pay x402 invoices/);
    expect(rs.hits.get("embedded")).toBeUndefined(); // refused before any request
  });

  it("still refuses x402_payment on the HTTP propose route", async () => {
    const a = await t.createAccount(1);
    const w = await t.createWallet(a.apiKey, { name: "http-x402" });
    const r = await t.propose(a.apiKey, w.id, { kind: "x402_payment", url: "https://example.com" });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: "propose_failed", message: "x402_payment is refused on this route; use the MCP tool escrow_pay_x402" });
  });
});

describe("configuration", () => {
  it("refuses ALLOW_LOOPBACK_FETCH outside the sandbox", () => {
    expect(() => loadConfig({ BASE_RPC_URL: "https://base.example", ALLOW_LOOPBACK_FETCH: "true" })).toThrow(/ALLOW_LOOPBACK_FETCH=true is for the sandbox only/);
    expect(loadConfig({ SANDBOX: "true", ALLOW_LOOPBACK_FETCH: "true" }).ALLOW_LOOPBACK_FETCH).toBe(true);
  });
});
