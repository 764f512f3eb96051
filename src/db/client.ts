import { mkdirSync } from "node:fs";
import path from "node:path";
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import type { DB } from "./schema";
import { PGliteDialect } from "./pglite-dialect";
import { startPGliteWorker } from "./pglite-worker";
import { initPGliteDataDir } from "./pglite-init";

export type Database = Kysely<DB>;

export interface DatabaseHandle {
  db: Database;
  kind: "pglite" | "postgres";
  close(): Promise<void>;
}

/**
 * Opens the database: PostgreSQL when a URL is given, else PGlite in `dataDir` (or in memory when
 * dataDir is null, for tests). With `schema`, PostgreSQL work happens in that schema (created if absent),
 * which is how tests and CI isolate runs sharing one server.
 */
export async function openDatabase(opts: { url?: string; schema?: string; dataDir?: string | null; pgliteWorker?: boolean }): Promise<DatabaseHandle> {
  if (opts.url) {
    if (opts.schema) {
      const admin = new pg.Client({ connectionString: opts.url });
      await admin.connect();
      try {
        await admin.query(`CREATE SCHEMA IF NOT EXISTS "${opts.schema}"`);
      } finally {
        await admin.end();
      }
    }
    const pool = new pg.Pool({
      connectionString: opts.url,
      max: 10,
      ...(opts.schema ? { options: `-c search_path="${opts.schema}"` } : {}),
    });
    // A connection that dies (server restart) is dropped from the pool; the next query opens a new one.
    pool.on("error", () => {});
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return { db, kind: "postgres", close: () => db.destroy() };
  }
  if (opts.dataDir) {
    mkdirSync(path.dirname(opts.dataDir), { recursive: true });
    await initPGliteDataDir(opts.dataDir);
  }
  if (opts.pgliteWorker) {
    const db = new Kysely<DB>({ dialect: new PGliteDialect(await startPGliteWorker(opts.dataDir ?? null)) });
    return { db, kind: "pglite", close: () => db.destroy() };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const pglite = opts.dataDir ? new PGlite(opts.dataDir) : new PGlite();
  await pglite.waitReady;
  const db = new Kysely<DB>({ dialect: new PGliteDialect(pglite) });
  return { db, kind: "pglite", close: () => db.destroy() };
}

export async function dropSchema(url: string, schema: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await c.end();
  }
}

export const ping = async (db: Database): Promise<void> => {
  await sql`select 1`.execute(db);
};
