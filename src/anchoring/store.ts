/**
 * Anchor batches in the database (012_receipt_anchoring.sql). Every write that moves a batch forward is a
 * compare-and-set on its current state, so two processes working the same batch cannot both take a step:
 * leases (claim.ts) only keep them from trying.
 */
import { sql } from "kysely";
import type { Database } from "../db/client";
import { claimRows } from "../db/claim";
import type { AnchorBatchesTable } from "../db/schema";
import { keccak256Fast } from "../lib/keccak";
import { receiptDigester } from "../receipts/digest";
import { batchRoot } from "../receipts/batch-tree";
import type { Hex } from "./chain";

export type BatchRow = Omit<AnchorBatchesTable, "attempts" | "created_at"> & { attempts: number; created_at: Date };
export type BatchStatus = AnchorBatchesTable["status"];

const digestOf = receiptDigester(keccak256Fast);

/** Leaves are stored as one hex string (64 digits each, no 0x). */
export const packLeaves = (leaves: Hex[]): string => leaves.map((l) => l.slice(2)).join("");
export function unpackLeaves(packed: string): Hex[] {
  const out: Hex[] = [];
  for (let i = 0; i < packed.length; i += 64) out.push(`0x${packed.slice(i, i + 64)}`);
  return out;
}

/** PGlite returns int8 as a number or bigint, PostgreSQL as a string: one form in code. */
export function normalize(row: Record<string, unknown>): BatchRow {
  const str = (v: unknown) => (v === null || v === undefined ? null : String(v));
  return { ...(row as unknown as BatchRow), id: String(row.id), sent_block: str(row.sent_block), block_number: str(row.block_number), gas_used: str(row.gas_used), attempts: Number(row.attempts) };
}

export interface FormOptions {
  maxLeaves: number;
  /** A batch is formed once its oldest run waited this long, even when not full. */
  maxWaitMs: number;
  now: Date;
  chain: { chainId: number; contract: Hex; anchorer: Hex };
}

/**
 * Forms at most one batch from completed runs not yet in one, when it is due (full, or its oldest run waited
 * `maxWaitMs`). One transaction: the batch id from anchor_state (locked FOR UPDATE SKIP LOCKED, so a second
 * process forming at the same moment skips instead of waiting), the runs locked the same way, the batch row
 * and each run's (batch, leaf index). A run is therefore in exactly one batch.
 */
export async function formBatch(db: Database, o: FormOptions): Promise<{ id: string; leafCount: number } | null> {
  return claimRows(
    db,
    (tx) => tx.selectFrom("anchor_state").select("next_batch_id").where("id", "=", 1),
    async (tx, [state]) => {
    if (!state) return null;
    const runs = await tx
      .selectFrom("verifications")
      .select(["id", "request_hash", "transcript_root", "output_hash", "completed_at"])
      .where("status", "=", "COMPLETED")
      .where("anchor_batch_id", "is", null)
      .orderBy("completed_at")
      .orderBy("id")
      .limit(o.maxLeaves)
      .forUpdate()
      .skipLocked()
      .execute();
    if (runs.length === 0) return null;
    const oldest = new Date(runs[0].completed_at ?? o.now).getTime();
    if (runs.length < o.maxLeaves && o.now.getTime() - oldest < o.maxWaitMs) return null;

    const id = String(state.next_batch_id);
    const leaves = runs.map((r) => digestOf({ requestHash: r.request_hash as Hex, transcriptRoot: r.transcript_root as Hex, outputHash: r.output_hash as Hex }));
    await tx
      .insertInto("anchor_batches")
      .values({
        id,
        status: "built",
        root: batchRoot(leaves, keccak256Fast),
        leaf_count: leaves.length,
        leaves: packLeaves(leaves),
        chain_id: o.chain.chainId,
        contract: o.chain.contract.toLowerCase(),
        anchorer: o.chain.anchorer.toLowerCase(),
        tx_hash: null,
        tx_raw: null,
        tx_nonce: null,
        sent_block: null,
        block_number: null,
        block_hash: null,
        gas_used: null,
        last_error: null,
        lease_owner: null,
        lease_until: null,
        verified_at: null,
      })
      .execute();
    const assignments = JSON.stringify(runs.map((r, i) => ({ id: r.id, idx: i })));
    await sql`update verifications v set anchor_batch_id = ${id}::bigint, anchor_leaf_index = x.idx
              from json_to_recordset(${assignments}::json) as x(id uuid, idx int) where v.id = x.id`.execute(tx);
    await tx.updateTable("anchor_state").set({ next_batch_id: sql`next_batch_id + 1` }).where("id", "=", 1).execute();
    return { id, leafCount: leaves.length };
    },
  );
}

/** Moves batch `id` from `from` to the values in `set`; false when another worker moved it first. */
export async function advance(db: Database, id: string, from: BatchStatus, set: Partial<Omit<AnchorBatchesTable, "id" | "created_at" | "attempts">> & { attempts?: number }): Promise<boolean> {
  const r = await db.updateTable("anchor_batches").set(set).where("id", "=", id).where("status", "=", from).executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/** The verified state, and each run's anchorTx, in one transaction. */
export async function markVerified(db: Database, id: string, txHash: string, now: Date): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const r = await tx.updateTable("anchor_batches").set({ status: "verified", verified_at: now, lease_owner: null, lease_until: null, last_error: null }).where("id", "=", id).where("status", "=", "mined").executeTakeFirst();
    if (r.numUpdatedRows === 0n) return false;
    await tx.updateTable("verifications").set({ anchor_tx: txHash }).where("anchor_batch_id", "=", id).execute();
    return true;
  });
}

export async function getBatch(db: Database, id: string): Promise<BatchRow | undefined> {
  const row = await db.selectFrom("anchor_batches").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? normalize(row as unknown as Record<string, unknown>) : undefined;
}
