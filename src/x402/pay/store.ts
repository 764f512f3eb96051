/**
 * The x402_payments rows (migration 006_x402_payments.sql): one per x402_payment proposal. Declared here,
 * next to their only user, and attached to the shared database type with Kysely's `withTables`.
 */
import type { ColumnType, Kysely, Selectable, Transaction } from "kysely";
import type { PaymentRequirements, ResourceInfo } from "@x402/core/types";
import type { DB } from "../../db/schema";
import type { Executor } from "../../wallets/repo";

type Json<T> = ColumnType<T, string, string>;

export interface X402PaymentsTable {
  proposal_id: string;
  url: string;
  method: string;
  accepted: Json<PaymentRequirements>;
  resource: Json<ResourceInfo | null> | null;
  terms_fetched_at: Date;
  auth_nonce: string | null;
  valid_before: Date | null;
  signed_at: Date | null;
  response_status: number | null;
  response_text: string | null;
  response_truncated: boolean | null;
  response_content_type: string | null;
  settlement: Json<Record<string, unknown> | null> | null;
  completed_at: Date | null;
  created_at: ColumnType<Date, Date | undefined, Date>;
}

export type PaymentRow = Selectable<X402PaymentsTable>;
type PayDB = DB & { x402_payments: X402PaymentsTable };

/** The database with the x402_payments table attached (works for a transaction too). */
export const payDb = (ex: Executor): Kysely<PayDB> => (ex as Kysely<DB>).withTables<{ x402_payments: X402PaymentsTable }>() as Kysely<PayDB>;
export const payTx = (tx: Transaction<DB>): Transaction<PayDB> => tx.withTables<{ x402_payments: X402PaymentsTable }>() as Transaction<PayDB>;

export async function insertPayment(
  tx: Transaction<DB>,
  p: { proposalId: string; url: string; method: string; accepted: PaymentRequirements; resource: ResourceInfo | null; at: Date },
): Promise<void> {
  await payTx(tx)
    .insertInto("x402_payments")
    .values({
      proposal_id: p.proposalId,
      url: p.url,
      method: p.method,
      accepted: JSON.stringify(p.accepted),
      resource: p.resource ? JSON.stringify(p.resource) : null,
      terms_fetched_at: p.at,
      auth_nonce: null,
      valid_before: null,
      signed_at: null,
      response_status: null,
      response_text: null,
      response_truncated: null,
      response_content_type: null,
      settlement: null,
      completed_at: null,
      created_at: p.at,
    })
    .execute();
}

export async function findPayment(ex: Executor, proposalId: string): Promise<PaymentRow | null> {
  return (await payDb(ex).selectFrom("x402_payments").selectAll().where("proposal_id", "=", proposalId).executeTakeFirst()) ?? null;
}

export async function refreshTerms(ex: Executor, proposalId: string, accepted: PaymentRequirements, resource: ResourceInfo | null, at: Date): Promise<void> {
  await payDb(ex)
    .updateTable("x402_payments")
    .set({ accepted: JSON.stringify(accepted), resource: resource ? JSON.stringify(resource) : null, terms_fetched_at: at })
    .where("proposal_id", "=", proposalId)
    .where("signed_at", "is", null)
    .execute();
}

export async function recordSigned(tx: Transaction<DB>, proposalId: string, s: { nonce: string; validBefore: Date; at: Date }): Promise<void> {
  await payTx(tx).updateTable("x402_payments").set({ auth_nonce: s.nonce, valid_before: s.validBefore, signed_at: s.at }).where("proposal_id", "=", proposalId).execute();
}

export async function recordResponse(
  ex: Executor,
  proposalId: string,
  r: { status: number | null; text: string | null; truncated: boolean; contentType: string | null; settlement: Record<string, unknown> | null; completed: Date | null },
): Promise<void> {
  await payDb(ex)
    .updateTable("x402_payments")
    .set({
      response_status: r.status,
      response_text: r.text,
      response_truncated: r.truncated,
      response_content_type: r.contentType,
      settlement: r.settlement ? JSON.stringify(r.settlement) : null,
      completed_at: r.completed,
    })
    .where("proposal_id", "=", proposalId)
    .execute();
}

export async function markCompleted(ex: Executor, proposalId: string, at: Date): Promise<void> {
  await payDb(ex).updateTable("x402_payments").set({ completed_at: at }).where("proposal_id", "=", proposalId).where("completed_at", "is", null).execute();
}
