/**
 * Safe Starknet wallets through the real HTTP app and the sandbox node, on a manual clock: every proposal
 * (even an ALLOW) is held for the owner; the owner's confirmation re-simulates and executes it once; a held
 * proposal past the approval window expires, cannot be confirmed, and releases its daily-cap reservation.
 * The Chromium flow is in test/dashboard/e2e-starknet.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock";
import { freshFelt, startStarknetEscrow, type StarknetEscrow } from "./starknet-helpers";

const clock = new ManualClock(new Date());
let e: StarknetEscrow;

beforeAll(async () => {
  e = await startStarknetEscrow({ clock });
});
afterAll(async () => {
  expect(await e.ledgerMismatches()).toEqual([]);
  await e?.close();
});

async function safeWallet(key: string, name: string, limits?: Record<string, unknown>) {
  const w = await e.createStarknetWallet(key, { name, mode: "safe", ...(limits ? { limits } : {}) });
  await e.fundSn(w.address, "STRK", "5");
  await e.fundSn(w.address, "USDC", "100");
  return w;
}

describe("safe Starknet wallets", () => {
  it("holds an ALLOW for the owner; confirming executes it once, a second confirm is 409", async () => {
    const a = await e.createAccount(5);
    const w = await safeWallet(a.apiKey, "safe-1");
    const to = freshFelt();
    const r = await e.proposeSn(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "USDC", amount: "5", to } });
    expect(r.body).toMatchObject({ status: "awaiting_user", verdict: "ALLOW" });
    expect(r.body.reasoning).toMatch(/^Held for the owner: this is a safe wallet/);
    expect(r.body.approvalUrl).toBe(`${e.url}/dashboard/proposals/${r.body.txId}`);
    expect(await e.snNonce(w.address)).toBeNull();
    expect(await e.snBalance("USDC", to)).toBe(0n);

    const c = await e.json(await e.admin("POST", `/admin/v1/proposals/${r.body.txId}/confirm`));
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({ txId: r.body.txId, status: "executed" });
    expect(await e.snBalance("USDC", to)).toBe(5_000_000n);
    expect(await e.snNonce(w.address)).toBe(2n);
    const again = await e.json(await e.admin("POST", `/admin/v1/proposals/${r.body.txId}/confirm`));
    expect(again.status).toBe(409);
    expect(await e.snBalance("USDC", to)).toBe(5_000_000n);
    expect(await e.snNonce(w.address)).toBe(2n);
  });

  it("re-simulates at confirmation: a proposal that would now revert is not sent", async () => {
    const a = await e.createAccount(5);
    const w = await safeWallet(a.apiKey, "safe-2");
    const to = freshFelt();
    const r = await e.proposeSn(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "USDC", amount: "80", to } });
    expect(r.body.status).toBe("awaiting_user");
    // Meanwhile the owner withdraws most of the USDC.
    const wd = await e.json(await e.admin("POST", `/admin/v1/wallets/${w.id}/withdraw`, { asset: "USDC", amount: "50", to: freshFelt() }));
    expect(wd.status, JSON.stringify(wd.body)).toBe(200);
    const nonce = await e.snNonce(w.address);
    const c = await e.json(await e.admin("POST", `/admin/v1/proposals/${r.body.txId}/confirm`));
    expect(["blocked", "failed"], JSON.stringify(c.body)).toContain(c.body.status);
    expect(await e.snBalance("USDC", to)).toBe(0n);
    expect(await e.snNonce(w.address)).toBe(nonce);
  });

  it("a held proposal past the approval window expires, cannot be confirmed, and releases its reservation", async () => {
    const a = await e.createAccount(5);
    const w = await safeWallet(a.apiKey, "safe-slow", { dailyCapUsd: 10 });
    const to = freshFelt();
    const r = await e.proposeSn(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "USDC", amount: "8", to } });
    expect(r.body.status).toBe("awaiting_user");
    // While held it counts against the cap.
    expect((await e.proposeSn(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "USDC", amount: "5", to } })).body.reasoning).toMatch(/^dailyCapUsd/);
    clock.advance(60 * 60_000 + 1);
    const s = await e.json(await e.request("GET", `/api/v1/escrow-transactions/${r.body.txId}`, { key: a.apiKey }));
    expect(s.body).toMatchObject({ status: "expired", approvalUrl: null, txHash: null });
    const c = await e.json(await e.admin("POST", `/admin/v1/proposals/${r.body.txId}/confirm`));
    expect(c.status).toBe(409);
    expect(c.body).toMatchObject({ error: "invalid_state" });
    expect(c.body.message).toMatch(/expired/);
    expect((await e.proposeSn(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "USDC", amount: "5", to } })).body.status).toBe("awaiting_user");
    expect(await e.snBalance("USDC", to)).toBe(0n);
    expect(await e.snNonce(w.address)).toBeNull();
  });
});
