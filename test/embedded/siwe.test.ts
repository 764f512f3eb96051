/**
 * Connecting a self-custodial wallet, over HTTP with a signed-in dashboard client (no browser): what a
 * Sign-In with Ethereum attempt must prove (server nonce, exact message, domain/URI/chain, single use, expiry,
 * the session that asked), the confirmation API's refusals, the x402 check, and SPEC 7's legacy safe wallets.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSiweMessage } from "viem/siwe";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { ManualClock } from "../../src/lib/clock";
import { assertCanPayX402, canPayX402, checkCustody } from "../../src/wallets/custody/embedded";
import { DashboardClient } from "../dashboard/client";
import { freshAddress, startEscrowRuntime, type EscrowRuntime } from "../wallets/helpers";

let e: EscrowRuntime;
const clock = new ManualClock();
let d: DashboardClient;
let accountId = "";

beforeAll(async () => {
  e = await startEscrowRuntime({ clock });
  d = new DashboardClient(e);
  await d.signUp("siwe@example.com");
  accountId = (await e.runtime.database.db.selectFrom("users").select("account_id").where("email", "=", "siwe@example.com").executeTakeFirstOrThrow()).account_id;
});
afterAll(async () => e?.close());

/** A JSON POST to the dashboard API as `client` (its session cookie and CSRF token). */
async function api(client: DashboardClient, path: string, body: unknown) {
  await client.get("/dashboard/wallets/connect");
  const res = await e.app.request(path, {
    method: "POST",
    headers: { cookie: `__Host-arbiter_session=${client.cookie("__Host-arbiter_session")}`, origin: client.origin, "content-type": "application/json", "x-csrf-token": client.csrf() },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

const challenge = async (account: PrivateKeyAccount, client = d) => (await api(client, "/dashboard/api/embedded/challenge", { address: account.address })).body.message as string;
const connect = (message: string, signature: string, name: string, client = d) => api(client, "/dashboard/api/embedded/wallets", { message, signature, name, mandate: "[judge:allow]" });

describe("Sign-In with Ethereum", () => {
  it("issues a message bound to this deployment: domain, URI, chain 8453, a server nonce, 10-minute expiry", async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const message = await challenge(owner);
    expect(message.split("\n")[0]).toBe("http://arbiter.test wants you to sign in with your Ethereum account:");
    expect(message).toContain(owner.address);
    expect(message).toContain("URI: http://arbiter.test/dashboard/wallets/connect");
    expect(message).toContain("Chain ID: 8453");
    expect(message).toMatch(/Nonce: [A-Za-z0-9]{24}\n/);
    expect(message).toMatch(/Expiration Time: /);
    const r = await connect(message, await owner.signMessage({ message }), "first");
    expect(r.status).toBe(201);
    expect(r.body.address).toBe(owner.address);
    // Single use: the same signed message again is refused.
    const again = await connect(message, await owner.signMessage({ message }), "second");
    expect(again).toMatchObject({ status: 400, body: { error: "create_failed" } });
    expect(again.body.message).toMatch(/unknown, expired or already used/);
    // One address backs one wallet.
    const m2 = await challenge(owner);
    expect((await connect(m2, await owner.signMessage({ message: m2 }), "third")).body.message).toMatch(/already backs a wallet/);
  });

  it("refuses a signature by another key, and the attempt uses up the challenge", async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const thief = privateKeyToAccount(generatePrivateKey());
    const message = await challenge(owner);
    expect((await connect(message, await thief.signMessage({ message }), "stolen")).body.message).toMatch(/does not prove control/);
    expect((await connect(message, await owner.signMessage({ message }), "late")).body.message).toMatch(/already used/);
  });

  it("refuses a message that differs from the one issued (another domain), and an expired challenge", async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const issued = await challenge(owner);
    const nonce = /Nonce: (\w+)/.exec(issued)![1];
    const forged = createSiweMessage({ domain: "evil.example", address: owner.address, uri: "https://evil.example/", version: "1", chainId: 8453, nonce, issuedAt: clock.now() });
    expect((await connect(forged, await owner.signMessage({ message: forged }), "forged")).body.message).toMatch(/not the one this dashboard issued|unknown, expired/);

    const late = await challenge(owner);
    clock.advance(11 * 60_000);
    expect((await connect(late, await owner.signMessage({ message: late }), "late")).body.message).toMatch(/unknown, expired or already used/);
  });

  it("a challenge belongs to the session that asked for it", async () => {
    const other = new DashboardClient(e);
    await other.signUp("other-siwe@example.com");
    const owner = privateKeyToAccount(generatePrivateKey());
    const message = await challenge(owner);
    expect((await connect(message, await owner.signMessage({ message }), "elsewhere", other)).body.message).toMatch(/unknown, expired or already used/);
    // Without the CSRF token the API refuses before anything else.
    const res = await e.app.request("/dashboard/api/embedded/challenge", {
      method: "POST",
      headers: { cookie: `__Host-arbiter_session=${d.cookie("__Host-arbiter_session")}`, origin: d.origin, "content-type": "application/json" },
      body: JSON.stringify({ address: owner.address }),
    });
    expect(res.status).toBe(403);
  });

  it("the confirmation API needs a prepared confirmation and a well-formed hash", async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    await e.fund(owner.address, "ETH", "1");
    const message = await challenge(owner);
    const w = await connect(message, await owner.signMessage({ message }), "prep");
    const apiKey = await d.createKey();
    await e.admin("POST", `/admin/v1/accounts/${accountId}/credits`, { credits: 5, reason: "test" });
    const p = await e.propose(apiKey, w.body.id, { kind: "transfer", transfer: { asset: "ETH", amount: "0.01", to: freshAddress() } });
    expect(p.body.status).toBe("awaiting_user");
    const early = await api(d, `/dashboard/api/embedded/proposals/${p.body.txId}/submit`, { txHash: `0x${"ab".repeat(32)}` });
    expect(early).toMatchObject({ status: 409, body: { error: "invalid_state" } });
    expect(early.body.message).toMatch(/press Confirm first/);
    expect((await api(d, `/dashboard/api/embedded/proposals/${p.body.txId}/submit`, { txHash: "0x1234" })).status).toBe(400);
    // Another account's owner cannot prepare it.
    const other = new DashboardClient(e);
    await other.signUp("nosy@example.com");
    expect((await api(other, `/dashboard/api/embedded/proposals/${p.body.txId}/prepare`, {})).status).toBe(404);
  });
});

describe("x402 and legacy safe wallets (SPEC 4.12, 7)", () => {
  it("exposes the x402 refusal for self-custodial wallets", () => {
    expect(canPayX402({ custody: "server" })).toEqual({ ok: true });
    expect(canPayX402({ custody: "embedded" })).toMatchObject({ ok: false });
    expect(() => assertCanPayX402({ custody: "embedded" })).toThrow(/cannot pay x402/);
    expect(() => checkCustody({ custody: "embedded" }, { kind: "x402_payment" })).toThrow(/cannot pay x402/);
    expect(() => checkCustody({ custody: "embedded" }, { kind: "evm_calls", payload: { delegate: "0x0000000000000000000000000000000000000001" } })).toThrow(/batches/);
    expect(() => checkCustody({ custody: "embedded" }, { kind: "transfer", payload: { delegate: null } })).not.toThrow();
  });

  it("a safe wallet from before self-custodial safe mode can no longer transact: propose 409 propose_failed, held proposals cannot be confirmed", async () => {
    const a = await e.createAccount(10);
    const w = await e.createWallet(a.apiKey, { name: "old-safe", mode: "safe" });
    await e.fund(w.address, "ETH", "1");
    const held = await e.propose(a.apiKey, "old-safe", { kind: "transfer", transfer: { asset: "ETH", amount: "0.01", to: freshAddress() } });
    expect(held.body.status).toBe("awaiting_user");
    await e.runtime.database.db.updateTable("wallets").set({ legacy_safe: true }).where("id", "=", w.id).execute();

    const r = await e.propose(a.apiKey, "old-safe", { kind: "transfer", transfer: { asset: "ETH", amount: "0.01", to: freshAddress() } });
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ error: "propose_failed" });
    expect(r.body.message).toMatch(/created before self-custodial safe mode and can no longer transact/);
    expect(await e.credits(a.apiKey)).toBe(9); // only the first proposal was judged
    const c = await e.json(await e.admin("POST", `/admin/v1/proposals/${held.body.txId}/confirm`));
    expect(c.status).toBe(409);
    expect(c.body.message).toMatch(/can no longer transact/);
    // Still readable, and its funds can be read and withdrawn by the owner.
    const list = await e.json(await e.request("GET", "/api/v1/wallets", { key: a.apiKey }));
    expect(list.body.wallets.map((x: { name: string }) => x.name)).toContain("old-safe");
    expect((await e.request("GET", "/api/v1/wallets/old-safe/balances", { key: a.apiKey })).status).toBe(200);
  });
});
