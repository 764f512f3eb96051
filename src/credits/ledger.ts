import { sql, type Insertable, type Transaction } from "kysely";
import type { Database } from "../db/client";
import type { DB } from "../db/schema";
import { announceWrite } from "../db/change-feed";

type Executor = Database | Transaction<DB>;

/**
 * The only way a balance changes. The conditional UPDATE makes a debit atomic under any concurrency
 * (the row lock serialises writers; `credits_remaining + delta >= 0` is re-checked after the wait), and the
 * ledger row is written in the same transaction, so sum(delta) = balance always holds.
 *
 * Returns the new balance, or null when a debit would take the balance below zero (nothing is written).
 * Must run inside a transaction when `ex` is a Transaction; given the Database, it opens one.
 */
export async function applyCreditChange(
  ex: Executor,
  change: { accountId: string; delta: number; reason: string; ref: string | null },
): Promise<number | null> {
  if (!Number.isInteger(change.delta) || change.delta === 0) throw new RangeError("credit delta must be a non-zero integer");
  if (!("isTransaction" in ex) || !ex.isTransaction) {
    return (ex as Database).transaction().execute((tx) => applyCreditChange(tx, change));
  }
  announceWrite("balance", change.accountId);
  const updated = await ex
    .updateTable("accounts")
    .set({ credits_remaining: sql`credits_remaining + ${change.delta}` })
    .where("id", "=", change.accountId)
    .where(sql<boolean>`credits_remaining + ${change.delta} >= 0`)
    .returning("credits_remaining")
    .executeTakeFirst();
  if (!updated) return null;
  await ex
    .insertInto("credit_entries")
    .values({ account_id: change.accountId, delta: change.delta, balance_after: updated.credits_remaining, reason: change.reason, ref: change.ref })
    .execute();
  return updated.credits_remaining;
}

/**
 * Debits one credit and inserts `row` into `table` in ONE statement (data-modifying CTEs): the conditional
 * UPDATE, its ledger entry and the row all happen or none does, with the same guarantees as
 * applyCreditChange in a transaction but without the BEGIN/COMMIT round trips. A verification's debit is on
 * the hot path (docs/performance.md). Values are bound parameters typed by their target columns.
 * Returns the balance after the debit, or null when the account has no credit (nothing is written).
 */
export async function debitOneAndInsert<T extends keyof DB & string>(
  db: Database,
  change: { accountId: string; reason: string; ref: string | null },
  table: T,
  row: Insertable<DB[T]>,
): Promise<number | null> {
  const values = row as Record<string, unknown>;
  const cols = Object.keys(values);
  announceWrite("balance", change.accountId);
  const r = await sql<{ credits_remaining: number }>`
    with debit as (
      update accounts set credits_remaining = credits_remaining - 1
      where id = ${change.accountId} and credits_remaining >= 1
      returning credits_remaining
    ), entry as (
      insert into credit_entries (account_id, delta, balance_after, reason, ref)
      select ${change.accountId}, -1, credits_remaining, ${change.reason}, ${change.ref} from debit
    ), inserted as (
      insert into ${sql.table(table)} (${sql.join(cols.map((c) => sql.ref(c)))})
      select ${sql.join(cols.map((c) => sql`${values[c]}`))} from debit
    )
    select credits_remaining from debit`.execute(db);
  return r.rows[0]?.credits_remaining ?? null;
}

export async function getBalance(db: Executor, accountId: string): Promise<number | null> {
  const row = await db.selectFrom("accounts").select("credits_remaining").where("id", "=", accountId).executeTakeFirst();
  return row ? row.credits_remaining : null;
}

/** For tests and audits: accounts whose ledger does not sum to their balance (must always be empty). */
export async function ledgerMismatches(db: Executor): Promise<{ id: string; balance: number; ledger: number }[]> {
  const rows = await sql<{ id: string; balance: number; ledger: string | number }>`
    select a.id, a.credits_remaining as balance, coalesce(sum(e.delta), 0) as ledger
    from accounts a left join credit_entries e on e.account_id = a.id
    group by a.id, a.credits_remaining
    having coalesce(sum(e.delta), 0) <> a.credits_remaining`.execute(db);
  return rows.rows.map((r) => ({ id: r.id, balance: r.balance, ledger: Number(r.ledger) }));
}
