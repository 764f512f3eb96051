/**
 * POST /api/v1/credits/topup (SPEC 4.4), the terms (2.3), the receipt (2.4), the guide and the sandbox
 * operator routes, on the sandbox chain with the official x402 client.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodePaymentResponseHeader } from "@x402/fetch";
import { toFunctionSelector } from "viem";
import { BATCH_EXECUTOR, MULTICALL3, sandboxWalletClient } from "../../src/sandbox";
import { decodePaymentRequiredHeader, PAYMENT_REQUIRED_HEADER, PAYMENT_RESPONSE_HEADER } from "../../src/x402";
import { ADMIN_TOKEN } from "../helpers/runtime";
import { ERC20, startTopupRuntime, USDC, type Json, type TopupRuntime } from "./helpers";

let t: TopupRuntime;
beforeAll(async () => {
  t = await startTopupRuntime();
});
afterAll(async () => {
  await t?.close();
});

const key = (k: string) => ({ "x-api-key": k });

describe("terms (SPEC 2.3)", () => {
  it("GET /api/v1/credits carries the top-up terms", async () => {
    const a = await t.createAccount(5);
    const body = (await (await t.request("GET", "/api/v1/credits", { key: a.apiKey })).json()) as Json;
    expect(body).toMatchObject({ creditsRemaining: 5, priceUsdPerCredit: 0.05 });
    expect(body.topup).toMatchObject({
      available: true,
      protocol: "x402",
      method: "POST",
      url: "http://arbiter.test/api/v1/credits/topup?credits=20",
      accountCode: a.topupCode,
      network: "eip155:8453",
      asset: USDC,
      payTo: t.sandbox.accounts.payTo.address,
      minCredits: 20,
      maxCredits: 10000,
      guideUrl: "http://arbiter.test/api/v1/credits/topup/guide",
    });
    expect(body.topup.accountCode).toMatch(/^svc_topup_/);
    expect(typeof body.topup.note).toBe("string");
  });

  it("the 402 out_of_credits body of a verification carries them too", async () => {
    const a = await t.createAccount(0);
    const res = await t.request("POST", "/api/v1/intent", { key: a.apiKey, body: { intent: "Never transfer funds.", action: "Send 1 ETH" } });
    expect(res.status).toBe(402);
    const body = (await res.json()) as Json;
    expect(body).toMatchObject({ error: "out_of_credits", topup: { protocol: "x402", accountCode: a.topupCode, payTo: t.sandbox.accounts.payTo.address } });
  });
});

describe("402 payment required", () => {
  it("without a payment: PAYMENT-REQUIRED (x402 v2, exact USDC on Base) and the JSON body; the default is the minimum", async () => {
    const a = await t.createAccount();
    const r = await t.post("", key(a.apiKey));
    expect(r.status).toBe(402);
    expect(r.body).toMatchObject({ error: "payment_required", x402Version: 2, credits: 20, usd: "1.00" });
    expect(r.body.message).toMatch(/minimum/);
    const required = decodePaymentRequiredHeader(r.headers.get(PAYMENT_REQUIRED_HEADER)!);
    expect(required).toMatchObject({
      x402Version: 2,
      resource: { url: "http://arbiter.test/api/v1/credits/topup?credits=20" },
      accepts: [
        {
          scheme: "exact",
          network: "eip155:8453",
          amount: "1000000",
          asset: USDC,
          payTo: t.sandbox.accounts.payTo.address,
          maxTimeoutSeconds: 300,
          extra: { name: "USD Coin", version: "2" },
        },
      ],
    });
  });

  it("credits and usd set the amount: credits x 0.05 USD in 6-decimal units", async () => {
    const a = await t.createAccount();
    const cases: [string, number, string, string][] = [
      ["?credits=40", 40, "2.00", "2000000"],
      ["?credits=10000", 10000, "500.00", "500000000"],
      ["?credits=21", 21, "1.05", "1050000"],
      ["?usd=1", 20, "1.00", "1000000"],
      ["?usd=2000", 40000, "2000.00", "2000000000"],
    ];
    for (const [q, credits, usd, amount] of cases) {
      const r = await t.post(q, key(a.apiKey));
      expect(r.status, q).toBe(402);
      expect(r.body).toMatchObject({ error: "payment_required", credits, usd });
      expect(r.body.message).not.toMatch(/minimum/);
      expect(decodePaymentRequiredHeader(r.headers.get(PAYMENT_REQUIRED_HEADER)!).accepts[0].amount).toBe(amount);
    }
  });

  it("400 for bad or conflicting amounts", async () => {
    const a = await t.createAccount();
    for (const q of ["?credits=19", "?credits=10001", "?credits=abc", "?credits=20.5", "?credits=", "?credits=-20"]) {
      const r = await t.post(q, key(a.apiKey));
      expect(r.status, q).toBe(400);
      expect(r.body.error, q).toBe("invalid_credits");
      expect(r.body.message).toMatch(/20 to 10000/);
    }
    for (const q of ["?usd=0", "?usd=2001", "?usd=1.5", "?usd=x"]) {
      const r = await t.post(q, key(a.apiKey));
      expect(r.status, q).toBe(400);
      expect(r.body.error, q).toBe("invalid_usd");
    }
    const both = await t.post("?usd=1&credits=20", key(a.apiKey));
    expect(both.status).toBe(400);
    expect(both.body).toMatchObject({ error: "invalid_amount", message: expect.stringMatching(/not both/) });
  });

  it("401 missing_account, 401 invalid key (the key wins over ?account=), 404 invalid_account", async () => {
    const a = await t.createAccount();
    const none = await t.post("?credits=20");
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ error: "missing_account", message: expect.any(String) });

    const badKey = await t.post(`?credits=20&account=${a.topupCode}`, key("svc_sk_live_nope"));
    expect(badKey.status).toBe(401);
    expect(badKey.body.error).toBe("invalid or revoked API key");

    const bearer = await t.post("?credits=20", { authorization: "Bearer svc_sk_live_nope" });
    expect(bearer.status).toBe(401);
    expect(bearer.body.error).toBe("invalid or revoked API key");

    for (const code of ["svc_topup_doesnotexist", "nope"]) {
      const unknown = await t.post(`?credits=20&account=${code}`);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({ error: "invalid_account", message: expect.any(String) });
    }

    const byCode = await t.post(`?credits=20&account=${a.topupCode}`);
    expect(byCode.status).toBe(402);
  });

  it("a revoked key is refused", async () => {
    const a = await t.createAccount();
    const k = (await (await t.admin("POST", `/admin/v1/accounts/${a.accountId}/keys`)).json()) as { keyId: string; apiKey: string };
    expect((await t.admin("DELETE", `/admin/v1/keys/${k.keyId}`)).status).toBe(204);
    const r = await t.post("?credits=20", key(k.apiKey));
    expect(r.status).toBe(401);
    expect(r.body.error).toBe("invalid or revoked API key");
  });

  it("the x402 v1 X-PAYMENT header is refused with a 402 sentence", async () => {
    const a = await t.createAccount();
    const r = await t.post("?credits=20", { ...key(a.apiKey), "X-PAYMENT": "eyJ4NDAyVmVyc2lvbiI6MX0=" });
    expect(r.status).toBe(402);
    expect(r.body.error).toMatch(/x402 v1 payments are not supported/);
    expect(r.body).toMatchObject({ x402Version: 2, credits: 20, usd: "1.00" });
    expect(r.headers.get(PAYMENT_REQUIRED_HEADER)).toBeTruthy();
  });

  it("a PAYMENT-SIGNATURE that is not an x402 v2 payload is a 402 with fresh terms", async () => {
    const a = await t.createAccount();
    const r = await t.post("?credits=20", { ...key(a.apiKey), "PAYMENT-SIGNATURE": "not base64 json" });
    expect(r.status).toBe(402);
    expect(r.body).toMatchObject({ error: "payment_required", code: "invalid_payload" });
    expect(decodePaymentRequiredHeader(r.headers.get(PAYMENT_REQUIRED_HEADER)!).accepts[0].amount).toBe("1000000");
  });
});

describe("paying (SPEC 2.4)", () => {
  it("@x402/fetch pays 20 credits with an API key: balance rises, the payer's USDC falls, PAYMENT-RESPONSE", async () => {
    const a = await t.createAccount(3);
    const payer = await t.payer("5");
    const payToBefore = await t.usdcOf(t.payTo());
    const meterBefore = await t.toppedUp();

    const res = await t.payingFetch(payer)(t.url("?credits=20"), { method: "POST", headers: key(a.apiKey) });
    expect(res.status).toBe(200);
    const receipt = (await res.json()) as Json;
    expect(receipt).toEqual({ credited: 20, usd: "1.00", creditsRemaining: 23, txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/), payer: payer.address, replayed: false });
    const settlement = decodePaymentResponseHeader(res.headers.get(PAYMENT_RESPONSE_HEADER)!);
    expect(settlement).toMatchObject({ success: true, transaction: receipt.txHash, network: "eip155:8453", payer: payer.address });

    expect(await t.balance(a.apiKey)).toBe(23);
    expect(await t.usdcOf(payer.address)).toBe(4_000_000n);
    expect(await t.usdcOf(t.payTo())).toBe(payToBefore + 1_000_000n);
    const tx = await t.pub.getTransactionReceipt({ hash: receipt.txHash });
    expect(tx.status).toBe("success");
    expect(await t.toppedUp()).toBe(meterBefore + 20);

    // The ledger entry is a top-up, referencing the payment.
    const entries = await t.runtime.services.credits.ledger({ accountId: a.accountId, authMethod: "api_key", scopes: new Set(), credentialId: null });
    expect(entries[0]).toMatchObject({ delta: 20, balance_after: 23, reason: "topup:x402", ref: expect.stringMatching(/^tpay_/) });
  });

  it("pays for an account by its top-up code, without a key: no creditsRemaining in the receipt", async () => {
    const a = await t.createAccount(1);
    const payer = await t.payer("2");
    const res = await t.payingFetch(payer)(t.url(`?credits=20&account=${a.topupCode}`), { method: "POST" });
    expect(res.status).toBe(200);
    const receipt = (await res.json()) as Json;
    expect(receipt).toEqual({ credited: 20, usd: "1.00", txHash: expect.any(String), payer: payer.address, replayed: false });
    expect(await t.balance(a.apiKey)).toBe(21);
  });

  it("?account= is ignored when an API key is sent: the key's account is credited", async () => {
    const a = await t.createAccount(0);
    const b = await t.createAccount(0);
    const payer = await t.payer("1");
    const res = await t.payingFetch(payer)(t.url(`?credits=20&account=${b.topupCode}`), { method: "POST", headers: key(a.apiKey) });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ credited: 20, creditsRemaining: 20 });
    expect(await t.balance(a.apiKey)).toBe(20);
    expect(await t.balance(b.apiKey)).toBe(0);
  });

  it("usd=1 buys 20 credits", async () => {
    const a = await t.createAccount(0);
    const payer = await t.payer("1");
    const res = await t.payingFetch(payer)(t.url("?usd=1"), { method: "POST", headers: key(a.apiKey) });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ credited: 20, usd: "1.00", creditsRemaining: 20 });
    expect(await t.usdcOf(payer.address)).toBe(0n);
  });

  it("larger amounts: 100 credits ($5.00) with a raised client spend cap", async () => {
    const a = await t.createAccount(0);
    const payer = await t.payer("5");
    const res = await t.payingFetch(payer, "$5")(t.url("?credits=100"), { method: "POST", headers: key(a.apiKey) });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ credited: 100, usd: "5.00", creditsRemaining: 100 });
  });

  it("replay: the same PAYMENT-SIGNATURE again returns the original result with replayed: true and credits nothing", async () => {
    const a = await t.createAccount(0);
    const payer = await t.payer("3");
    const { header } = await t.sign(payer, "?credits=20", key(a.apiKey));
    const first = await t.post("?credits=20", { ...key(a.apiKey), "PAYMENT-SIGNATURE": header });
    expect(first.status).toBe(200);
    expect(first.body.replayed).toBe(false);

    const again = await t.post("?credits=20", { ...key(a.apiKey), "PAYMENT-SIGNATURE": header });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...first.body, replayed: true });
    expect(decodePaymentResponseHeader(again.headers.get(PAYMENT_RESPONSE_HEADER)!)).toMatchObject({ success: true, transaction: first.body.txHash });
    // Also when the replay names no amount, or comes by top-up code (no balance then).
    const bare = await t.post(`?account=${a.topupCode}`, { "PAYMENT-SIGNATURE": header });
    expect(bare.status).toBe(200);
    expect(bare.body).toEqual({ credited: 20, usd: "1.00", txHash: first.body.txHash, payer: payer.address, replayed: true });

    expect(await t.balance(a.apiKey)).toBe(20);
    expect(await t.usdcOf(payer.address)).toBe(2_000_000n);
  });

  it("409 payment_claimed when the same authorization is submitted for another account", async () => {
    const a = await t.createAccount(0);
    const b = await t.createAccount(0);
    const payer = await t.payer("1");
    const { header } = await t.sign(payer, "?credits=20", key(a.apiKey));
    expect((await t.post("?credits=20", { ...key(a.apiKey), "PAYMENT-SIGNATURE": header })).status).toBe(200);
    for (const headers of [{ ...key(b.apiKey), "PAYMENT-SIGNATURE": header }, { "PAYMENT-SIGNATURE": header }]) {
      const q = "x-api-key" in headers ? "?credits=20" : `?credits=20&account=${b.topupCode}`;
      const r = await t.post(q, headers);
      expect(r.status).toBe(409);
      expect(r.body).toMatchObject({ error: "payment_claimed", message: expect.any(String) });
    }
    expect(await t.balance(b.apiKey)).toBe(0);
    expect(await t.balance(a.apiKey)).toBe(20);
  });
});

describe("refused payments", () => {
  it("a payer without funds: 402 with the reason; the claim is released, so the same signature succeeds once funded", async () => {
    const a = await t.createAccount(0);
    const broke = await t.payer();
    const { header } = await t.sign(broke, "?credits=20", key(a.apiKey));
    const r = await t.post("?credits=20", { ...key(a.apiKey), "PAYMENT-SIGNATURE": header });
    expect(r.status).toBe(402);
    expect(r.body).toMatchObject({ error: "payment_required", code: "invalid_exact_evm_insufficient_balance", x402Version: 2, credits: 20, usd: "1.00" });
    expect(r.body.message).toMatch(/less than 1.00 USDC/);
    expect(r.headers.get(PAYMENT_REQUIRED_HEADER)).toBeTruthy();
    expect(r.headers.get(PAYMENT_RESPONSE_HEADER)).toBeNull();
    expect(await t.balance(a.apiKey)).toBe(0);

    await t.sandbox.faucet.fund({ address: broke.address, asset: "USDC", amount: "1" });
    const retry = await t.post("?credits=20", { ...key(a.apiKey), "PAYMENT-SIGNATURE": header });
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ credited: 20, replayed: false, creditsRemaining: 20 });
  });

  it("an expired authorization", async () => {
    const a = await t.createAccount(0);
    const payer = await t.payer("1");
    const { requirements } = await t.sign(payer, "?credits=20", key(a.apiKey));
    const { header } = await t.signManually(payer, requirements, { validBefore: String(Math.floor(Date.now() / 1000) - 30) });
    const r = await t.post("?credits=20", { ...key(a.apiKey), "PAYMENT-SIGNATURE": header });
    expect(r.status).toBe(402);
    expect(r.body).toMatchObject({ error: "payment_required", code: "invalid_exact_evm_payload_authorization_valid_before" });
    expect(r.body.message).toMatch(/expired/);
    expect(await t.usdcOf(payer.address)).toBe(1_000_000n);
  });

  it("an authorization valid for longer than maxTimeoutSeconds", async () => {
    const a = await t.createAccount(0);
    const payer = await t.payer("1");
    const { requirements } = await t.sign(payer, "?credits=20", key(a.apiKey));
    const { header } = await t.signManually(payer, requirements, { validBefore: String(Math.floor(Date.now() / 1000) + 86_400) });
    const r = await t.post("?credits=20", { ...key(a.apiKey), "PAYMENT-SIGNATURE": header });
    expect(r.status).toBe(402);
    expect(r.body.code).toBe("authorization_window_too_long");
  });

  it("the wrong payTo or amount never settles", async () => {
    const a = await t.createAccount(0);
    const payer = await t.payer("3");
    const other = await t.payer();
    // Terms tampered before signing: another recipient.
    const wrongPayTo = await t.sign(payer, "?credits=20", key(a.apiKey), (r) => ({ ...r, accepts: [{ ...r.accepts[0], payTo: other.address }] }));
    // Signed for 20 credits, submitted as 40.
    const cheaper = await t.sign(payer, "?credits=20", key(a.apiKey));
    // The accepted terms are right but the signed authorization is for less.
    const { requirements } = await t.sign(payer, "?credits=20", key(a.apiKey));
    const lowValue = await t.signManually(payer, requirements, { value: "1" });
    const toOther = await t.signManually(payer, requirements, { to: other.address });

    const cases: [string, string][] = [
      ["?credits=20", wrongPayTo.header],
      ["?credits=40", cheaper.header],
      ["?usd=2", cheaper.header],
      ["?credits=20", lowValue.header],
      ["?credits=20", toOther.header],
    ];
    for (const [q, header] of cases) {
      const r = await t.post(q, { ...key(a.apiKey), "PAYMENT-SIGNATURE": header });
      expect(r.status, q).toBe(402);
      expect(r.body.code, q).toBe("terms_mismatch");
      expect(r.headers.get(PAYMENT_REQUIRED_HEADER)).toBeTruthy();
    }
    expect(await t.usdcOf(payer.address)).toBe(3_000_000n);
    expect(await t.usdcOf(other.address)).toBe(0n);
    expect(await t.balance(a.apiKey)).toBe(0);
    // The unspent authorization still works for its own terms.
    const ok = await t.post("?credits=20", { ...key(a.apiKey), "PAYMENT-SIGNATURE": cheaper.header });
    expect(ok.status).toBe(200);
  });

  it("a forged signature is refused", async () => {
    const a = await t.createAccount(0);
    const payer = await t.payer("1");
    const { payload, requirements } = await t.sign(payer, "?credits=20", key(a.apiKey));
    const forger = await t.payer();
    const forged = await t.signManually(forger, requirements, { nonce: (payload.payload as { authorization: { nonce: string } }).authorization.nonce });
    // from = payer, signed by someone else
    (forged.payload.payload as { authorization: { from: string } }).authorization.from = payer.address;
    const { encodePaymentSignatureHeader } = await import("../../src/x402");
    const r = await t.post("?credits=20", { ...key(a.apiKey), "PAYMENT-SIGNATURE": encodePaymentSignatureHeader(forged.payload) });
    expect(r.status).toBe(402);
    expect(r.body.code).toBe("invalid_exact_evm_signature");
    expect(await t.usdcOf(payer.address)).toBe(1_000_000n);
  });

  it("wallet_unsupported: an EIP-7702-delegated payer whose delegate cannot validate signatures", async () => {
    const delegated = async (target: `0x${string}`, data: `0x${string}` = "0x") => {
      const payer = await t.payer("1", "1");
      const w = sandboxWalletClient(t.sandbox.rpcUrl, payer);
      const authorization = await w.signAuthorization({ contractAddress: target, executor: "self" });
      await w.waitForTransactionReceipt({ hash: await w.sendTransaction({ authorizationList: [authorization], to: payer.address, data }) });
      return payer;
    };
    const a = await t.createAccount(0);
    const unsupported = await delegated(MULTICALL3, toFunctionSelector("getChainId()"));
    const { header } = await t.sign(unsupported, "?credits=20", key(a.apiKey));
    const r = await t.post("?credits=20", { ...key(a.apiKey), "PAYMENT-SIGNATURE": header });
    expect(r.status).toBe(402);
    expect(r.body).toMatchObject({ code: "wallet_unsupported", x402Version: 2, credits: 20, usd: "1.00" });
    expect(r.body.error).toMatch(/cannot complete the payment/);
    expect(r.headers.get(PAYMENT_REQUIRED_HEADER)).toBeTruthy();

    // A delegate that implements ERC-1271 (the escrow wallets' BatchExecutor) pays normally.
    const supported = await delegated(BATCH_EXECUTOR);
    const ok = await t.payingFetch(supported)(t.url("?credits=20"), { method: "POST", headers: key(a.apiKey) });
    expect(ok.status).toBe(200);
  });

  it("a plain USDC transfer to payTo credits nothing", async () => {
    const a = await t.createAccount(0);
    const payer = await t.payer("2", "1");
    const payToBefore = await t.usdcOf(t.payTo());
    const w = sandboxWalletClient(t.sandbox.rpcUrl, payer);
    const hash = await w.writeContract({ address: USDC, abi: ERC20, functionName: "transfer", args: [t.payTo(), 1_000_000n] });
    expect((await w.waitForTransactionReceipt({ hash })).status).toBe("success");
    expect(await t.usdcOf(t.payTo())).toBe(payToBefore + 1_000_000n);
    await t.runtime.services.topup.sweep();
    expect(await t.balance(a.apiKey)).toBe(0);
    // There is nothing to present for it: a request without a payment is only ever a 402.
    expect((await t.post("?credits=20", key(a.apiKey))).status).toBe(402);
    expect(await t.balance(a.apiKey)).toBe(0);
  });
});

describe("guide", () => {
  it("JSON by default, without authentication: terms, steps and the @x402/fetch example", async () => {
    const res = await t.request("GET", "/api/v1/credits/topup/guide");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    const g = (await res.json()) as Json;
    expect(g.terms).toMatchObject({ protocol: "x402", x402Version: 2, scheme: "exact", network: "eip155:8453", asset: USDC, payTo: t.payTo(), minCredits: 20, maxCredits: 10000, defaultCredits: 20 });
    expect(g.steps.length).toBeGreaterThanOrEqual(4);
    for (const s of ["wrapFetchWithPayment", "x402Client", "registerExactEvmScheme", "privateKeyToAccount", "http://arbiter.test/api/v1/credits/topup"]) expect(g.example.code).toContain(s);
    expect(g.responses.map((r: Json) => r.status)).toEqual([200, 400, 401, 401, 402, 402, 402, 404, 409, 502, 503]);
  });

  it("HTML for a browser", async () => {
    const res = await t.request("GET", "/api/v1/credits/topup/guide", { headers: { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    const html = await res.text();
    expect(html).toMatch(/<h1>Buy Arbiter credits/);
    expect(html).toContain("wrapFetchWithPayment");
    expect(html).not.toMatch(/<script/);
  });

  it("the OpenAPI document lists the top-up routes", async () => {
    const doc = (await (await t.request("GET", "/api/v1/openapi.json")).json()) as Json;
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/api/v1/credits/topup", "/api/v1/credits/topup/guide"]));
    expect(Object.keys(doc.paths["/api/v1/credits/topup"].post.responses).sort()).toEqual(["200", "400", "401", "402", "404", "409", "429", "502", "503"]);
  });
});

describe("sandbox operator routes", () => {
  it("GET /admin/v1/sandbox describes the chain, payTo and facilitator", async () => {
    const res = await t.admin("GET", "/admin/v1/sandbox");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      chainId: 8453,
      rpcUrl: t.sandbox.rpcUrl,
      usdc: USDC,
      payTo: t.sandbox.accounts.payTo.address,
      facilitator: { kind: "local", relayer: t.sandbox.accounts.relayer.address },
    });
    expect((await t.request("GET", "/admin/v1/sandbox")).status).toBe(401);
  });

  it("POST /admin/v1/sandbox/fund mints USDC and sends ETH", async () => {
    const who = await t.payer();
    const usdc = await t.admin("POST", "/admin/v1/sandbox/fund", { chain: "base", address: who.address, asset: "USDC", amount: "12.5" });
    expect(usdc.status).toBe(200);
    expect(await usdc.json()).toMatchObject({ txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect(await t.usdcOf(who.address)).toBe(12_500_000n);
    const eth = await t.admin("POST", "/admin/v1/sandbox/fund", { chain: "base", address: who.address, asset: "ETH", amount: "0.5" });
    expect(eth.status).toBe(200);
    expect(await t.pub.getBalance({ address: who.address })).toBe(500_000_000_000_000_000n);

    for (const bad of [
      { chain: "solana", address: who.address, asset: "USDC", amount: "1" },
      { chain: "base", address: "0x1234", asset: "USDC", amount: "1" },
      { chain: "base", address: who.address, asset: "DOGE", amount: "1" },
      { chain: "base", address: who.address, asset: "USDC", amount: "-1" },
      { chain: "base", address: who.address, asset: "USDC" },
    ]) {
      const r = await t.admin("POST", "/admin/v1/sandbox/fund", bad);
      expect(r.status, JSON.stringify(bad)).toBe(400);
    }
    const unauth = await t.request("POST", "/admin/v1/sandbox/fund", { body: { address: who.address, asset: "USDC", amount: "1" }, headers: { authorization: `Bearer ${ADMIN_TOKEN}x` } });
    expect(unauth.status).toBe(401);
  });
});

describe("invariants", () => {
  it("ledger sums equal balances", async () => {
    expect(await t.ledgerMismatches()).toEqual([]);
  });
});
