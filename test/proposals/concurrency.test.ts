/**
 * The rolling daily cap and nonce assignment under concurrent proposals on one wallet (real anvil,
 * real database: PGlite, or PostgreSQL when DATABASE_URL is set).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshAddress, startEscrowRuntime, type EscrowRuntime } from "../wallets/helpers";

let t: EscrowRuntime;
beforeAll(async () => {
  t = await startEscrowRuntime();
});
afterAll(async () => {
  expect(await t.ledgerMismatches()).toEqual([]);
  await t?.close();
});

describe("concurrency", () => {
  it("ten concurrent proposals of 30% of the daily cap: exactly three execute", async () => {
    const a = await t.createAccount(20);
    const w = await t.createWallet(a.apiKey, { name: "capped", limits: { dailyCapUsd: 100 } });
    await t.fund(w.address, "ETH", "1");
    await t.fund(w.address, "USDC", "1000");
    const bob = freshAddress();
    const results = await Promise.all(Array.from({ length: 10 }, () => t.propose(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "USDC", amount: "30", to: bob } })));
    const statuses = results.map((r) => r.body.status).sort();
    expect(statuses.filter((s) => s === "executed")).toHaveLength(3);
    expect(statuses.filter((s) => s === "blocked")).toHaveLength(7);
    for (const r of results.filter((x) => x.body.status === "blocked")) {
      expect(r.body).toMatchObject({ verdict: "BLOCK", scanId: null, creditsRemaining: null });
      expect(r.body.reasoning).toMatch(/^dailyCapUsd: /);
    }
    expect(await t.usdcOf(bob)).toBe(90_000_000n);
    expect(await t.nonceOf(w.address)).toBe(3);
    // Only the three judged proposals were charged.
    expect(await t.credits(a.apiKey)).toBe(17);
  });

  it("assigns nonces one by one: concurrent proposals without a cap all execute", async () => {
    const a = await t.createAccount(20);
    const w = await t.createWallet(a.apiKey, { name: "busy" });
    await t.fund(w.address, "ETH", "1");
    await t.fund(w.address, "USDC", "100");
    const bob = freshAddress();
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => t.propose(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "USDC", amount: String(i + 1), to: bob } })));
    expect(results.map((r) => r.body.status)).toEqual(Array(6).fill("executed"));
    expect(new Set(results.map((r) => r.body.txHash)).size).toBe(6);
    expect(await t.usdcOf(bob)).toBe(21_000_000n);
    expect(await t.nonceOf(w.address)).toBe(6);
  });
});
