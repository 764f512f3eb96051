/**
 * Group commit of completed runs (src/verification/batch-writer.ts): batches really form under concurrency,
 * and every run keeps the guarantees of a run written alone.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createVerificationWriter } from "../../src/verification/batch-writer";
import { randomHex32 } from "../../src/lib/hashing";
import { uuid } from "../../src/lib/ids";
import { startTestRuntime, type TestRuntime } from "../helpers/runtime";

let t: TestRuntime;
beforeAll(async () => {
  t = await startTestRuntime();
});
afterAll(async () => {
  await t.close();
});

const VERIFY = { intent: "Trade only BTC and ETH perpetuals on Hyperliquid. Max notional $2,000 per order.", action: "buy 0.01 BTC perpetual on Hyperliquid at market" };

const row = (accountId: string, id = uuid()) => ({
  id,
  account_id: accountId,
  request_hash: randomHex32(),
  source: "api",
  mode: "semantic" as const,
  venue: null,
  action_family: null,
  action_type: null,
  preset: "default",
  intent: "test",
  action: JSON.stringify("pay"),
  context: null,
  facts: null,
  anchor_tx: null,
  status: "COMPLETED" as const,
  verdict: "ALLOW",
  reasoning: "ok",
  provider: "rules",
  transcript: JSON.stringify([{ kind: "x", data: 1 }]),
  transcript_root: randomHex32(),
  output_hash: randomHex32(),
  signature: `0x${"ab".repeat(65)}`,
  judge: `0x${"cd".repeat(20)}`,
  completed_at: new Date(),
});

async function ledger(accountId: string) {
  return t.runtime.database.db.selectFrom("credit_entries").select(["delta", "balance_after", "ref"]).where("account_id", "=", accountId).orderBy("id").execute();
}

describe("group commit of verification runs", () => {
  it("concurrent runs across accounts share statements; ledgers and balances stay exact", async () => {
    const accounts = await Promise.all(Array.from({ length: 6 }, () => t.createAccount(40)));
    const before = t.runtime.services.verification.writerStats();
    const results = await Promise.all(accounts.flatMap((a) => Array.from({ length: 12 }, () => Promise.resolve(t.request("POST", "/api/v1/intent", { key: a.apiKey, body: VERIFY })).then((r) => r.status))));
    expect(results.every((s) => s === 201)).toBe(true);
    const after = t.runtime.services.verification.writerStats();
    expect(after.runs - before.runs).toBe(72);
    expect(after.statements - before.statements).toBeLessThan(72);
    expect(after.largestBatch).toBeGreaterThan(1);
    // No batch failed (on PostgreSQL two batches run at once; their row locks are taken in id order).
    expect(after.fallbacks - before.fallbacks).toBe(0);
    for (const a of accounts) {
      const entries = await ledger(a.accountId);
      // opening grant, then 12 debits whose balance_after steps down by one in ledger order
      expect(entries.map((e) => e.balance_after)).toEqual([40, ...Array.from({ length: 12 }, (_, i) => 39 - i)]);
      const runs = await t.runtime.database.db.selectFrom("verifications").select("id").where("account_id", "=", a.accountId).execute();
      expect(new Set(entries.slice(1).map((e) => e.ref))).toEqual(new Set(runs.map((r) => r.id)));
    }
    expect(await t.ledgerMismatches()).toEqual([]);
  });

  it("an account short of credit for its runs in a batch gets exactly as many as it can pay for", async () => {
    const poor = await t.createAccount(3);
    const rich = await t.createAccount(100);
    const statuses = await Promise.all([
      ...Array.from({ length: 8 }, () => Promise.resolve(t.request("POST", "/api/v1/intent", { key: poor.apiKey, body: VERIFY })).then((r) => `poor ${r.status}`)),
      ...Array.from({ length: 8 }, () => Promise.resolve(t.request("POST", "/api/v1/intent", { key: rich.apiKey, body: VERIFY })).then((r) => `rich ${r.status}`)),
    ]);
    expect(statuses.filter((s) => s === "poor 201")).toHaveLength(3);
    expect(statuses.filter((s) => s === "poor 402")).toHaveLength(5);
    expect(statuses.filter((s) => s === "rich 201")).toHaveLength(8);
    expect((await ledger(poor.accountId)).map((e) => e.balance_after)).toEqual([3, 2, 1, 0]);
    expect(await t.ledgerMismatches()).toEqual([]);
  });

  it.each([
    { name: "one statement at a time", pipelined: false },
    { name: "pipelined on the worker thread", pipelined: true },
  ])("one run the database refuses fails alone; the rest of its batch is written ($name)", async ({ pipelined }) => {
    const a = await t.createAccount(10);
    if (pipelined && !t.runtime.database.pipelined) return; // PGlite on the event loop: no pipelined path
    const writer = createVerificationWriter(t.runtime.database.db, { pipelined: pipelined ? t.runtime.database.pipelined : null });
    const dup = uuid();
    const writes = [row(a.accountId), row(a.accountId, dup), row(a.accountId), row(a.accountId, dup), row(a.accountId)].map((r) =>
      writer.write({ debit: { accountId: a.accountId, reason: "verification", ref: r.id }, row: r }).then(
        (b) => ({ ok: true, b }),
        (e: unknown) => ({ ok: false, e: String(e) }),
      ),
    );
    const out = await Promise.all(writes);
    expect(out.filter((o) => o.ok)).toHaveLength(4);
    expect(out.filter((o) => !o.ok)).toHaveLength(1); // the second run with the same id
    const entries = await ledger(a.accountId);
    expect(entries.map((e) => e.balance_after)).toEqual([10, 9, 8, 7, 6]);
    expect(writer.stats().largestBatch).toBeGreaterThan(1);
    expect(await t.ledgerMismatches()).toEqual([]);
  });
});
