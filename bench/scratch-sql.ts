import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { openDatabase } from "../src/db/client";
import { migrate } from "../src/db/migrate";

const dataDir = mkdtempSync(path.join(tmpdir(), "arbiter-scratch-"));
const h = await openDatabase({ url: process.env.PGURL, schema: process.env.PGURL ? "scratch_sql" : undefined, dataDir: `${dataDir}/pglite`, pgliteWorker: process.env.WORKER === "1" });
const db = h.db;
await migrate(db);
await sql`create table if not exists t (id text primary key, payload jsonb)`.execute(db);
const N = 2000;
async function time(label: string, fn: (i: number) => Promise<unknown>) {
  for (let i = 0; i < 200; i++) await fn(i + 1e6);
  const t0 = performance.now();
  for (let i = 0; i < N; i++) await fn(i);
  console.log(`${label.padEnd(40)} ${(((performance.now() - t0) / N) * 1000).toFixed(0)} us`);
}
await time("select 1 (raw, simple)", () => sql`select 1`.execute(db));
await time("select $1 (bound)", (i) => sql`select ${i}::int as x`.execute(db));
await time("kysely select api_keys by hash", (i) => db.selectFrom("api_keys").select(["id", "account_id"]).where("key_hash", "=", String(i)).executeTakeFirst());
await time("insert one row", (i) => sql`insert into t values (${`a${i}-${Math.random()}`}, ${'{"a":1}'})`.execute(db));
await time("begin+insert+commit", (i) => db.transaction().execute((tx) => sql`insert into t values (${`b${i}-${Math.random()}`}, ${'{"a":1}'})`.execute(tx)));
const big = JSON.stringify({ x: "y".repeat(6000) });
await time("insert 6 kB jsonb", (i) => sql`insert into t values (${`c${i}-${Math.random()}`}, ${big})`.execute(db));
await h.close();
