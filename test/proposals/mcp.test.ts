/** The escrow MCP tools through the MCP SDK's own Client over real HTTP, on the sandbox chain. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { encodeFunctionData } from "viem";
import { PROPOSAL_STATUSES } from "../../src/proposals/state";
import { ERC20, freshAddress, startEscrowRuntime, USDC, type EscrowRuntime } from "../wallets/helpers";

let t: EscrowRuntime;
const clients: Client[] = [];
beforeAll(async () => {
  t = await startEscrowRuntime({ listen: true });
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await t?.close();
});

async function connect(headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: "escrow-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/api/mcp`), { requestInit: { headers } }));
  clients.push(client);
  return client;
}
const text = (r: unknown) => ((r as CallToolResult).content[0] as { text: string }).text;
const data = (r: unknown) => {
  const m = text(r).match(/```json\n([\s\S]*)\n```$/);
  if (!m) throw new Error(`no JSON block in: ${text(r)}`);
  return JSON.parse(m[1]);
};
const call = async (c: Client, name: string, args: Record<string, unknown>) => (await c.callTool({ name, arguments: args })) as CallToolResult;

const ESCROW_TOOLS = ["create_escrow_wallet", "update_escrow_wallet", "list_escrow_wallets", "get_escrow_balances", "escrow_transfer", "escrow_execute", "list_escrow_transactions", "get_escrow_transaction"];

describe("escrow MCP tools (SPEC 4.12)", () => {
  it("lists the wallet tools with their annotations", async () => {
    const a = await t.createAccount(1);
    const c = await connect({ "x-api-key": a.apiKey });
    const { tools } = await c.listTools();
    const byName = new Map(tools.map((x) => [x.name, x]));
    for (const n of ESCROW_TOOLS) expect(byName.has(n), n).toBe(true);
    expect(byName.get("escrow_transfer")!.annotations).toMatchObject({ destructiveHint: true });
    expect(byName.get("escrow_execute")!.annotations).toMatchObject({ destructiveHint: true });
    expect(byName.get("list_escrow_wallets")!.annotations).toMatchObject({ readOnlyHint: true });
    expect(byName.get("get_escrow_transaction")!.annotations).toMatchObject({ readOnlyHint: true });
    expect(byName.get("update_escrow_wallet")!.annotations).toMatchObject({ idempotentHint: true });
    // One status list: the MCP filter offers every status, `rejected` included (its copy once lacked it).
    const statusFilter = (byName.get("list_escrow_transactions")!.inputSchema.properties as Record<string, { enum?: string[] }>).status;
    expect(statusFilter.enum).toEqual([...PROPOSAL_STATUSES]);
    expect(statusFilter.enum).toContain("rejected");
    const conn = data(await call(c, "check_connection", {}));
    expect(conn.escrowTools).toBe(true);
  });

  it("creates, lists and reads balances; transfers execute; the reply carries the SPEC lines and JSON", async () => {
    const a = await t.createAccount(5);
    const c = await connect({ "x-api-key": a.apiKey });
    const created = await call(c, "create_escrow_wallet", { name: "mcp-agent", chain: "base", mode: "autonomous", mandate: "[judge:allow] pay suppliers", limits: { maxPerTxUsd: 25, tokenAllowlist: ["USDC", "FOO"] } });
    expect(created.isError).toBeFalsy();
    const w = data(created);
    expect(w).toMatchObject({ name: "mcp-agent", chain: "base", mode: "autonomous", mandate: "[judge:allow] pay suppliers", limits: { maxPerTxUsd: 25, tokenAllowlist: [USDC, "FOO"] } });
    expect(text(created)).toMatch(/Address to fund: 0x/);
    expect(text(created)).toMatch(/Gas: The wallet pays its own gas in ETH/);
    expect(text(created)).toMatch(/"FOO" is not a well-known token/);
    await t.fund(w.address, "ETH", "1");
    await t.fund(w.address, "USDC", "50");

    const list = data(await call(c, "list_escrow_wallets", {}));
    expect(list.wallets).toHaveLength(1);
    expect(list.wallets[0]).toMatchObject({ id: w.id, provider: "arbiter-keystore", rules: { limits: { maxPerTxUsd: 25 }, enforcement: { maxPerTxUsd: "service", tokenAllowlist: "service", mandate: "judge" } }, balanceUsd: 3050 });
    expect(list.wallets[0].explorerAddressUrl).toContain(w.address);
    const bal = data(await call(c, "get_escrow_balances", { wallet: "mcp-agent" }));
    expect(bal).toMatchObject({ walletId: w.id, name: "mcp-agent", address: w.address, balanceUsd: 3050 });
    expect(bal.balances.map((b: { symbol: string }) => b.symbol)).toEqual(["ETH", "USDC"]);

    const bob = freshAddress();
    const r = await call(c, "escrow_transfer", { wallet: "mcp-agent", asset: "USDC", amount: "7", to: bob, chain: "base", note: "invoice 7" });
    expect(r.isError).toBeFalsy();
    const body = data(r);
    expect(body).toMatchObject({ status: "executed", verdict: "ALLOW", creditsRemaining: 4 });
    const lines = text(r).split("\n");
    expect(lines[0]).toBe("Verdict: ALLOW");
    expect(lines[1]).toBe("Reasoning: within the mandate");
    expect(lines[2]).toMatch(/^Simulation: clean: out 7 USDC \(\$7.00\) to 0x/);
    expect(lines[3]).toBe(`Executed: ${body.txHash} (${body.explorerUrl}).`);
    expect(lines[4]).toMatch(/^Proof: signed by judge 0x/);
    expect(lines[5]).toMatch(new RegExp(`^Transaction id: ${body.txId}`));
    expect(lines[6]).toBe("Credits remaining: 4");
    expect(await t.usdcOf(bob)).toBe(7_000_000n);

    // Limits refuse for free.
    const big = data(await call(c, "escrow_transfer", { wallet: w.id, asset: "USDC", amount: "30", to: bob, chain: "base" }));
    expect(big).toMatchObject({ status: "blocked", verdict: "BLOCK", scanId: null, creditsRemaining: null });
    const listed = data(await call(c, "list_escrow_transactions", { wallet: "mcp-agent", limit: 5 }));
    expect(listed.transactions.map((x: { status: string }) => x.status)).toEqual(["blocked", "executed"]);
    expect(listed.transactions[1]).toMatchObject({ id: body.txId, walletId: w.id, verdict: "ALLOW", summary: expect.stringMatching(/^transfer 7 USDC to 0x/), explorerUrl: body.explorerUrl });
    expect(data(await call(c, "list_escrow_transactions", { status: "executed" })).transactions).toHaveLength(1);
    expect(data(await call(c, "list_escrow_transactions", { status: "rejected" })).transactions).toEqual([]);
    const got = data(await call(c, "get_escrow_transaction", { id: body.txId }));
    expect(got).toMatchObject({ id: body.txId, walletId: w.id, status: "executed", verdict: "ALLOW", txHash: body.txHash, explorerUrl: body.explorerUrl, approvalUrl: null, error: null });
  });

  it("escrow_execute: exactly one of transaction, calls, solanaTransaction, starknetCalls", async () => {
    const a = await t.createAccount(5);
    const c = await connect({ "x-api-key": a.apiKey });
    const w = data(await call(c, "create_escrow_wallet", { name: "exec", chain: "base", mode: "autonomous", mandate: "[judge:allow]" }));
    await t.fund(w.address, "ETH", "1");
    await t.fund(w.address, "USDC", "10");
    const bob = freshAddress();
    const tx = { to: USDC, value: "0", data: encodeFunctionData({ abi: ERC20, functionName: "transfer", args: [bob, 1_000_000n] }) };
    const none = await call(c, "escrow_execute", { wallet: w.id, chain: "base" });
    expect(none.isError).toBe(true);
    expect(text(none)).toMatch(/exactly one of transaction, calls/);
    const two = await call(c, "escrow_execute", { wallet: w.id, chain: "base", transaction: tx, calls: [tx] });
    expect(two.isError).toBe(true);
    expect(data(await call(c, "escrow_execute", { wallet: w.id, chain: "base", transaction: tx })).status).toBe("executed");
    expect(data(await call(c, "escrow_execute", { wallet: w.id, chain: "eip155:8453", calls: [tx, tx] })).status).toBe("executed");
    expect(await t.usdcOf(bob)).toBe(3_000_000n);
    const sol = await call(c, "escrow_execute", { wallet: w.id, chain: "base", solanaTransaction: "AAAA" });
    expect(sol.isError).toBe(true);
    expect(text(sol)).toMatch(/^propose_failed: wrong chain/);
    const bad = await call(c, "escrow_transfer", { wallet: w.id, asset: "USDC", amount: "1e2", to: bob, chain: "base" });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/^invalid_input: input.transfer.amount/);
  });

  it("holds on a safe wallet with the approval link; update says what it loosened and re-checks held proposals", async () => {
    const a = await t.createAccount(5);
    const c = await connect({ "x-api-key": a.apiKey });
    const w = data(await call(c, "create_escrow_wallet", { name: "vault", chain: "base", mode: "safe", mandate: "[judge:allow]", limits: { maxPerTxUsd: 50 } }));
    await t.fund(w.address, "ETH", "1");
    await t.fund(w.address, "USDC", "100");
    const r = await call(c, "escrow_transfer", { wallet: "vault", asset: "USDC", amount: "30", to: freshAddress(), chain: "base" });
    const held = data(r);
    expect(held.status).toBe("awaiting_user");
    expect(text(r)).toContain(`Held for the owner: approve or reject at ${t.url}/dashboard/proposals/${held.txId} before ${held.approvalExpiresAt}. Funds have not moved.`);

    const loosen = await call(c, "update_escrow_wallet", { wallet: "vault", limits: { maxPerTxUsd: 80, dailyCapUsd: 500 } });
    expect(data(loosen)).toMatchObject({ wallet: w.id, name: "vault", mode: "safe", limits: { maxPerTxUsd: 80, dailyCapUsd: 500 }, loosened: ["maxPerTxUsd raised from 50 to 80 USD"], blockedProposals: [] });
    expect(text(loosen)).toMatch(/Loosened: maxPerTxUsd raised from 50 to 80 USD/);
    const same = data(await call(c, "update_escrow_wallet", { wallet: "vault", limits: { maxPerTxUsd: 80 } }));
    expect(same).toMatchObject({ changed: [], loosened: [] });

    const tighten = data(await call(c, "update_escrow_wallet", { wallet: "vault", limits: { maxPerTxUsd: 20 }, name: "vault2" }));
    expect(tighten).toMatchObject({ name: "vault2", loosened: [], blockedProposals: [held.txId] });
    const after = data(await call(c, "get_escrow_transaction", { id: held.txId }));
    expect(after.status).toBe("blocked");
    const mandate = data(await call(c, "update_escrow_wallet", { wallet: "vault2", mandate: "anything goes" }));
    expect(mandate.loosened[0]).toMatch(/^mandate replaced/);
    const empty = await call(c, "update_escrow_wallet", { wallet: "vault2" });
    expect(empty.isError).toBe(true);
  });

  it("needs the wallet scope for OAuth tokens; another account's wallet is not found", async () => {
    const a = await t.createAccount(5);
    const token = async (scope: string) => ((await (await t.admin("POST", `/admin/v1/accounts/${a.accountId}/oauth-tokens`, { scope })).json()) as { accessToken: string }).accessToken;
    const narrow = await connect({ authorization: `Bearer ${await token("mcp")}` });
    const denied = await call(narrow, "list_escrow_wallets", {});
    expect(denied.isError).toBe(true);
    expect(text(denied)).toMatch(/wallet access not granted/);
    const wide = await connect({ authorization: `Bearer ${await token("mcp wallet")}` });
    expect((await call(wide, "list_escrow_wallets", {})).isError).toBeFalsy();

    const b = await t.createAccount(5);
    const cb = await connect({ "x-api-key": b.apiKey });
    const theirs = data(await call(cb, "create_escrow_wallet", { name: "theirs", chain: "base", mode: "safe", mandate: "x" }));
    const r = await call(wide, "escrow_transfer", { wallet: theirs.id, asset: "USDC", amount: "1", to: freshAddress(), chain: "base" });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/^not_found/);
  });
});
