/**
 * No secret reaches the logs. The real service runs as a process at LOG_LEVEL=debug on the sandbox chain
 * through a full flow (admin API, API keys over x-api-key and Bearer, MCP with an API key and with an OAuth
 * token, dashboard sign-up, a dashboard-made key, an escrow wallet whose key signs a transaction, an x402
 * top-up, failed authentications); then everything it printed is searched for every secret involved:
 * the admin token, API keys, the OAuth access token, the dashboard password and session cookie, the
 * master key, the judge signing key, the sandbox seed, the wallet's private key (unsealed from the
 * database with the master key) and the payer's private key.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { x402Client } from "@x402/core/client";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { bytesToHex, getAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader, PAYMENT_REQUIRED_HEADER } from "../../src/x402";
import { MasterKey, type Envelope } from "../../src/wallets/custody/envelope";
import { DashboardClient } from "../dashboard/client";
import { freePort } from "../helpers/process";
import type { TestRuntime } from "../helpers/runtime";
import { ADMIN, call, serviceDatabase, startService, stop, type ServiceProcess } from "./helpers";

let svc: ServiceProcess | null = null;
const db = serviceDatabase("logs");
afterAll(async () => {
  await stop(svc, "SIGKILL");
  await db.cleanup();
});

describe("logs at LOG_LEVEL=debug over a full flow", () => {
  it("contain no secret", { timeout: 180_000 }, async () => {
    const port = await freePort();
    // PUBLIC_URL names the origin the dashboard client sends (test/dashboard/client.ts).
    svc = await startService({ ...db.env, PORT: String(port), SANDBOX: "true", SANDBOX_RPC_PORT: String(await freePort()), LOG_LEVEL: "debug", PUBLIC_URL: "http://localhost", JUDGE_PROVIDER: "rules" });
    const s = svc;
    const secrets: Record<string, string> = { adminToken: ADMIN };
    const VERIFY = { intent: "Trade only BTC.", action: "buy 0.01 BTC on Hyperliquid" };
    const mcp = (credential: string, body: unknown) => call(s, "POST", "/api/mcp", { headers: { authorization: `Bearer ${credential}`, accept: "application/json, text/event-stream" }, body });

    const a = (await call(s, "POST", "/admin/v1/accounts", { admin: true, body: { name: "logs", credits: 50 } })).body;
    secrets.apiKey = a.apiKey;
    secrets.apiKey2 = (await call(s, "POST", `/admin/v1/accounts/${a.accountId}/keys`, { admin: true })).body.apiKey;
    expect((await call(s, "POST", "/api/v1/intent", { key: a.apiKey, body: VERIFY })).status).toBe(201);
    expect((await call(s, "POST", "/api/v1/intent", { headers: { authorization: `Bearer ${secrets.apiKey2}` }, body: VERIFY })).status).toBe(201);
    expect((await mcp(a.apiKey, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "verify_intent", arguments: VERIFY } })).status).toBe(200);
    for (const wrong of [`${a.apiKey}x`, "svc_sk_live_not-a-key", ""]) await call(s, "GET", "/api/v1/credits", { key: wrong });
    await call(s, "GET", "/admin/v1/sandbox", { headers: { authorization: `Bearer ${ADMIN}x` } });

    const oauth = (await call(s, "POST", `/admin/v1/accounts/${a.accountId}/oauth-tokens`, { admin: true, body: { scope: "mcp wallet" } })).body;
    secrets.oauthToken = oauth.accessToken;
    expect((await mcp(oauth.accessToken, { jsonrpc: "2.0", id: 1, method: "tools/list" })).status).toBe(200);
    expect((await call(s, "DELETE", `/admin/v1/oauth-tokens/${oauth.tokenId}`, { admin: true })).status).toBe(204);
    expect((await mcp(oauth.accessToken, { jsonrpc: "2.0", id: 1, method: "tools/list" })).status).toBe(401);

    // The dashboard, driven over real HTTP.
    const shim = { app: { request: (p: string, init?: RequestInit) => fetch(`${s.url}${p}`, { ...init, redirect: "manual" }) } } as unknown as TestRuntime;
    const dash = new DashboardClient(shim);
    secrets.password = "correct horse battery staple, logged nowhere";
    await dash.signUp(`owner-${Date.now()}@example.com`, secrets.password);
    secrets.dashboardKey = await dash.createKey();
    secrets.sessionCookie = dash.cookie("__Host-arbiter_session")!;
    expect(secrets.sessionCookie).toBeTruthy();

    // An escrow wallet whose key signs a transfer.
    const bob = getAddress(privateKeyToAccount(generatePrivateKey()).address);
    const w = (await call(s, "POST", "/api/v1/wallets", { key: a.apiKey, body: { name: "w", chain: "base", mode: "autonomous", mandate: `Send at most 5 USDC per transfer to ${bob}.` } })).body;
    for (const [asset, amount] of [["ETH", "1"], ["USDC", "20"]]) await call(s, "POST", "/admin/v1/sandbox/fund", { admin: true, body: { chain: "base", address: w.address, asset, amount } });
    const p = await call(s, "POST", `/api/v1/wallets/${w.id}/propose`, { key: a.apiKey, body: { input: { kind: "transfer", chain: "base", transfer: { asset: "USDC", amount: "1", to: bob } } } });
    expect(p.body.status).toBe("executed");

    // An x402 top-up, paid with the official client.
    secrets.payerKey = generatePrivateKey();
    const payer = privateKeyToAccount(secrets.payerKey as `0x${string}`);
    await call(s, "POST", "/admin/v1/sandbox/fund", { admin: true, body: { chain: "base", address: payer.address, asset: "USDC", amount: "2" } });
    const terms = await call(s, "POST", "/api/v1/credits/topup?credits=20", { key: a.apiKey });
    const client = new x402Client();
    registerExactEvmScheme(client, { signer: payer });
    client.setSpendControls(false);
    const payment = encodePaymentSignatureHeader(await client.createPaymentPayload(decodePaymentRequiredHeader(terms.headers.get(PAYMENT_REQUIRED_HEADER)!)));
    expect((await call(s, "POST", "/api/v1/credits/topup?credits=20", { key: a.apiKey, headers: { "PAYMENT-SIGNATURE": payment } })).status).toBe(200);

    await stop(svc);
    const read = (f: string) => readFileSync(path.join(db.dataDir, f), "utf8").trim();
    secrets.masterKey = read("master-key");
    secrets.judgeKey = read("judge-key");
    secrets.sandboxSeed = read("sandbox/seed");
    const h = await db.open();
    try {
      const row = await h.db.selectFrom("wallets").select(["id", "address", "key_ref"]).where("id", "=", w.id).executeTakeFirstOrThrow();
      const secret = new MasterKey(secrets.masterKey).unwrap(JSON.parse(row.key_ref!) as Envelope, `arbiter.wallet-key.v1|${row.id}|${row.address.toLowerCase()}`);
      secrets.walletKey = bytesToHex(secret);
    } finally {
      await h.close();
    }

    const logs = s.output();
    expect(logs).toMatch(/Arbiter listening/); // the capture works
    for (const [name, value] of Object.entries(secrets)) {
      expect(value.length, name).toBeGreaterThanOrEqual(16);
      const forms = [value, value.replace(/^0x/, ""), value.toLowerCase().replace(/^0x/, "")];
      for (const f of forms) expect({ name, found: logs.includes(f) }).toEqual({ name, found: false });
    }
  });
});
