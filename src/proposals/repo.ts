/**
 * Proposal rows and the two queries every writer shares: the rolling-cap sum and the guarded status
 * change. Every status write names the status it expects (`WHERE status = from`), so two writers racing
 * (a sweep and a confirm, two processes reconciling) cannot both move one proposal.
 */
import { sql, type Insertable, type Selectable, type Transaction } from "kysely";
import type { DB, ProposalsTable } from "../db/schema";
import type { Executor } from "../wallets/repo";
import { assertTransition, type ProposalStatus } from "./state";
import { proposalNotFound } from "./errors";

export type ProposalRow = Selectable<ProposalsTable>;

export const DAY_MS = 24 * 3600 * 1000;

/** What a new proposal row must say; the judge, approval and execution columns start empty. */
export type NewProposal = Pick<
  Insertable<ProposalsTable>,
  "id" | "account_id" | "wallet_id" | "origin" | "kind" | "status" | "input" | "note" | "summary" | "payload" | "request_hash" | "simulation" | "verdict" | "reasoning" | "reserved_usd" | "cap_at"
> & { now: Date };

export function newProposalRow({ now, ...fields }: NewProposal): Insertable<ProposalsTable> {
  return {
    ...fields,
    scan_id: null,
    credits_remaining: null,
    proof: null,
    approval_expires_at: null,
    nonce: null,
    signed_tx: null,
    tx_hash: null,
    signed_at: null,
    error: null,
    created_at: now,
    updated_at: now,
  };
}

export async function findProposal(ex: Executor, accountId: string | null, id: string): Promise<ProposalRow> {
  let q = ex.selectFrom("proposals").selectAll().where("id", "=", id.trim());
  if (accountId !== null) q = q.where("account_id", "=", accountId);
  const row = await q.executeTakeFirst();
  if (!row) throw proposalNotFound();
  return row;
}

export async function lockProposal(tx: Transaction<DB>, id: string): Promise<ProposalRow> {
  const row = await tx.selectFrom("proposals").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
  if (!row) throw proposalNotFound();
  return row;
}

/**
 * USD reserved against a wallet's rolling 24-hour cap by the agent's proposals that may still move funds
 * or did (state.holdsReservation, in SQL), plus what the agent moved through STRK20 ungated signings
 * (strk20_signings, src/strk20/service.ts). Call with the wallet row locked for a consistent answer.
 */
export async function reservedInWindow(ex: Executor, walletId: string, now: Date, exceptId: string | null): Promise<number> {
  const since = new Date(now.getTime() - DAY_MS);
  let q = ex
    .selectFrom("proposals")
    .select(sql<string>`coalesce(sum(reserved_usd), 0)`.as("spent"))
    .where("wallet_id", "=", walletId)
    .where("origin", "=", "agent")
    .where("cap_at", ">", since)
    .where((eb) => eb.or([eb("status", "in", ["verifying", "executing", "executed"]), eb.and([eb("status", "=", "awaiting_user"), eb("approval_expires_at", ">", now)])]));
  if (exceptId) q = q.where("id", "<>", exceptId);
  // One round trip: the signings' sum rides along as a scalar subquery.
  const r = await q.select((eb) => eb.selectFrom("strk20_signings").select(sql<string>`coalesce(sum(usd), 0)`.as("s")).where("wallet_id", "=", walletId).where("cap_at", ">", since).as("ungated")).executeTakeFirstOrThrow();
  return Number(r.spent) + Number(r.ungated ?? 0);
}

/** Moves a proposal from `from` to `to` if it is still in `from`; returns whether it moved. */
export async function transition(
  ex: Executor,
  id: string,
  from: ProposalStatus,
  to: ProposalStatus,
  now: Date,
  set: Partial<{ reasoning: string | null; error: string | null; verdict: string | null; scan_id: string | null; credits_remaining: number | null; proof: string | null; approval_expires_at: Date | null; simulation: string; reserved_usd: number; cap_at: Date; tx_hash: string | null }> = {},
): Promise<boolean> {
  assertTransition(from, to);
  const r = await ex.updateTable("proposals").set({ ...set, status: to, updated_at: now }).where("id", "=", id).where("status", "=", from).executeTakeFirst();
  return r.numUpdatedRows > 0n;
}
