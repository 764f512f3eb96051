/**
 * Claiming an open batch across processes: the row is picked with FOR UPDATE SKIP LOCKED among batches
 * whose lease ran out, and leased to this worker in the same statement. The lease doubles as "next attempt
 * at": after a step the worker sets it to when the batch is worth looking at again. Not src/db/claim.ts's
 * claimRows: a step waits on the chain (seconds), so it must not run inside the claiming transaction (on
 * PGlite that would hold the only connection); the lease carries the claim past the commit instead.
 */
import { sql } from "kysely";
import type { Database } from "../db/client";
import { normalize, type BatchRow } from "./store";

export async function claimOpenBatch(db: Database, owner: string, now: Date, leaseMs: number): Promise<BatchRow | null> {
  const until = new Date(now.getTime() + leaseMs);
  const { rows } = await sql<Record<string, unknown>>`
    update anchor_batches set lease_owner = ${owner}, lease_until = ${until}
    where id = (
      select id from anchor_batches
      where status in ('built', 'sent', 'mined') and (lease_until is null or lease_until < ${now})
      order by id limit 1
      for update skip locked
    )
    returning *`.execute(db);
  return rows[0] ? normalize(rows[0]) : null;
}

/** Ends this worker's lease, setting when the batch may be claimed next. */
export async function releaseBatch(db: Database, id: string, owner: string, nextAt: Date, error: string | null = null): Promise<void> {
  await db
    .updateTable("anchor_batches")
    .set({ lease_owner: null, lease_until: nextAt, ...(error !== null ? { last_error: error.slice(0, 500) } : {}) })
    .where("id", "=", id)
    .where("lease_owner", "=", owner)
    .execute();
}
