/**
 * The embedded database's start-up and its optional worker thread (docs/performance.md):
 * - a fresh data directory is created by a short-lived child process and renamed into place, so the
 *   server never carries initdb's memory; an existing directory is reused, a stray non-empty one refused;
 * - on a worker thread (PGLITE_WORKER=true) the database keeps the same semantics: PostgreSQL errors keep
 *   their SQLSTATE (the HTTP layer maps 22021 and connection classes by it), transactions isolate, and
 *   concurrent conditional debits never take a balance below zero.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { openDatabase } from "../../src/db/client";
import { isPGliteDataDir } from "../../src/db/pglite-init";
import { migrate } from "../../src/db/migrate";
import { applyCreditChange, ledgerMismatches } from "../../src/credits/ledger";

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(path.join(tmpdir(), "arbiter-pglite-"));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("data directory", () => {
  it("is initialised out of process, then reopened with its data", { timeout: 60_000 }, async () => {
    const dir = path.join(tmp(), "pglite");
    const h = await openDatabase({ dataDir: dir });
    expect(isPGliteDataDir(dir)).toBe(true);
    await sql`create table kept (v text)`.execute(h.db);
    await sql`insert into kept values ('x')`.execute(h.db);
    await h.close();
    const again = await openDatabase({ dataDir: dir, pgliteWorker: true });
    expect((await sql<{ v: string }>`select v from kept`.execute(again.db)).rows).toEqual([{ v: "x" }]);
    await again.close();
  });

  it("refuses a non-empty directory that holds no database", async () => {
    const dir = path.join(tmp(), "pglite");
    mkdirSync(dir);
    writeFileSync(path.join(dir, "something"), "else");
    await expect(openDatabase({ dataDir: dir })).rejects.toThrow(/not empty and holds no database/);
  });
});

describe("on a worker thread", () => {
  it("keeps SQLSTATE codes, transactions and the ledger's guarantees", { timeout: 60_000 }, async () => {
    const h = await openDatabase({ dataDir: null, pgliteWorker: true });
    try {
      await migrate(h.db);
      const err = await sql`select ${"a\u0000b"}::text`.execute(h.db).catch((e: unknown) => e as { code?: string });
      expect(err).toMatchObject({ code: "22021" });

      await h.db.insertInto("accounts").values({ id: "acct_w", name: "w", credits_remaining: 0, topup_code: "svc_topup_w" }).execute();
      await applyCreditChange(h.db, { accountId: "acct_w", delta: 30, reason: "grant", ref: null });
      // A failed transaction leaves nothing behind.
      await expect(
        h.db.transaction().execute(async (tx) => {
          await applyCreditChange(tx, { accountId: "acct_w", delta: -5, reason: "x", ref: null });
          throw new Error("abort");
        }),
      ).rejects.toThrow("abort");
      // 50 concurrent debits of 1 on a balance of 30: exactly 30 succeed.
      const results = await Promise.all(Array.from({ length: 50 }, () => applyCreditChange(h.db, { accountId: "acct_w", delta: -1, reason: "debit", ref: null })));
      expect(results.filter((r) => r !== null)).toHaveLength(30);
      const row = await h.db.selectFrom("accounts").select("credits_remaining").where("id", "=", "acct_w").executeTakeFirstOrThrow();
      expect(row.credits_remaining).toBe(0);
      expect(await ledgerMismatches(h.db)).toEqual([]);
    } finally {
      await h.close();
    }
  });
});
