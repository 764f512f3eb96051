/**
 * Background work claimed in the database, so several processes on one PostgreSQL never act on the same
 * row at once (and PGlite, one process, runs the same code). Two shapes:
 *
 * - `claimRows`: short work on rows, done in the claiming transaction. The select gets `FOR UPDATE SKIP
 *   LOCKED`: each process takes rows no other process holds, acts on them, and commits; a row another
 *   process is working on is skipped, not waited for, and is seen again on a later sweep only if that
 *   process did not finish it (its rollback or death releases the lock).
 * - `tryAdvisoryLock`: work on a key that is not one row (a wallet, a relayer account, a batch), inside a
 *   transaction: `pg_try_advisory_xact_lock` on (namespace, key), released at commit or rollback, also when
 *   the process dies (its connection ends). False means another process holds it: skip.
 *
 * - `keyClaimer`: work on one row that waits on the network (a chain lookup, a re-broadcast), so it must not
 *   run inside a transaction that holds row locks: the advisory lock on the row's key is held by a
 *   transaction left open while the work runs through the pool, and another process skips that key.
 *
 * Used by verification recovery (src/verification/service.ts), proposal reconcile (src/proposals/reconcile.ts)
 * and the anchoring batcher; top-up recovery, anchoring steps and webhook delivery claim on leases instead.
 * See docs/decisions.md "Background work is claimed in the database".
 */
import { sql, type Kysely, type SelectQueryBuilder, type Transaction } from "kysely";

export async function claimRows<DB, TB extends keyof DB, O, R>(
  db: Kysely<DB>,
  select: (tx: Transaction<DB>) => SelectQueryBuilder<DB, TB, O>,
  act: (tx: Transaction<DB>, rows: O[]) => Promise<R>,
): Promise<R> {
  return db.transaction().execute(async (tx) => act(tx, await select(tx).forUpdate().skipLocked().execute()));
}

/** Takes the transaction-scoped advisory lock on (namespace, key) if free; never waits. */
export async function tryAdvisoryLock<DB>(tx: Transaction<DB>, namespace: string, key: string): Promise<boolean> {
  const r = await sql<{ ok: boolean }>`select pg_try_advisory_xact_lock(hashtext(${namespace}), hashtext(${key})) as ok`.execute(tx);
  return r.rows[0]?.ok === true;
}

/** Waits for the transaction-scoped advisory lock on (namespace, key): serialises short critical sections. */
export async function advisoryLock<DB>(tx: Transaction<DB>, namespace: string, key: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${namespace}), hashtext(${key}))`.execute(tx);
}

/**
 * Runs `fn` holding the advisory lock on (namespace, key), waiting for it: a short critical section across
 * processes that is not itself database work (the relayer's nonce assignment and broadcast). Holds one pool
 * connection for fn's duration. PGlite (one process, one session) needs no such lock and must not hold its
 * only session open: callers pass this only on PostgreSQL.
 */
export async function withAdvisoryLock<DB, T>(db: Kysely<DB>, namespace: string, key: string, fn: () => Promise<T>): Promise<T> {
  return db.transaction().execute(async (tx) => {
    await advisoryLock(tx, namespace, key);
    return fn();
  });
}

/**
 * Runs `fn` only if this process can take the advisory lock on (namespace, key) now, and holds it until fn
 * ends; false when another process holds it (it is acting on that key: skip). The lock lives in a
 * transaction that does nothing else, so fn's writes go through the pool and no row lock is held across
 * fn's network waits. Costs one pool connection while fn runs; sweeps claim one key at a time.
 */
export type KeyClaimer = (namespace: string, key: string, fn: () => Promise<void>) => Promise<boolean>;

/**
 * `shared`: other processes may use this database (PostgreSQL). Alone on it (PGlite, held by the DATA_DIR
 * lock, one session) there is nobody to exclude, and holding its only session open would stall fn's own
 * queries: fn just runs.
 */
export function keyClaimer<DB>(db: Kysely<DB>, shared: boolean): KeyClaimer {
  if (!shared)
    return async (_namespace, _key, fn) => {
      await fn();
      return true;
    };
  return (namespace, key, fn) =>
    db.transaction().execute(async (tx) => {
      if (!(await tryAdvisoryLock(tx, namespace, key))) return false;
      await fn();
      return true;
    });
}

/** The claimer for code that runs alone (tests, one-process tools): fn always runs. */
export const unclaimed: KeyClaimer = keyClaimer(null as unknown as Kysely<unknown>, false);
