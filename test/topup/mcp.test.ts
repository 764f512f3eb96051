/**
 * topup_credits over MCP with the SDK Client (SPEC 4.12): terms without payment, then a PaymentPayload
 * built by the x402 client from _meta["x402/payment-required"]; and the guide's @x402/fetch example run
 * as a real program against the listening service.
 */
import { spawn } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { x402Client } from "@x402/core/client";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import type { PaymentRequired } from "../../src/x402";
import { ROOT } from "../helpers/process";
import { startTopupRuntime, USDC, type Json, type TopupRuntime } from "./helpers";

let t: TopupRuntime;
const clients: Client[] = [];
beforeAll(async () => {
  t = await startTopupRuntime({ listen: true });
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await t?.close();
});

async function connect(headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: "topup-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${t.publicUrl}/api/mcp`), { requestInit: { headers } }));
  clients.push(client);
  return client;
}

const textOf = (r: CallToolResult) => (r.content[0] as { text: string }).text;

describe("topup_credits", () => {
  it("is listed, free, in the mcp scope", async () => {
    const a = await t.createAccount(0);
    const client = await connect({ "x-api-key": a.apiKey });
    const { tools } = await client.listTools();
    const tool = tools.find((x) => x.name === "topup_credits");
    expect(tool).toBeTruthy();
    expect(tool!.inputSchema.properties).toHaveProperty("credits");
  });

  it("without payment: isError with the x402 terms in text, structuredContent and _meta; paid: settles and credits once", async () => {
    const a = await t.createAccount(2);
    const client = await connect({ "x-api-key": a.apiKey });
    const first = (await client.callTool({ name: "topup_credits", arguments: { credits: 40 } })) as CallToolResult;
    expect(first.isError).toBe(true);
    const required = first._meta?.["x402/payment-required"] as PaymentRequired;
    // Over MCP the instructions name _meta, not HTTP headers that do not exist here.
    const firstText = (first.content as { type: string; text: string }[]).map((c) => c.text).join("\n");
    expect(firstText).not.toMatch(/PAYMENT-(SIGNATURE|REQUIRED)|header/);
    expect(firstText).toContain('_meta["x402/payment"]');
    expect(required).toMatchObject({
      x402Version: 2,
      accepts: [{ scheme: "exact", network: "eip155:8453", amount: "2000000", asset: USDC, payTo: t.payTo(), extra: { name: "USD Coin", version: "2" } }],
    });
    expect(first.structuredContent).toMatchObject({
      x402Version: 2,
      accepts: required.accepts,
      error: "payment_required",
      credits: 40,
      usd: "2.00",
      endpoint: `${t.publicUrl}/api/v1/credits/topup?credits=40`,
      guideUrl: `${t.publicUrl}/api/v1/credits/topup/guide`,
    });
    const text = textOf(first);
    expect(text).toMatch(/^payment_required: /);
    expect(text).toContain(`${t.publicUrl}/api/v1/credits/topup?credits=40`);
    expect(text).toContain("/api/v1/credits/topup/guide");
    expect(text).toContain('"amount": "2000000"');

    const payer = await t.payer("3");
    const x402 = new x402Client();
    registerExactEvmScheme(x402, { signer: payer });
    x402.setSpendControls({ maxAmountPerPayment: "$2" });
    const payload = await x402.createPaymentPayload(required);

    const paid = (await client.callTool({ name: "topup_credits", arguments: { credits: 40 }, _meta: { "x402/payment": payload } })) as CallToolResult;
    expect(paid.isError).toBeFalsy();
    expect(paid.structuredContent).toEqual({ credited: 40, usd: "2.00", creditsRemaining: 42, txHash: expect.stringMatching(/^0x/), payer: payer.address, replayed: false });
    const settlement = paid._meta?.["x402/payment-response"] as Json;
    expect(settlement).toMatchObject({ success: true, network: "eip155:8453", payer: payer.address, transaction: (paid.structuredContent as Json).txHash });
    expect(await t.usdcOf(payer.address)).toBe(1_000_000n);

    // Again with the same payment: the original result, nothing charged. The HTTP view agrees.
    const again = (await client.callTool({ name: "topup_credits", arguments: { credits: 40 }, _meta: { "x402/payment": payload } })) as CallToolResult;
    expect(again.structuredContent).toMatchObject({ credited: 40, replayed: true, creditsRemaining: 42 });
    expect(await t.balance(a.apiKey)).toBe(42);
    expect(await t.usdcOf(payer.address)).toBe(1_000_000n);
  });

  it("an OAuth token with the mcp scope can top up too; a bad amount or payment is an isError result", async () => {
    const a = await t.createAccount(0);
    const tok = (await (await t.admin("POST", `/admin/v1/accounts/${a.accountId}/oauth-tokens`, { scope: "mcp" })).json()) as { accessToken: string };
    const client = await connect({ authorization: `Bearer ${tok.accessToken}` });
    for (const credits of [19, 10001, 20.5]) {
      const r = (await client.callTool({ name: "topup_credits", arguments: { credits } })) as CallToolResult;
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/^invalid_credits: /);
    }
    const bad = (await client.callTool({ name: "topup_credits", arguments: { credits: 20 }, _meta: { "x402/payment": { nope: true } } })) as CallToolResult;
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent).toMatchObject({ error: "payment_required", code: "invalid_payload" });
    expect(bad._meta?.["x402/payment-required"]).toBeTruthy();

    const required = (await client.callTool({ name: "topup_credits", arguments: { credits: 20 } }))._meta?.["x402/payment-required"] as PaymentRequired;
    const broke = await t.payer();
    const x402 = new x402Client();
    registerExactEvmScheme(x402, { signer: broke });
    const unfunded = (await client.callTool({ name: "topup_credits", arguments: { credits: 20 }, _meta: { "x402/payment": await x402.createPaymentPayload(required) } })) as CallToolResult;
    expect(unfunded.isError).toBe(true);
    expect(unfunded.structuredContent).toMatchObject({ code: "invalid_exact_evm_insufficient_balance" });

    const payer = await t.payer("1");
    const x = new x402Client();
    registerExactEvmScheme(x, { signer: payer });
    const ok = (await client.callTool({ name: "topup_credits", arguments: { credits: 20 }, _meta: { "x402/payment": await x.createPaymentPayload(required) } })) as CallToolResult;
    expect(ok.isError).toBeFalsy();
    expect(ok.structuredContent).toMatchObject({ credited: 20, creditsRemaining: 20 });
  });
});

describe("the guide's example", () => {
  it("runs as written (npx tsx topup.mts) and buys credits, by API key and by top-up code", async () => {
    const guide = (await (await fetch(`${t.publicUrl}/api/v1/credits/topup/guide`)).json()) as Json;
    const file = path.join(ROOT, "test", "topup", `.guide-example-${process.pid}.mts`);
    writeFileSync(file, guide.example.code);
    const run = (env: Record<string, string>) =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        let out = "";
        const child = spawn(process.execPath, ["--import", "tsx", file], { cwd: ROOT, env: { ...process.env, ...env } });
        child.stdout.on("data", (d) => (out += d));
        child.stderr.on("data", (d) => (out += d));
        child.on("exit", (code) => resolve({ code, out }));
      });
    try {
      const a = await t.createAccount(0);
      const payer = await t.payer("10");
      const byKey = await run({ PAYER_PRIVATE_KEY: payer.key, ARBITER_API_KEY: a.apiKey, CREDITS: "100" });
      expect(byKey.code, byKey.out).toBe(0);
      expect(byKey.out).toMatch(/^200 \{"credited":100,"usd":"5.00","creditsRemaining":100/);
      expect(byKey.out).toContain('"success":true');

      const byCode = await run({ PAYER_PRIVATE_KEY: payer.key, ARBITER_ACCOUNT_CODE: a.topupCode, CREDITS: "20" });
      expect(byCode.code, byCode.out).toBe(0);
      expect(byCode.out).toMatch(/^200 \{"credited":20,"usd":"1.00","txHash"/);
      expect(await t.balance(a.apiKey)).toBe(120);
      expect(await t.usdcOf(payer.address)).toBe(4_000_000n);
    } finally {
      rmSync(file, { force: true });
    }
  });
});

it("ledger sums equal balances", async () => {
  expect(await t.ledgerMismatches()).toEqual([]);
});
