/**
 * Proposal reconcile claims each row (src/proposals/reconcile.ts with src/db/claim.ts keyClaimer): two
 * sweeps running at once on one PostgreSQL (two processes' sweeps; two pool connections here) act on each
 * `executing` proposal once. Without the claim both looked the transaction up and both counted it settled
 * (the status write itself was already guarded). `verifying` rows left by a crash are taken FOR UPDATE SKIP
 * LOCKED and blocked once. Real anvil, real PostgreSQL: skipped without DATABASE_URL (PGlite is one process).
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshAddress, startEscrowRuntime, type EscrowRuntime } from "../wallets/helpers";

const URL = process.env.DATABASE_URL;

describe.skipIf(!URL)("sweeps claim their rows", () => {
  let t: EscrowRuntime;
  beforeAll(async () => {
    t = await startEscrowRuntime();
  });
  afterAll(async () => {
    await t?.close();
  });

  it("two concurrent reconciles settle each executing proposal once, and settle each interrupted one once", async () => {
    const a = await t.createAccount(20);
    const w = await t.createWallet(a.apiKey, { name: "swept" });
    await t.fund(w.address, "ETH", "1");
    await t.fund(w.address, "USDC", "100");
    const bob = freshAddress();
    const sent: string[] = [];
    for (let i = 0; i < 6; i++) {
      const r = await t.propose(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "USDC", amount: "1", to: bob } });
      expect(r.body.status).toBe("executed");
      sent.push(r.body.txId as string);
    }
    const db = t.runtime.database.db;
    const old = new Date(Date.now() - 3_600_000);
    // What a crash leaves: signed, sent and mined, but still `executing` (4), or never decided (2; their
    // judge had answered, so the sweep keeps the verdict and holds them for the owner: interrupted.ts).
    await db.updateTable("proposals").set({ status: "executing", updated_at: old }).where("id", "in", sent.slice(0, 4)).execute();
    await db.updateTable("proposals").set({ status: "verifying", updated_at: old, tx_hash: null }).where("id", "in", sent.slice(4)).execute();

    const proposals = t.runtime.services.proposals;
    const reports = await Promise.all([proposals.reconcile(), proposals.reconcile()]);
    expect(reports[0].executed + reports[1].executed).toBe(4);
    expect(reports[0].interrupted + reports[1].interrupted).toBe(2);
    expect(reports[0].rebroadcast + reports[1].rebroadcast).toBe(0);
    const rows = await db.selectFrom("proposals").select(["status", sql<number>`count(*)::int`.as("n")]).where("id", "in", sent).groupBy("status").execute();
    expect(Object.fromEntries(rows.map((r) => [r.status, r.n]))).toEqual({ executed: 4, awaiting_user: 2 });
    // A later sweep finds nothing left to do.
    const again = await proposals.reconcile();
    expect(again.executed + again.interrupted + again.failed).toBe(0);
  }, 120_000);
});
