import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { x402Client } from "@x402/core/client";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { decodePaymentResponseHeader, wrapFetchWithPayment } from "@x402/fetch";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authorizationTypes } from "@x402/evm";
import { toFunctionSelector, toHex, type PrivateKeyAccount } from "viem";
import { BASE_USDC, BATCH_EXECUTOR, MULTICALL3, getFreePort, sandboxPublicClient, sandboxWalletClient, startSandbox, type Sandbox } from "../../src/sandbox";
import { SandboxUSDCAbi } from "../../src/sandbox/contracts";
import {
  FacilitatorUnavailableError,
  PAYMENT_REQUIRED_HEADER,
  PAYMENT_RESPONSE_HEADER,
  PAYMENT_SIGNATURE_HEADER,
  authorizationKey,
  buildPaymentRequired,
  buildUsdcPaymentRequirements,
  createLocalFacilitator,
  createRemoteFacilitator,
  decodePaymentRequiredHeader,
  encodePaymentRequiredHeader,
  encodePaymentResponseHeader,
  findMatchingRequirements,
  isFacilitatorUnavailable,
  parsePaymentSignatureHeader,
  startFacilitatorServer,
  type Facilitator,
  type FacilitatorServer,
  type PaymentPayload,
  type PaymentRequirements,
} from "../../src/x402";
import { fundedAccount } from "../sandbox/helpers";

const PRICE = 50_000n; // $0.05: one credit

let sb: Sandbox;
let local: ReturnType<typeof createLocalFacilitator>;
let facServer: FacilitatorServer;
let resource: { url: string; server: ServerType; facilitator: Facilitator };

/** A tiny paid resource: 402 + PAYMENT-REQUIRED, then verify + settle through `resource.facilitator`. */
function startResourceServer(): Promise<typeof resource> {
  const app = new Hono();
  const state = {} as typeof resource;
  app.get("/paid", async (c) => {
    const requirements = buildUsdcPaymentRequirements({ amount: PRICE, payTo: sb.accounts.payTo.address, maxTimeoutSeconds: 120 });
    const paymentRequired = (error: string) =>
      encodePaymentRequiredHeader(
        buildPaymentRequired({ accepts: [requirements], resource: { url: c.req.url, description: "test resource", mimeType: "application/json" }, error }),
      );
    const payload = parsePaymentSignatureHeader(c.req.header(PAYMENT_SIGNATURE_HEADER));
    if (!payload) return c.json({ error: "payment_required" }, 402, { [PAYMENT_REQUIRED_HEADER]: paymentRequired("payment_required") });
    const matched = findMatchingRequirements(payload, [requirements]);
    if (!matched) return c.json({ error: "terms_mismatch" }, 402, { [PAYMENT_REQUIRED_HEADER]: paymentRequired("terms_mismatch") });
    try {
      const v = await state.facilitator.verify(payload, matched);
      if (!v.isValid) return c.json({ error: v.invalidReason }, 402, { [PAYMENT_REQUIRED_HEADER]: paymentRequired(v.invalidReason ?? "invalid") });
      const s = await state.facilitator.settle(payload, matched);
      if (!s.success) {
        return c.json({ error: s.errorReason }, 402, {
          [PAYMENT_REQUIRED_HEADER]: paymentRequired(s.errorReason ?? "settle_failed"),
          [PAYMENT_RESPONSE_HEADER]: encodePaymentResponseHeader(s),
        });
      }
      return c.json({ ok: true, txHash: s.transaction, payer: s.payer, key: authorizationKey(payload) }, 200, {
        [PAYMENT_RESPONSE_HEADER]: encodePaymentResponseHeader(s),
      });
    } catch (e) {
      if (isFacilitatorUnavailable(e)) return c.json(e.body(), 502, e.headers);
      throw e;
    }
  });
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info: AddressInfo) => {
      Object.assign(state, { url: `http://127.0.0.1:${info.port}`, server });
      resolve(state);
    });
  });
}

function payingFetch(account: PrivateKeyAccount) {
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: account });
  return wrapFetchWithPayment(fetch, client);
}

const usdcBalance = (a: `0x${string}`) =>
  sandboxPublicClient(sb.rpcUrl).readContract({ address: BASE_USDC, abi: SandboxUSDCAbi, functionName: "balanceOf", args: [a] });

/** Sign a payment for the resource's terms without sending it (to call the facilitator directly). */
async function signPayment(account: PrivateKeyAccount): Promise<{ payload: PaymentPayload; requirements: PaymentRequirements }> {
  const res = await fetch(`${resource.url}/paid`);
  const required = decodePaymentRequiredHeader(res.headers.get(PAYMENT_REQUIRED_HEADER)!);
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: account });
  const payload = await client.createPaymentPayload(required);
  return { payload, requirements: required.accepts[0] };
}

beforeAll(async () => {
  sb = await startSandbox({});
  local = createLocalFacilitator({ rpcUrl: sb.rpcUrl, relayer: sb.accounts.relayerKey });
  facServer = await startFacilitatorServer({ facilitator: local });
  resource = await startResourceServer();
  resource.facilitator = local;
});
afterAll(async () => {
  resource?.server.close();
  await facServer?.close();
  await sb?.stop();
});

describe("x402 v2 end to end", () => {
  it("answers 402 with a v2 PAYMENT-REQUIRED for Base USDC", async () => {
    const res = await fetch(`${resource.url}/paid`);
    expect(res.status).toBe(402);
    const required = decodePaymentRequiredHeader(res.headers.get(PAYMENT_REQUIRED_HEADER)!);
    expect(required).toMatchObject({
      x402Version: 2,
      accepts: [
        {
          scheme: "exact",
          network: "eip155:8453",
          amount: "50000",
          asset: BASE_USDC,
          payTo: sb.accounts.payTo.address,
          extra: { name: "USD Coin", version: "2" },
        },
      ],
    });
  });

  it("@x402/fetch pays through the in-process facilitator and USDC moves on chain", async () => {
    const payer = await fundedAccount(sb, { usdc: "1" });
    const payToBefore = await usdcBalance(sb.accounts.payTo.address);
    const res = await payingFetch(payer)(`${resource.url}/paid`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { txHash: `0x${string}`; payer: string; key: string };
    const settle = decodePaymentResponseHeader(res.headers.get(PAYMENT_RESPONSE_HEADER)!);
    expect(settle).toMatchObject({ success: true, network: "eip155:8453", payer: payer.address, transaction: body.txHash });
    expect(body.key).toMatch(new RegExp(`^eip155:8453:${BASE_USDC.toLowerCase()}:${payer.address.toLowerCase()}:0x[0-9a-f]{64}$`));
    const receipt = await sandboxPublicClient(sb.rpcUrl).getTransactionReceipt({ hash: body.txHash });
    expect(receipt.status).toBe("success");
    expect(receipt.from.toLowerCase()).toBe(sb.accounts.relayer.address.toLowerCase());
    expect(await usdcBalance(payer.address)).toBe(1_000_000n - PRICE);
    expect(await usdcBalance(sb.accounts.payTo.address)).toBe(payToBefore + PRICE);
  });

  it("the same payment through the remote facilitator server", async () => {
    resource.facilitator = createRemoteFacilitator({ url: facServer.url });
    try {
      const payer = await fundedAccount(sb, { usdc: "1" });
      const res = await payingFetch(payer)(`${resource.url}/paid`);
      expect(res.status).toBe(200);
      expect(decodePaymentResponseHeader(res.headers.get(PAYMENT_RESPONSE_HEADER)!).success).toBe(true);
      expect(await usdcBalance(payer.address)).toBe(1_000_000n - PRICE);
      const supported = await resource.facilitator.supported();
      expect(supported.kinds).toEqual([{ x402Version: 2, scheme: "exact", network: "eip155:8453" }]);
      expect(JSON.stringify(supported.signers)).toContain(sb.accounts.relayer.address);
    } finally {
      resource.facilitator = local;
    }
  });

  it("an unreachable remote facilitator throws FacilitatorUnavailableError (502 + Retry-After upstream)", async () => {
    const dead = createRemoteFacilitator({ url: `http://127.0.0.1:${await getFreePort()}`, retryAfterSeconds: 7 });
    const payer = await fundedAccount(sb, { usdc: "1" });
    const { payload, requirements } = await signPayment(payer);
    const err = await dead.verify(payload, requirements).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FacilitatorUnavailableError);
    expect(err).toMatchObject({ operation: "verify", retryAfterSeconds: 7, kind: "upstream_failed", error: "facilitator_unavailable" });
    await expect(dead.settle(payload, requirements)).rejects.toBeInstanceOf(FacilitatorUnavailableError);
    await expect(dead.supported()).rejects.toBeInstanceOf(FacilitatorUnavailableError);

    resource.facilitator = dead;
    try {
      const res = await payingFetch(payer)(`${resource.url}/paid`);
      expect(res.status).toBe(502);
      expect(res.headers.get("retry-after")).toBe("7");
      expect(await res.json()).toMatchObject({ error: "facilitator_unavailable" });
    } finally {
      resource.facilitator = local;
    }
    expect(await usdcBalance(payer.address)).toBe(1_000_000n);
  });

  it("a local facilitator whose RPC node is down is unavailable too", async () => {
    const offline = createLocalFacilitator({ rpcUrl: `http://127.0.0.1:${await getFreePort()}`, relayer: sb.accounts.relayerKey });
    const payer = await fundedAccount(sb, { usdc: "1" });
    const { payload, requirements } = await signPayment(payer);
    await expect(offline.verify(payload, requirements)).rejects.toBeInstanceOf(FacilitatorUnavailableError);
    await expect(offline.settle(payload, requirements)).rejects.toBeInstanceOf(FacilitatorUnavailableError);
    // ... and behind the facilitator server, remote clients see it as unavailable (503 -> error)
    const srv = await startFacilitatorServer({ facilitator: offline });
    try {
      await expect(createRemoteFacilitator({ url: srv.url }).verify(payload, requirements)).rejects.toBeInstanceOf(FacilitatorUnavailableError);
    } finally {
      await srv.close();
    }
  });
});

describe("facilitator verdicts", () => {
  it("rejects a payer without funds (diagnosed through Multicall3)", async () => {
    const broke = await fundedAccount(sb);
    const { payload, requirements } = await signPayment(broke);
    for (const f of [local, createRemoteFacilitator({ url: facServer.url })]) {
      const v = await f.verify(payload, requirements);
      expect(v).toMatchObject({ isValid: false, invalidReason: "invalid_exact_evm_insufficient_balance", payer: broke.address });
    }
  });

  it("settles an authorization once; a replay is refused as nonce_already_used", async () => {
    const payer = await fundedAccount(sb, { usdc: "1" });
    const { payload, requirements } = await signPayment(payer);
    expect(await local.verify(payload, requirements)).toMatchObject({ isValid: true });
    const first = await local.settle(payload, requirements);
    expect(first.success).toBe(true);
    expect(await local.verify(payload, requirements)).toMatchObject({ isValid: false, invalidReason: "invalid_exact_evm_nonce_already_used" });
    const second = await createRemoteFacilitator({ url: facServer.url }).settle(payload, requirements);
    expect(second.success).toBe(false);
    expect(await usdcBalance(payer.address)).toBe(1_000_000n - PRICE);
  });

  it("refuses a payment for other terms (wrong amount)", async () => {
    const payer = await fundedAccount(sb, { usdc: "1" });
    const { payload, requirements } = await signPayment(payer);
    const dearer = { ...requirements, amount: "60000" };
    expect(findMatchingRequirements(payload, [dearer])).toBeUndefined();
    expect(await local.verify(payload, dearer)).toMatchObject({ isValid: false });
  });

  it("settles concurrent payments from one relayer without nonce clashes", async () => {
    const payers = await Promise.all([1, 2, 3].map(() => fundedAccount(sb, { usdc: "1" })));
    const signed = await Promise.all(payers.map(signPayment));
    const results = await Promise.all(signed.map(({ payload, requirements }) => local.settle(payload, requirements)));
    expect(results.map((r) => r.success)).toEqual([true, true, true]);
    expect(new Set(results.map((r) => r.transaction)).size).toBe(3);
  });

  it("an EIP-7702 delegated payer pays when its delegate implements ERC-1271; otherwise the signature is refused", async () => {
    const delegated = async (target: `0x${string}`, data: `0x${string}` = "0x") => {
      const payer = await fundedAccount(sb, { eth: "1", usdc: "1" });
      const w = sandboxWalletClient(sb.rpcUrl, payer);
      const authorization = await w.signAuthorization({ contractAddress: target, executor: "self" });
      await w.waitForTransactionReceipt({ hash: await w.sendTransaction({ authorizationList: [authorization], to: payer.address, data }) });
      return payer;
    };
    const good = await delegated(BATCH_EXECUTOR);
    const res = await payingFetch(good)(`${resource.url}/paid`);
    expect(res.status).toBe(200);

    // No isValidSignature (nor receive()): SPEC's wallet_unsupported case. Call getChainId() to delegate.
    const unsupported = await delegated(MULTICALL3, toFunctionSelector("getChainId()"));
    const { payload, requirements } = await signPayment(unsupported);
    expect(await local.verify(payload, requirements)).toMatchObject({ isValid: false, invalidReason: "invalid_exact_evm_signature" });
  });

  it("on an idle chain a simulation sees an old timestamp; mineWhenStaleSeconds (sandbox default) fixes it", async () => {
    const payer = await fundedAccount(sb, { usdc: "1" }); // last block mined now (t0)
    // 3 s of idle chain, and validAfter 2 s back: after t0's block, yet a second clear of a freshly mined block even
    // when anvil's clock and this process's round to different seconds (a loaded CI machine saw exactly that).
    await new Promise((r) => setTimeout(r, 3100));
    const requirements = buildUsdcPaymentRequirements({ amount: PRICE, payTo: sb.accounts.payTo.address });
    const now = Math.floor(Date.now() / 1000);
    const authorization = {
      from: payer.address,
      to: sb.accounts.payTo.address,
      value: requirements.amount,
      validAfter: String(now - 2), // later than t0: valid now, not yet valid in the latest block
      validBefore: String(now + 120),
      nonce: toHex(randomBytes(32)),
    };
    const signature = await payer.signTypedData({
      domain: { name: "USD Coin", version: "2", chainId: 8453, verifyingContract: BASE_USDC },
      types: authorizationTypes,
      primaryType: "TransferWithAuthorization",
      message: { ...authorization, value: BigInt(authorization.value), validAfter: BigInt(authorization.validAfter), validBefore: BigInt(authorization.validBefore) },
    });
    const payload: PaymentPayload = { x402Version: 2, accepted: requirements, payload: { authorization, signature } };

    expect(await local.verify(payload, requirements)).toMatchObject({
      isValid: false,
      invalidReason: "invalid_exact_evm_transaction_simulation_failed",
      invalidMessage: expect.stringMatching(/authorization is not yet valid/),
    });
    const fresh = sb.createFacilitator({ mineWhenStaleSeconds: 1 });
    expect(await fresh.verify(payload, requirements)).toMatchObject({ isValid: true });
    expect((await fresh.settle(payload, requirements)).success).toBe(true);
  });

  it("the facilitator server answers malformed requests with 400 and enforces its bearer token", async () => {
    const bad = await fetch(`${facServer.url}/verify`, { method: "POST", body: "{nope" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ isValid: false, invalidReason: "invalid_payload" });
    expect((await fetch(`${facServer.url}/nope`)).status).toBe(404);

    const guarded = await startFacilitatorServer({ facilitator: local, authToken: "s3cret" });
    try {
      expect((await fetch(`${guarded.url}/supported`)).status).toBe(401);
      const ok = createRemoteFacilitator({
        url: guarded.url,
        createAuthHeaders: async () => {
          const h = { Authorization: "Bearer s3cret" };
          return { verify: h, settle: h, supported: h };
        },
      });
      expect((await ok.supported()).kinds.length).toBeGreaterThan(0);
      await expect(createRemoteFacilitator({ url: guarded.url }).supported()).rejects.toBeInstanceOf(FacilitatorUnavailableError);
    } finally {
      await guarded.close();
    }
  });
});
