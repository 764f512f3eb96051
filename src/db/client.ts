import { mkdirSync } from "node:fs";
import path from "node:path";
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import type { DB } from "./schema";
import { PGliteDialect, type PipelinedExecutor } from "./pglite-dialect";
import { startPGliteWorker } from "./pglite-worker";
import { initPGliteDataDir } from "./pglite-init";
import { CHANGE_CHANNEL, pgliteChangeFeed, postgresChangeFeed, type ChangeFeed, type PostgresFeedOptions } from "./change-feed";

export type Database = Kysely<DB>;

/**
 * PGlite allocates and touches all of shared_buffers at start-up: 128 MB by default is ~125 MiB of resident
 * memory whether or not the data needs it. 32 MB holds the hot rows of a one-team deployment; misses are
 * served from the OS page cache (measured: docs/performance.md "Memory").
 */
export const PGLITE_EXTRA_PARAMS = ["-c", "shared_buffers=32MB"];

export interface DatabaseHandle {
  db: Database;
  kind: "pglite" | "postgres";
  /** Committed-change notifications for read caches (src/db/change-feed.ts). */
  changes: ChangeFeed;
  /**
   * Single autocommit statements sent without waiting for earlier answers: PGlite on its worker thread (in
   * posting order) and PostgreSQL (concurrently, over the pool); null for PGlite on the event loop.
   */
  pipelined: PipelinedExecutor | null;
  close(): Promise<void>;
}

const closing = (db: Database, changes: ChangeFeed) => async () => {
  await changes.close();
  await db.destroy();
};

/**
 * Opens the database: PostgreSQL when a URL is given, else PGlite in `dataDir` (or in memory when
 * dataDir is null, for tests). With `schema`, PostgreSQL work happens in that schema (created if absent),
 * which is how tests and CI isolate runs sharing one server.
 */
export async function openDatabase(opts: {
  url?: string;
  schema?: string;
  dataDir?: string | null;
  pgliteWorker?: boolean;
  /** PostgreSQL: where the change feed LISTENs (DATABASE_LISTEN_URL; default `url`). */
  listenUrl?: string;
  feed?: Omit<PostgresFeedOptions, "heartbeat">;
}): Promise<DatabaseHandle> {
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
    // A connection that dies (server restart, pg_terminate_backend) is dropped from the pool; the next query
    // opens a new one. pg-pool listens for errors only on idle clients: a client checked out by Kysely that
    // learns of its backend's death between two statements emits 'error' with no listener, which would
    // crash the process (found by test/resilience/faults.test.ts). The query in flight, if any, still fails.
    pool.on("error", () => {});
    pool.on("connect", (client) => client.on("error", () => {}));
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    const changes = postgresChangeFeed(opts.listenUrl ?? opts.url, { ...opts.feed, heartbeat: (payload) => pool.query("select pg_notify($1, $2)", [CHANGE_CHANNEL, payload]) });
    // Statements that may run concurrently with earlier ones go straight to the pool; a name makes pg
    // prepare the statement once per connection.
    const pipelined: PipelinedExecutor = async (q, o) => {
      const r = await pool.query({ text: q.sql, values: q.parameters as unknown[], ...(o?.prepareAs ? { name: o.prepareAs } : {}) });
      return { rows: r.rows, ...(r.rowCount !== null ? { numAffectedRows: BigInt(r.rowCount) } : {}) };
    };
    return { db, kind: "postgres", changes, pipelined, close: closing(db, changes) };
  }
  if (opts.dataDir) {
    mkdirSync(path.dirname(opts.dataDir), { recursive: true });
    await initPGliteDataDir(opts.dataDir);
  }
  if (opts.pgliteWorker) {
    const worker = await startPGliteWorker(opts.dataDir ?? null, PGLITE_EXTRA_PARAMS);
    const dialect = new PGliteDialect(worker);
    const db = new Kysely<DB>({ dialect });
    const changes = await pgliteChangeFeed(worker);
    return { db, kind: "pglite", changes, pipelined: dialect.pipelined, close: closing(db, changes) };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const params = { startParams: [...(PGlite as unknown as { defaultStartParams: string[] }).defaultStartParams, ...PGLITE_EXTRA_PARAMS] };
  const pglite = opts.dataDir ? new PGlite(opts.dataDir, params) : new PGlite(params);
  await pglite.waitReady;
  const db = new Kysely<DB>({ dialect: new PGliteDialect(pglite) });
  const changes = await pgliteChangeFeed(pglite);
  return { db, kind: "pglite", changes, pipelined: null, close: closing(db, changes) };
}

/**
 * The database could not be reached or dropped the connection (server restart, failover, network): the
 * request may be retried. PostgreSQL SQLSTATE classes 08 (connection exception) and 57 (operator
 * intervention, e.g. 57P01 terminated by an administrator), and the pg driver's own connection errors.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== "object") return false;
  const e = err as { code?: unknown; message?: unknown };
  const code = typeof e.code === "string" ? e.code : "";
  if (/^(08|57)[0-9A-Z]{3}$/.test(code) || ["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT"].includes(code)) return true;
  return typeof e.message === "string" && /Connection terminated|not queryable|timeout exceeded when trying to connect/i.test(e.message);
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
