/**
 * Pipelined statements on PGlite's worker thread (src/db/pglite-dialect.ts `pipelined`): posted without
 * waiting for earlier answers, yet never executed inside another caller's transaction.
 */
import { CompiledQuery, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "../../src/db/client";

let h: DatabaseHandle;
beforeAll(async () => {
  h = await openDatabase({ dataDir: null, pgliteWorker: true });
  await sql`create table marks (n int primary key, source text not null)`.execute(h.db);
});
afterAll(async () => {
  await h?.close();
});

const insert = (n: number, source: string) => CompiledQuery.raw("insert into marks (n, source) values ($1, $2) returning n", [n, source]);
const sources = async () => (await sql<{ n: number; source: string }>`select n, source from marks order by n`.execute(h.db)).rows;

describe("pipelined statements on the worker thread", () => {
  it("exist only where statements execute in posting order", async () => {
    expect(h.pipelined).toBeTypeOf("function");
    const inProcess = await openDatabase({ dataDir: null, pgliteWorker: false });
    try {
      expect(inProcess.pipelined).toBeNull();
    } finally {
      await inProcess.close();
    }
  });

  it("a statement posted while a transaction holds the session runs after it, outside it", async () => {
    await sql`truncate marks`.execute(h.db);
    let inside!: () => void;
    const entered = new Promise<void>((r) => (inside = r));
    const tx = h.db
      .transaction()
      .execute(async (t) => {
        await sql`insert into marks (n, source) values (1, 'rolled back')`.execute(t);
        inside();
        await new Promise((r) => setTimeout(r, 100));
        throw new Error("roll back");
      })
      .catch((e: Error) => e.message);
    await entered;
    // Posted while the transaction is open: had it joined the transaction, the rollback would undo it.
    const piped = h.pipelined!(insert(2, "pipelined"));
    expect(await tx).toBe("roll back");
    expect((await piped).rows).toEqual([{ n: 2 }]);
    expect(await sources()).toEqual([{ n: 2, source: "pipelined" }]);
  });

  it("many statements in flight at once all commit, in posting order, and errors stay with their statement", async () => {
    await sql`truncate marks`.execute(h.db);
    const out = await Promise.allSettled([insert(1, "a"), insert(2, "b"), insert(1, "duplicate"), insert(3, "c")].map((q) => h.pipelined!(q)));
    expect(out.map((o) => o.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled"]);
    expect(String((out[2] as PromiseRejectedResult).reason)).toMatch(/duplicate key/);
    expect(await sources()).toEqual([
      { n: 1, source: "a" },
      { n: 2, source: "b" },
      { n: 3, source: "c" },
    ]);
    // A transaction begun after a pipelined statement was posted sees it committed.
    void h.pipelined!(insert(4, "d"));
    const seen = await h.db.transaction().execute(async (t) => (await sql<{ c: number }>`select count(*)::int as c from marks`.execute(t)).rows[0].c);
    expect(seen).toBe(4);
  });
});
