import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import type { Database } from "./client";

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");
/** Arbitrary constant: the advisory lock that serialises migrations across processes sharing PostgreSQL. */
const MIGRATION_LOCK = 7_114_220_211;

/** Applies every migrations/NNN_name.sql not yet applied, in name order, each in its own transaction. */
export async function migrate(db: Database): Promise<string[]> {
  const files = readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^\d{3}_[a-z0-9_]+\.sql$/.test(f))
    .sort();
  const applied: string[] = [];
  await db.transaction().execute(async (tx) => {
    await sql`select pg_advisory_xact_lock(${MIGRATION_LOCK})`.execute(tx);
    await sql`create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())`.execute(tx);
    const done = new Set((await sql<{ name: string }>`select name from schema_migrations`.execute(tx)).rows.map((r) => r.name));
    for (const f of files) {
      if (done.has(f)) continue;
      await sql.raw(readFileSync(path.join(MIGRATIONS_DIR, f), "utf8")).execute(tx);
      await sql`insert into schema_migrations (name) values (${f})`.execute(tx);
      applied.push(f);
    }
  });
  return applied;
}
