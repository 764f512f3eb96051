/**
 * Issue 18, item 6: a crash after the judge ran hid the verdict and kept the credit. After kill -9,
 * proposals whose judge had answered (one credit charged) were swept to `blocked` "interrupted before a
 * decision" with no verdict, no scanId and no refund. The sweep (src/proposals/interrupted.ts) now keeps
 * the verification: the proposal shows the run's verdict and scanId and is decided again from them (an
 * ALLOW that would have executed is held for the owner). Here the database is put in the exact state the
 * crash leaves (the run completed and charged, the proposal still `verifying` with nothing of the
 * verdict), then the real sweep runs; test/proposals/crash-judged.test.ts kills the real process.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshAddress, startEscrowRuntime, type EscrowRuntime } from "../wallets/helpers";

let t: EscrowRuntime;
beforeAll(async () => {
  t = await startEscrowRuntime();
});
afterAll(async () => {
  await t?.close();
});

const HOUR_AGO = () => new Date(Date.now() - 3_600_000);

/** What the crash leaves: the proposal recorded and still `verifying`, none of the judge's answer on it. */
async function crashBeforeDecision(id: string) {
  await t.runtime.database.db
    .updateTable("proposals")
    .set({ status: "verifying", verdict: null, reasoning: null, scan_id: null, credits_remaining: null, proof: null, approval_expires_at: null, tx_hash: null, signed_tx: null, nonce: null, signed_at: null, error: null, updated_at: HOUR_AGO() })
    .where("id", "=", id)
    .execute();
}

/** The ledger: every entry of the account, oldest first, as [delta, reason, ref]. */
async function ledger(accountId: string) {
  const rows = await t.runtime.database.db.selectFrom("credit_entries").select(["delta", "reason", "ref"]).where("account_id", "=", accountId).orderBy("id").execute();
  return rows.map((r) => [r.delta, r.reason, r.ref]);
}

const row = (id: string) => t.runtime.database.db.selectFrom("proposals").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

describe("a proposal interrupted after its judge answered", () => {
  it("keeps the verification: verdict, scanId and receipt stay; an ALLOW is held for the owner, a BLOCK is blocked; nothing refunded or charged again", async () => {
    const a = await t.createAccount(10);
    const bob = freshAddress();
    const auto = await t.createWallet(a.apiKey, { name: "auto", mandate: "[judge:allow] pay suppliers" });
    await t.fund(auto.address, "ETH", "1");
    await t.fund(auto.address, "USDC", "100");
    const blocking = await t.createWallet(a.apiKey, { name: "blocking", mandate: "[judge:block] nothing" });
    await t.fund(blocking.address, "ETH", "1");
    await t.fund(blocking.address, "USDC", "100");

    const allowed = await t.propose(a.apiKey, auto.id, { kind: "transfer", transfer: { asset: "USDC", amount: "3", to: bob } });
    expect(allowed.body).toMatchObject({ status: "executed", verdict: "ALLOW" });
    const blocked = await t.propose(a.apiKey, blocking.id, { kind: "transfer", transfer: { asset: "USDC", amount: "3", to: bob } });
    expect(blocked.body).toMatchObject({ status: "blocked", verdict: "BLOCK" });
    const runs = { allow: allowed.body.scanId as string, block: blocked.body.scanId as string };
    const before = await ledger(a.accountId);
    expect(before.filter((e) => e[0] === -1)).toEqual([
      [-1, `proposal:${allowed.body.txId}`, runs.allow],
      [-1, `proposal:${blocked.body.txId}`, runs.block],
    ]);

    await crashBeforeDecision(allowed.body.txId);
    await crashBeforeDecision(blocked.body.txId);
    const report = await t.runtime.services.proposals.reconcile();
    expect(report.interrupted).toBe(2);

    // The ALLOW that would have executed: held for the owner, with its verdict, scanId and receipt.
    const held = await row(allowed.body.txId);
    expect(held).toMatchObject({ status: "awaiting_user", verdict: "ALLOW", scan_id: runs.allow, credits_remaining: 9 }); // the balance after its own debit
    expect(held.reasoning).toMatch(/^Held for the owner: the service stopped after the judge allowed it.*The judge allowed it: within the mandate/);
    expect(held.approval_expires_at).not.toBeNull();
    expect((held.proof as { transcriptUri: string }).transcriptUri).toContain(runs.allow);
    const view = await t.json(await t.request("GET", `/api/v1/escrow-transactions/${allowed.body.txId}`, { key: a.apiKey }));
    expect(view.body).toMatchObject({ status: "awaiting_user", verdict: "ALLOW", approvalUrl: expect.stringContaining(allowed.body.txId) });
    const receipt = await t.json(await t.request("GET", `/api/v1/intent/${runs.allow}`, { key: a.apiKey }));
    expect(receipt.body).toMatchObject({ id: runs.allow, status: "COMPLETED", verdict: "ALLOW" });

    // The BLOCK: blocked with the judge's own verdict and reasoning.
    const gone = await row(blocked.body.txId);
    expect(gone).toMatchObject({ status: "blocked", verdict: "BLOCK", scan_id: runs.block, reasoning: "the mandate forbids this", credits_remaining: 8 });
    const blockedView = await t.json(await t.request("GET", `/api/v1/escrow-transactions/${blocked.body.txId}`, { key: a.apiKey }));
    expect(blockedView.body).toMatchObject({ status: "blocked", verdict: "BLOCK" });

    // Nothing refunded, nothing charged again: the ledger is what it was, and the balance agrees.
    expect(await ledger(a.accountId)).toEqual(before);
    const credits = await t.json(await t.request("GET", "/api/v1/credits", { key: a.apiKey }));
    expect(credits.body.creditsRemaining).toBe(8);

    // The owner decides the held one from the stored verdict: confirming executes it (a second transfer on chain).
    const bobBefore = await t.usdcOf(bob);
    const confirmed = await t.json(await t.admin("POST", `/admin/v1/proposals/${allowed.body.txId}/confirm`));
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ status: "executed", verdict: "ALLOW", scanId: runs.allow });
    expect((await t.usdcOf(bob)) - bobBefore).toBe(3_000_000n);
    expect(await ledger(a.accountId)).toEqual(before); // confirmation is free
  });

  it("a proposal whose judge never answered is still blocked, nothing signed, no verdict invented", async () => {
    const a = await t.createAccount(10);
    const w = await t.createWallet(a.apiKey, { name: "never-judged", mandate: "[judge:allow]" });
    await t.fund(w.address, "ETH", "1");
    await t.fund(w.address, "USDC", "10");
    const r = await t.propose(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "USDC", amount: "1", to: freshAddress() } });
    const db = t.runtime.database.db;
    // A second proposal row recorded just before the crash, before its judge was called: no debit for it.
    const src = await row(r.body.txId);
    const id = `prop_interrupted_${Date.now()}`;
    await db.insertInto("proposals").values({ ...src, id, tx_hash: null, signed_tx: null, nonce: null, input: JSON.stringify(src.input), payload: JSON.stringify(src.payload), simulation: JSON.stringify(src.simulation), proof: null }).execute();
    await crashBeforeDecision(id);
    await t.runtime.services.proposals.reconcile();
    expect(await row(id)).toMatchObject({ status: "blocked", verdict: null, scan_id: null, reasoning: "interrupted before a decision; nothing was signed" });
    expect((await ledger(a.accountId)).filter((e) => e[0] === -1)).toHaveLength(1);
  });
});
