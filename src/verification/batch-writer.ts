/**
 * Group commit for completed verifications (in-process judges). Each run needs one credit debited, its
 * ledger entry and its stored run; on the embedded database a statement's fixed cost (~0.3 ms) dwarfs
 * its rows, so runs that finish while a write is in flight are written together, in one statement, by the
 * next write. An idle service writes each run at once (no added wait); under load batches form by
 * themselves (docs/performance.md has the figures).
 *
 * Invariants, the same as debitOneAndInsert's for every run:
 * - a run is stored iff its credit was debited and its ledger entry written (one statement: all or nothing);
 * - no balance goes below zero: an account's runs in a batch are debited together only when the account
 *   holds enough for all of them; otherwise, and whenever the batch statement fails (a deadlock with
 *   another process, a bad row), every run of the batch is written alone, in arrival order, so exactly as
 *   many succeed as there are credits and one bad run cannot fail the others;
 * - each ledger entry's balance_after is the balance right after its own debit (the batch debits an
 *   account's runs in arrival order).
 *
 * Pipelining (`pipelined`: PGlite on its worker thread, PostgreSQL's pool): the next batch is sent while
 * the previous one executes, so the database never waits for the event loop to read an answer and send
 * the next statement. Each batch is still one atomic statement (on PGlite executed in posting order; on
 * PostgreSQL concurrently, serialised by the accounts' row locks, which every batch takes in id order, so
 * two batches, or two service processes, cannot deadlock). A batch's fallback runs may execute after the
 * next batch, which changes no invariant above (every debit checks the balance it meets; balance_after is
 * computed where it is written).
 */
import { createHash } from "node:crypto";
import { CompiledQuery, sql, type Insertable } from "kysely";
import type { Database } from "../db/client";
import type { DB } from "../db/schema";
import { announceWrite } from "../db/change-feed";
import { debitOneAndInsert } from "../credits/ledger";
import type { PipelinedExecutor } from "../db/pglite-dialect";

type Row = Insertable<DB["verifications"]>;
export interface RunWrite {
  debit: { accountId: string; reason: string; ref: string | null };
  row: Row;
}
interface Queued extends RunWrite {
  resolve(balance: number | null): void;
  reject(err: unknown): void;
}

export interface BatchWriterStats {
  statements: number;
  runs: number;
  largestBatch: number;
  /** Batches whose statement failed and whose runs were then written one by one. */
  fallbacks: number;
}

/** Where each batch's size and duration are reported (the service's metrics). */
export interface BatchObserver {
  batch(runs: number, seconds: number): void;
}

export function createVerificationWriter(db: Database, opts: { maxBatch?: number; observer?: BatchObserver; pipelined?: PipelinedExecutor | null } = {}) {
  const maxBatch = opts.maxBatch ?? 64;
  // Two in flight keep the database busy; more only shrink the batches (measured on PostgreSQL: 4 or 8 in
  // flight gave 25% fewer verifications per second than 2, each statement carrying fewer runs).
  const maxInFlight = opts.pipelined ? 2 : 1;
  const execute: PipelinedExecutor = opts.pipelined ?? ((q) => db.executeQuery(q));
  let queue: Queued[] = [];
  let inFlight = 0;
  let columnTypes: Promise<Map<string, string>> | null = null;
  // One text (and one prepared-statement name) per batch shape; shapes are few (batch sizes up to maxBatch).
  const statements = new Map<string, { text: string; name: string }>();
  const stats: BatchWriterStats = { statements: 0, runs: 0, largestBatch: 0, fallbacks: 0 };

  // Values in a VALUES list carry no column type: each is cast to its column's type, read once.
  const types = () =>
    (columnTypes ??= sql<{ column_name: string; data_type: string }>`
      select attname as column_name, format_type(atttypid, atttypmod) as data_type
      from pg_attribute where attrelid = 'verifications'::regclass and attnum > 0 and not attisdropped`
      .execute(db)
      .then((r) => new Map(r.rows.map((x) => [x.column_name, x.data_type])))
      .catch((e) => {
        columnTypes = null;
        throw e;
      }));

  /**
   * The batch statement for `n` runs with these columns. Its text depends only on (n, columns), so it is
   * built once per shape and the values travel as parameters: $1..$4n the debits, then the rows.
   */
  const statementFor = (n: number, cols: string[], t: Map<string, string>): { text: string; name: string } => {
    const key = `${n}|${cols.join(",")}`;
    const cached = statements.get(key);
    if (cached) return cached;
    const ident = (c: string) => {
      const type = t.get(c);
      if (!type || !/^[a-z ()0-9,]+$/.test(type) || !/^[a-z_][a-z0-9_]*$/.test(c)) throw new Error(`verification writer: unknown column ${c}`);
      return { name: `"${c}"`, type };
    };
    const columns = cols.map(ident);
    let p = 0;
    const param = (type: string) => `cast($${++p} as ${type})`;
    const requests = Array.from({ length: n }, (_, i) => `(${i}::int, ${param("text")}, ${param("text")}, ${param("text")})`).join(", ");
    const rows = Array.from({ length: n }, (_, i) => `(${i}::int, ${columns.map((c) => param(c.type)).join(", ")})`).join(", ");
    const names = columns.map((c) => c.name).join(", ");
    const text = `
      with req (ord, account_id, reason, ref) as (values ${requests}),
      counts as (select account_id, count(*)::int as n from req group by account_id),
      locked as (select a.id from accounts a where a.id in (select account_id from counts) order by a.id for update),
      debit as (
        update accounts a set credits_remaining = a.credits_remaining - c.n
        from counts c, locked l where a.id = c.account_id and l.id = a.id and a.credits_remaining >= c.n
        returning a.id, a.credits_remaining
      ),
      ok as (
        select r.ord, r.account_id, r.reason, r.ref,
          d.credits_remaining + (c.n - row_number() over (partition by r.account_id order by r.ord))::int as balance_after
        from req r join debit d on d.id = r.account_id join counts c on c.account_id = r.account_id
      ),
      entry as (
        insert into credit_entries (account_id, delta, balance_after, reason, ref)
        select account_id, -1, balance_after, reason, ref from ok order by ord
      ),
      inserted as (
        insert into verifications (${names})
        select ${columns.map((c) => `v.${c.name}`).join(", ")}
        from (values ${rows}) as v (ord, ${names})
        where v.ord in (select ord from ok)
      )
      select ord, balance_after from ok`;
    // Named by its text's hash: prepared statements live as long as the session, shared by every writer on it.
    const statement = { text, name: `arbiter_runs_${createHash("sha256").update(text).digest("hex").slice(0, 24)}` };
    statements.set(key, statement);
    return statement;
  };

  async function alone(w: Queued): Promise<void> {
    try {
      w.resolve(await debitOneAndInsert(db, w.debit, "verifications", w.row));
    } catch (err) {
      w.reject(err);
    }
  }

  async function together(batch: Queued[]): Promise<void> {
    const t = await types();
    const cols = Object.keys(batch[0].row);
    // One announcement per account, not per run: the statement's notifications for one account are one
    // (PostgreSQL delivers a transaction's identical notifications once), and each announcement waits for
    // one notification, so a run per announcement kept the balance uncached for the whole time-out.
    for (const accountId of new Set(batch.map((w) => w.debit.accountId))) announceWrite("balance", accountId);
    const params: unknown[] = [];
    for (const w of batch) params.push(w.debit.accountId, w.debit.reason, w.debit.ref);
    for (const w of batch) for (const c of cols) params.push((w.row as Record<string, unknown>)[c] ?? null);
    const statement = statementFor(batch.length, cols, t);
    const r = await execute(CompiledQuery.raw(statement.text, params), { prepareAs: statement.name });
    stats.statements++;
    const done = new Map((r.rows as { ord: number; balance_after: number }[]).map((x) => [Number(x.ord), x.balance_after]));
    // Accounts short of credit for all their runs in this batch: each run alone, in order.
    for (const [i, w] of batch.entries()) {
      const balance = done.get(i);
      if (balance !== undefined) w.resolve(balance);
      else await alone(w);
    }
  }

  async function writeBatch(batch: Queued[]): Promise<void> {
    const started = performance.now();
    stats.runs += batch.length;
    stats.largestBatch = Math.max(stats.largestBatch, batch.length);
    // A run alone takes the same prepared statement as a batch (a batch of one): no query building and, on
    // PostgreSQL, no parsing or planning per run. Runs of different shapes (never seen) go one by one.
    if (new Set(batch.map((w) => Object.keys(w.row).join())).size > 1) {
      for (const w of batch) {
        stats.statements++;
        await alone(w);
      }
    } else {
      try {
        await together(batch);
      } catch {
        stats.fallbacks++;
        for (const w of batch) await alone(w);
      }
    }
    opts.observer?.batch(batch.length, (performance.now() - started) / 1000);
  }

  /** Starts batches while there is work and room in flight; each finished batch makes room for the next. */
  function pump(): void {
    while (queue.length && inFlight < maxInFlight) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(batch.length);
      inFlight++;
      void writeBatch(batch).finally(() => {
        inFlight--;
        pump();
      });
    }
  }

  return {
    /** Debits one credit and stores the completed run; the balance after, or null when out of credit. */
    write(w: RunWrite): Promise<number | null> {
      return new Promise((resolve, reject) => {
        queue.push({ ...w, resolve, reject });
        pump();
      });
    },
    stats: (): BatchWriterStats => ({ ...stats }),
  };
}

export type VerificationWriter = ReturnType<typeof createVerificationWriter>;
