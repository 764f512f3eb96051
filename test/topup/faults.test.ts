/**
 * Idempotency and faults: concurrent identical submissions, a crash between settlement and crediting
 * (recovered from the chain by a retry or by the sweep), an authorization settled elsewhere, a remote
 * facilitator (src/x402/facilitator-server.ts) and an unreachable one, and production-mode configuration.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodePaymentResponseHeader } from "@x402/fetch";
import { parseAbi, parseSignature } from "viem";
import { getFreePort, sandboxWalletClient, startSandbox } from "../../src/sandbox";
import { PAYMENT_REQUIRED_HEADER, PAYMENT_RESPONSE_HEADER, startFacilitatorServer, type Facilitator, type FacilitatorServer } from "../../src/x402";
import { startTestRuntime } from "../helpers/runtime";
import { ERC20, startTopupRuntime, USDC, type Json, type TopupRuntime } from "./helpers";

const key = (k: string) => ({ "x-api-key": k });

describe("on the sandbox with the in-process facilitator", () => {
  let t: TopupRuntime;
  beforeAll(async () => {
    t = await startTopupRuntime();
  });
  afterAll(async () => {
    await t?.close();
  });

  const payments = (accountId: string) => t.runtime.database.db.selectFrom("topup_payments").selectAll().where("account_id", "=", accountId).execute();

  it("two identical submissions at the same moment credit once", async () => {
    const a = await t.createAccount(0);
    const payer = await t.payer("2");
    const { header } = await t.sign(payer, "?credits=20", key(a.apiKey));
    const results = await Promise.all([1, 2, 3].map(() => t.post("?credits=20", { ...key(a.apiKey), "PAYMENT-SIGNATURE": header })));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(results.filter((r) => r.body.replayed === false)).toHaveLength(1);
    expect(new Set(results.map((r) => r.body.txHash)).size).toBe(1);
    expect(await t.balance(a.apiKey)).toBe(20);
    expect(await t.usdcOf(payer.address)).toBe(1_000_000n);
    expect(await payments(a.accountId)).toHaveLength(1);
  });

  it("the same authorization sent at once for two accounts: one is credited, the other gets 409", async () => {
    const a = await t.createAccount(0);
    const b = await t.createAccount(0);
    const payer = await t.payer("1");
    const { header } = await t.sign(payer, "?credits=20", key(a.apiKey));
    const [ra, rb] = await Promise.all([a, b].map((x) => t.post("?credits=20", { ...key(x.apiKey), "PAYMENT-SIGNATURE": header })));
    expect([ra.status, rb.status].sort()).toEqual([200, 409]);
    expect((await t.balance(a.apiKey)) + (await t.balance(b.apiKey))).toBe(20);
    expect(await t.usdcOf(payer.address)).toBe(0n);
  });

  it("settled through the facilitator but never credited (crash): a retry credits once from the chain evidence", async () => {
    const a = await t.createAccount(0);
    const payer = await t.payer("1");
    const { payload, header, requirements } = await t.sign(payer, "?credits=20", key(a.apiKey));
    // What the service would have done right before dying: settle, no database write.
    const settled = await t.runtime.services.topup.facilitator!.settle(payload, requirements);
    expect(settled.success).toBe(true);
    expect(await t.usdcOf(payer.address)).toBe(0n);
    expect(await t.balance(a.apiKey)).toBe(0);

    const retry = await t.post("?credits=20", { ...key(a.apiKey), "PAYMENT-SIGNATURE": header });
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual({ credited: 20, usd: "1.00", creditsRemaining: 20, txHash: settled.transaction, payer: payer.address, replayed: false });
    expect(decodePaymentResponseHeader(retry.headers.get(PAYMENT_RESPONSE_HEADER)!)).toMatchObject({ success: true, transaction: settled.transaction });
    const again = await t.post("?credits=20", { ...key(a.apiKey), "PAYMENT-SIGNATURE": header });
    expect(again.body).toMatchObject({ replayed: true, txHash: settled.transaction });
    expect(await t.balance(a.apiKey)).toBe(20);
    // Another account cannot take it over.
    const b = await t.createAccount(0);
    expect((await t.post("?credits=20", { ...key(b.apiKey), "PAYMENT-SIGNATURE": header })).status).toBe(409);
  });

  /** Makes the runtime's facilitator settle for real, then "die" before the service records anything. */
  async function crashAfterSettle<T>(fn: () => Promise<T>): Promise<{ result: T; txHash: string }> {
    const f = t.runtime.services.topup.facilitator as Facilitator;
    const original = f.settle;
    let txHash = "";
    (f as { settle: Facilitator["settle"] }).settle = async (p, r) => {
      const s = await original.call(f, p, r);
      txHash = s.transaction;
      throw new Error("simulated crash after settlement");
    };
    try {
      return { result: await fn(), txHash };
    } finally {
      (f as { settle: Facilitator["settle"] }).settle = original;
    }
  }

  it("a crash after settlement leaves the claim; the retry with the same PAYMENT-SIGNATURE credits exactly once", async () => {
    const a = await t.createAccount(0);
    const payer = await t.payer("1");
    const { header } = await t.sign(payer, "?credits=20", key(a.apiKey));
    const { result: crashed, txHash } = await crashAfterSettle(() => t.post("?credits=20", { ...key(a.apiKey), "PAYMENT-SIGNATURE": header }));
    expect(crashed.status).toBe(500);
    expect(await t.usdcOf(payer.address)).toBe(0n);
    expect(await t.balance(a.apiKey)).toBe(0);
    const [row] = await payments(a.accountId);
    expect(row).toMatchObject({ status: "pending", settle_started_at: expect.any(Date) });

    const retry = await t.post("?credits=20", { ...key(a.apiKey), "PAYMENT-SIGNATURE": header });
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ credited: 20, txHash, replayed: false, creditsRemaining: 20 });
    expect((await t.post("?credits=20", { ...key(a.apiKey), "PAYMENT-SIGNATURE": header })).body.replayed).toBe(true);
    expect(await t.balance(a.apiKey)).toBe(20);
  });

  it("... and without any retry, the recovery sweep credits it", async () => {
    const a = await t.createAccount(0);
    const payer = await t.payer("1");
    const { header } = await t.sign(payer, `?credits=20&account=${a.topupCode}`);
    const { txHash } = await crashAfterSettle(() => t.post(`?credits=20&account=${a.topupCode}`, { "PAYMENT-SIGNATURE": header }));
    expect(await t.balance(a.apiKey)).toBe(0);
    const swept = await t.runtime.services.topup.sweep();
    expect(swept.credited).toBeGreaterThanOrEqual(1);
    expect(await t.balance(a.apiKey)).toBe(20);
    const [row] = await payments(a.accountId);
    expect(row).toMatchObject({ status: "credited", tx_hash: txHash });
    // The payer's retry now sees the original result.
    const retry = await t.post(`?credits=20&account=${a.topupCode}`, { "PAYMENT-SIGNATURE": header });
    expect(retry.body).toMatchObject({ credited: 20, txHash, replayed: true });
    expect(await t.balance(a.apiKey)).toBe(20);
  });

  it("a settlement that fails on chain: 402 with fresh PAYMENT-REQUIRED and PAYMENT-RESPONSE success: false; nothing credited", async () => {
    const a = await t.createAccount(0);
    const payer = await t.payer("1", "1");
    const { header } = await t.sign(payer, "?credits=20", key(a.apiKey));
    // Between verification and settlement the payer moves its USDC away: the transfer cannot happen.
    const f = t.runtime.services.topup.facilitator as Facilitator;
    const original = f.settle;
    const elsewhere = await t.payer();
    (f as { settle: Facilitator["settle"] }).settle = async (p, r) => {
      const w = sandboxWalletClient(t.sandbox.rpcUrl, payer);
      await w.waitForTransactionReceipt({ hash: await w.writeContract({ address: USDC, abi: ERC20, functionName: "transfer", args: [elsewhere.address, 1_000_000n] }) });
      return original.call(f, p, r);
    };
    let r: Awaited<ReturnType<TopupRuntime["post"]>>;
    try {
      r = await t.post("?credits=20", { ...key(a.apiKey), "PAYMENT-SIGNATURE": header });
    } finally {
      (f as { settle: Facilitator["settle"] }).settle = original;
    }
    expect(r.status).toBe(402);
    expect(r.body).toMatchObject({ error: "payment_required", x402Version: 2, credits: 20, usd: "1.00", code: expect.any(String) });
    expect(r.body.message).toMatch(/settlement failed/);
    expect(decodePaymentResponseHeader(r.headers.get(PAYMENT_RESPONSE_HEADER)!)).toMatchObject({ success: false, errorReason: expect.any(String) });
    expect(r.headers.get(PAYMENT_REQUIRED_HEADER)).toBeTruthy();
    expect(await t.balance(a.apiKey)).toBe(0);
    expect(await payments(a.accountId)).toHaveLength(0);
    // Funded again, the same authorization goes through.
    await t.sandbox.faucet.fund({ address: payer.address, asset: "USDC", amount: "1" });
    const retry = await t.post("?credits=20", { ...key(a.apiKey), "PAYMENT-SIGNATURE": header });
    expect(retry.status).toBe(200);
    expect(await t.balance(a.apiKey)).toBe(20);
  });

  it("the sweep releases claims that can no longer settle", async () => {
    const a = await t.createAccount(0);
    const payer = await t.payer("1");
    const { requirements } = await t.sign(payer, "?credits=20", key(a.apiKey));
    const { payload } = await t.signManually(payer, requirements, { validBefore: String(Math.floor(Date.now() / 1000) - 3600) });
    const auth = (payload.payload as { authorization: { from: string; nonce: string } }).authorization;
    // A claim left by a request that died before settling.
    await t.runtime.database.db
      .insertInto("topup_payments")
      .values({
        id: "tpay_orphan",
        account_id: a.accountId,
        payer: auth.from.toLowerCase(),
        nonce: auth.nonce,
        credits: 20,
        usd: "1.00",
        amount_atomic: "1000000",
        status: "pending",
        tx_hash: null,
        payload: JSON.stringify(payload),
        credited_at: null,
        network: "eip155:8453",
        asset: USDC.toLowerCase(),
        pay_to: t.payTo().toLowerCase(),
        lease_token: "dead",
        lease_until: new Date(Date.now() - 1000),
        settle_started_at: null,
        settle_response: null,
        source: "http",
      })
      .execute();
    await t.runtime.services.topup.sweep();
    expect(await payments(a.accountId)).toHaveLength(0);
    expect(await t.balance(a.apiKey)).toBe(0);
  });

  it("an authorization the payer settled themselves is not credited (only Arbiter's facilitator settles top-ups)", async () => {
    const a = await t.createAccount(0);
    const payer = await t.payer("1", "1");
    const { payload, header } = await t.sign(payer, "?credits=20", key(a.apiKey));
    const { authorization: au, signature } = payload.payload as { authorization: Record<string, string>; signature: `0x${string}` };
    const { r, s, v } = parseSignature(signature);
    const w = sandboxWalletClient(t.sandbox.rpcUrl, payer);
    const abi = parseAbi(["function transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,uint8,bytes32,bytes32)"]);
    const hash = await w.writeContract({
      address: USDC,
      abi,
      functionName: "transferWithAuthorization",
      args: [au.from as `0x${string}`, au.to as `0x${string}`, BigInt(au.value), BigInt(au.validAfter), BigInt(au.validBefore), au.nonce as `0x${string}`, Number(v), r, s],
    });
    expect((await w.waitForTransactionReceipt({ hash })).status).toBe("success");
    const res = await t.post("?credits=20", { ...key(a.apiKey), "PAYMENT-SIGNATURE": header });
    expect(res.status).toBe(402);
    expect(res.body.code).toBe("settled_elsewhere");
    expect(await t.balance(a.apiKey)).toBe(0);
  });

  it("ledger sums equal balances", async () => {
    expect(await t.ledgerMismatches()).toEqual([]);
  });
});

describe("remote facilitator (FACILITATOR_URL)", () => {
  let t: TopupRuntime;
  let port: number;
  let server: FacilitatorServer | null = null;
  const up = async () => {
    server = await startFacilitatorServer({ facilitator: t.sandbox.createFacilitator(), port });
  };
  const down = async () => {
    await server?.close();
    server = null;
  };
  beforeAll(async () => {
    port = await getFreePort();
    t = await startTopupRuntime({ env: { FACILITATOR_URL: `http://127.0.0.1:${port}` } });
    await up();
  });
  afterAll(async () => {
    await down();
    await t?.close();
  });

  it("pays through a facilitator server in another process' role", async () => {
    expect(t.runtime.services.topup.describe()).toMatchObject({ facilitator: { kind: "remote", url: `http://127.0.0.1:${port}` } });
    const a = await t.createAccount(0);
    const payer = await t.payer("1");
    const res = await t.payingFetch(payer)(t.url("?credits=20"), { method: "POST", headers: key(a.apiKey) });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ credited: 20, creditsRemaining: 20, payer: payer.address, replayed: false });
    expect(await t.usdcOf(payer.address)).toBe(0n);
  });

  it("crash recovery recognises the remote facilitator's own settlements (its signers)", async () => {
    const a = await t.createAccount(0);
    const payer = await t.payer("1");
    const { payload, header, requirements } = await t.sign(payer, "?credits=20", key(a.apiKey));
    const settled = await t.runtime.services.topup.facilitator!.settle(payload, requirements);
    expect(settled.success).toBe(true);
    const retry = await t.post("?credits=20", { ...key(a.apiKey), "PAYMENT-SIGNATURE": header });
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ credited: 20, txHash: settled.transaction, replayed: false });
  });

  it("unreachable: 502 facilitator_unavailable with Retry-After; the same PAYMENT-SIGNATURE succeeds once it is back", async () => {
    const a = await t.createAccount(0);
    const payer = await t.payer("1");
    const { header } = await t.sign(payer, "?credits=20", key(a.apiKey));
    await down();
    try {
      const r = await t.post("?credits=20", { ...key(a.apiKey), "PAYMENT-SIGNATURE": header });
      expect(r.status).toBe(502);
      expect(r.body).toMatchObject({ error: "facilitator_unavailable", message: expect.any(String) });
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await t.usdcOf(payer.address)).toBe(1_000_000n);
      // A request without payment needs no facilitator.
      expect((await t.post("?credits=20", key(a.apiKey))).status).toBe(402);
    } finally {
      await up();
    }
    const retry = await t.post("?credits=20", { ...key(a.apiKey), "PAYMENT-SIGNATURE": header });
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ credited: 20, replayed: false });
    expect(await t.usdcOf(payer.address)).toBe(0n);
    expect(await t.balance(a.apiKey)).toBe(20);
  });

  it("ledger sums equal balances", async () => {
    expect(await t.ledgerMismatches()).toEqual([]);
  });
});

describe("production mode (BASE_RPC_URL)", () => {
  // A separate anvil plays Base mainnet; the runtime runs no sandbox of its own.
  let base: Awaited<ReturnType<typeof startSandbox>>;
  beforeAll(async () => {
    base = await startSandbox({});
  });
  afterAll(async () => {
    await base?.stop();
  });

  it("never exposes the sandbox routes; without payTo and facilitator top-ups answer 503", async () => {
    const t = await startTestRuntime({ env: { BASE_RPC_URL: base.rpcUrl } });
    try {
      expect((await t.admin("GET", "/admin/v1/sandbox")).status).toBe(404);
      expect((await t.admin("POST", "/admin/v1/sandbox/fund", { chain: "base", address: base.accounts.payTo.address, asset: "USDC", amount: "1" })).status).toBe(404);
      const a = await t.createAccount(1);
      const credits = (await (await t.request("GET", "/api/v1/credits", { key: a.apiKey })).json()) as Json;
      expect(credits.topup).toBeUndefined();
      const res = await t.request("POST", "/api/v1/credits/topup?credits=20", { key: a.apiKey });
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ error: "topup_not_configured", message: expect.stringMatching(/TOPUP_PAY_TO/) });
      expect((await t.request("GET", "/api/v1/credits/topup/guide")).status).toBe(503);
    } finally {
      await t.close();
    }
  });

  it("with TOPUP_PAY_TO and FACILITATOR_PRIVATE_KEY it takes payments (in-process facilitator on BASE_RPC_URL)", async () => {
    const t = await startTestRuntime({ env: { BASE_RPC_URL: base.rpcUrl, TOPUP_PAY_TO: base.accounts.payTo.address, FACILITATOR_PRIVATE_KEY: base.accounts.relayerKey } });
    try {
      const a = await t.createAccount(0);
      const r402 = await t.request("POST", "/api/v1/credits/topup?credits=20", { key: a.apiKey });
      expect(r402.status).toBe(402);
      expect(r402.headers.get(PAYMENT_REQUIRED_HEADER)).toBeTruthy();
      const { x402Client } = await import("@x402/core/client");
      const { registerExactEvmScheme } = await import("@x402/evm/exact/client");
      const { wrapFetchWithPayment } = await import("@x402/fetch");
      const { privateKeyToAccount, generatePrivateKey } = await import("viem/accounts");
      const payer = privateKeyToAccount(generatePrivateKey());
      await base.faucet.fund({ address: payer.address, asset: "USDC", amount: "1" });
      const client = new x402Client();
      registerExactEvmScheme(client, { signer: payer });
      const pay = wrapFetchWithPayment((i, init) => Promise.resolve(t.app.fetch(new Request(i, init))), client);
      const res = await pay("http://arbiter.test/api/v1/credits/topup?credits=20", { method: "POST", headers: { "x-api-key": a.apiKey } });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ credited: 20, creditsRemaining: 20 });
    } finally {
      await t.close();
    }
  });
});
