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
 */
import { sql, type Insertable, type RawBuilder } from "kysely";
import type { Database } from "../db/client";
import type { DB } from "../db/schema";
import { announceWrite } from "../db/change-feed";
import { debitOneAndInsert } from "../credits/ledger";

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
}

export function createVerificationWriter(db: Database, opts: { maxBatch?: number } = {}) {
  const maxBatch = opts.maxBatch ?? 64;
  let queue: Queued[] = [];
  let flushing = false;
  let columnTypes: Promise<Map<string, string>> | null = null;
  const stats: BatchWriterStats = { statements: 0, runs: 0, largestBatch: 0 };

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
    for (const w of batch) announceWrite("balance", w.debit.accountId);
    const value = (w: Queued, c: string): RawBuilder<unknown> => {
      const type = t.get(c);
      if (!type || !/^[a-z ()0-9,]+$/.test(type)) throw new Error(`verification writer: unknown column ${c}`);
      return sql`cast(${(w.row as Record<string, unknown>)[c] ?? null} as ${sql.raw(type)})`;
    };
    const r = await sql<{ ord: number; balance_after: number }>`
      with req (ord, account_id, reason, ref) as (
        values ${sql.join(batch.map((w, i) => sql`(${i}::int, ${w.debit.accountId}::text, ${w.debit.reason}::text, ${w.debit.ref}::text)`))}
      ), counts as (
        select account_id, count(*)::int as n from req group by account_id
      ), debit as (
        update accounts a set credits_remaining = a.credits_remaining - c.n
        from counts c where a.id = c.account_id and a.credits_remaining >= c.n
        returning a.id, a.credits_remaining
      ), ok as (
        select r.ord, r.account_id, r.reason, r.ref,
          d.credits_remaining + (c.n - row_number() over (partition by r.account_id order by r.ord))::int as balance_after
        from req r join debit d on d.id = r.account_id join counts c on c.account_id = r.account_id
      ), entry as (
        insert into credit_entries (account_id, delta, balance_after, reason, ref)
        select account_id, -1, balance_after, reason, ref from ok order by ord
      ), inserted as (
        insert into verifications (${sql.join(cols.map((c) => sql.ref(c)))})
        select ${sql.join(cols.map((c) => sql.ref(`v.${c}`)))}
        from (values ${sql.join(batch.map((w, i) => sql`(${i}::int, ${sql.join(cols.map((c) => value(w, c)))})`))}) as v (ord, ${sql.join(cols.map((c) => sql.ref(c)))})
        where v.ord in (select ord from ok)
      )
      select ord, balance_after from ok`.execute(db);
    stats.statements++;
    const done = new Map(r.rows.map((x) => [Number(x.ord), x.balance_after]));
    // Accounts short of credit for all their runs in this batch: each run alone, in order.
    for (const [i, w] of batch.entries()) {
      const balance = done.get(i);
      if (balance !== undefined) w.resolve(balance);
      else await alone(w);
    }
  }

  async function flush(): Promise<void> {
    flushing = true;
    try {
      while (queue.length) {
        const batch = queue.slice(0, maxBatch);
        queue = queue.slice(batch.length);
        stats.runs += batch.length;
        stats.largestBatch = Math.max(stats.largestBatch, batch.length);
        if (batch.length === 1 || new Set(batch.map((w) => Object.keys(w.row).join())).size > 1) {
          for (const w of batch) {
            stats.statements++;
            await alone(w);
          }
          continue;
        }
        try {
          await together(batch);
        } catch {
          for (const w of batch) await alone(w);
        }
      }
    } finally {
      flushing = false;
    }
  }

  return {
    /** Debits one credit and stores the completed run; the balance after, or null when out of credit. */
    write(w: RunWrite): Promise<number | null> {
      return new Promise((resolve, reject) => {
        queue.push({ ...w, resolve, reject });
        if (!flushing) void flush();
      });
    },
    stats: (): BatchWriterStats => ({ ...stats }),
  };
}

export type VerificationWriter = ReturnType<typeof createVerificationWriter>;
