import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from "kysely";
import type { PGliteLike } from "./pglite-worker";

/** PGlite itself, or its proxy on a worker thread (pglite-worker.ts). */
type PGlite = PGliteLike;

/**
 * Runs one autocommit statement; see PGliteDialect.pipelined. With `prepareAs`, as that named prepared
 * statement (one name, one text): parsed and planned once per session instead of on every call.
 */
export type PipelinedExecutor = (q: CompiledQuery, opts?: { prepareAs?: string }) => Promise<QueryResult<unknown>>;

/**
 * Kysely dialect for PGlite. PGlite is one Postgres session: two interleaved callers would share one
 * transaction. So the driver hands out its single connection under a FIFO lock; a transaction holds it
 * from BEGIN to COMMIT and every other query waits. That gives PGlite the same isolation a pool gives pg.
 */
export class PGliteDialect implements Dialect {
  private readonly driver: PGliteDriver;
  constructor(private readonly pglite: PGlite) {
    this.driver = new PGliteDriver(pglite);
  }
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return this.driver;
  }
  /**
   * A way to run single autocommit statements without waiting for the previous one's answer, when PGlite
   * runs on a worker thread that executes statements strictly in the order they were posted
   * (`PGliteLike.ordered`); null otherwise. The session lock is taken only while the statement is posted:
   * a transaction that holds the session keeps it (the statement is posted after its COMMIT), and one that
   * begins later is posted, and so executed, after the statement has committed. What this buys: the worker
   * starts the next statement as soon as it finishes one, instead of idling for the round trip through a
   * busy event loop (docs/performance.md).
   */
  get pipelined(): PipelinedExecutor | null {
    if (!this.pglite.ordered) return null;
    return (q, opts) => this.driver.postInOrder(q, opts?.prepareAs);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
}

class FifoLock {
  private tail: Promise<void> = Promise.resolve();
  acquire(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((r) => (release = r));
    const prev = this.tail;
    this.tail = prev.then(() => next);
    return prev.then(() => release);
  }
}

class PGliteDriver implements Driver {
  private readonly lock = new FifoLock();
  private readonly connection: PGliteConnection;
  private release: (() => void) | null = null;

  constructor(private readonly pglite: PGlite) {
    this.connection = new PGliteConnection(pglite);
  }
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.lock.acquire();
    this.release = release;
    return this.connection;
  }
  async beginTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw("begin"));
  }
  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw("commit"));
  }
  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw("rollback"));
  }
  async releaseConnection(): Promise<void> {
    const r = this.release;
    this.release = null;
    r?.();
  }
  async destroy(): Promise<void> {
    if (!this.pglite.closed) await this.pglite.close();
  }
  async postInOrder<R>(q: CompiledQuery, prepareAs?: string): Promise<QueryResult<R>> {
    const release = await this.lock.acquire();
    let result: Promise<QueryResult<R>>;
    try {
      // Both calls post synchronously (PGliteLike.ordered).
      result =
        prepareAs && this.pglite.preparedQuery
          ? this.pglite.preparedQuery<R>(prepareAs, q.sql, q.parameters as unknown[]).then((r) => ({
              rows: r.rows,
              ...(r.affectedRows !== undefined ? { numAffectedRows: BigInt(r.affectedRows) } : {}),
            }))
          : this.connection.executeQuery<R>(q);
    } finally {
      release();
    }
    return result;
  }
}

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly pglite: PGlite) {}
  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    // Parameterless statements (migrations, BEGIN/COMMIT) go through the simple protocol, which accepts
    // several statements at once; everything else uses bound parameters.
    const res =
      compiled.parameters.length === 0
        ? ((await this.pglite.exec(compiled.sql)).at(-1) ?? { rows: [], fields: [], affectedRows: 0 })
        : await this.pglite.query<R>(compiled.sql, compiled.parameters as unknown[]);
    return {
      rows: res.rows as R[],
      ...(res.affectedRows !== undefined ? { numAffectedRows: BigInt(res.affectedRows) } : {}),
    };
  }
  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("PGlite dialect does not stream");
  }
}
