/** Wire shapes of proposals: the propose result (SPEC 2.7), the status (2.10) and the MCP variants. */
import type { SimulationReport } from "../chains/types";
import type { ChainAdapter } from "../chains/port";
import type { ProposalRow } from "./repo";
import { effectiveStatus, type ProposalStatus } from "./state";

export interface ProposalResult {
  txId: string;
  status: ProposalStatus;
  verdict: "ALLOW" | "BLOCK" | "ESCALATE" | null;
  reasoning: string;
  requestHash: string;
  simulation: SimulationReport | null;
  approvalUrl?: string;
  /** When the owner's approval window closes (set with approvalUrl). */
  approvalExpiresAt?: string;
  txHash?: string;
  explorerUrl?: string;
  scanId: string | null;
  creditsRemaining: number | null;
  proof: Record<string, unknown> | null;
  /** Why execution failed (status failed). */
  error?: string;
}

export interface ProposalStatusView {
  id: string;
  status: ProposalStatus;
  verdict: ProposalResult["verdict"];
  txHash: string | null;
  approvalUrl: string | null;
  explorerUrl: string | null;
}

export interface ProposalDetail extends ProposalStatusView {
  walletId: string;
  error: string | null;
  createdAt: string;
  updatedAt: string;
  summary: string;
  approvalExpiresAt: string | null;
}

export const approvalUrlOf = (publicUrl: string, id: string) => `${publicUrl}/dashboard/proposals/${id}`;

/**
 * txHash is shown once the transaction is on chain: executed, or failed with a mined (reverted)
 * transaction. While `executing` the hash is not yet "known" in SPEC's sense (no receipt), so it stays
 * out of the status view; the proposal is findable by id meanwhile.
 */
function chainFacts(row: ProposalRow, status: ProposalStatus, chainOf: (walletId: string) => ChainAdapter | null) {
  const mined = status === "executed" || (status === "failed" && row.tx_hash !== null && row.error?.startsWith("reverted on chain"));
  const txHash = mined ? row.tx_hash : null;
  const chain = chainOf(row.wallet_id);
  return { txHash, explorerUrl: txHash && chain ? chain.explorerTxUrl(txHash) : null };
}

export function proposalResult(row: ProposalRow, now: Date, d: { publicUrl: string; chainOf: (walletId: string) => ChainAdapter | null }): ProposalResult {
  const status = effectiveStatus(row.status, row.approval_expires_at, now);
  const { txHash, explorerUrl } = chainFacts(row, status, d.chainOf);
  return {
    txId: row.id,
    status,
    verdict: row.verdict as ProposalResult["verdict"],
    reasoning: row.reasoning ?? "",
    requestHash: row.request_hash,
    simulation: (row.simulation as SimulationReport | null) ?? null,
    ...(status === "awaiting_user" && row.approval_expires_at
      ? { approvalUrl: approvalUrlOf(d.publicUrl, row.id), approvalExpiresAt: new Date(row.approval_expires_at).toISOString() }
      : {}),
    ...(txHash ? { txHash } : {}),
    ...(explorerUrl ? { explorerUrl } : {}),
    scanId: row.scan_id,
    creditsRemaining: row.credits_remaining,
    proof: (row.proof as Record<string, unknown> | null) ?? null,
    ...(status === "failed" && row.error ? { error: row.error } : {}),
  };
}

export function proposalStatusView(row: ProposalRow, now: Date, d: { publicUrl: string; chainOf: (walletId: string) => ChainAdapter | null }): ProposalStatusView {
  const status = effectiveStatus(row.status, row.approval_expires_at, now);
  const { txHash, explorerUrl } = chainFacts(row, status, d.chainOf);
  return {
    id: row.id,
    status,
    verdict: row.verdict as ProposalResult["verdict"],
    txHash,
    approvalUrl: status === "awaiting_user" ? approvalUrlOf(d.publicUrl, row.id) : null,
    explorerUrl,
  };
}

export function proposalDetail(row: ProposalRow, now: Date, d: { publicUrl: string; chainOf: (walletId: string) => ChainAdapter | null }): ProposalDetail {
  const v = proposalStatusView(row, now, d);
  const expired = v.status === "expired" && row.status === "awaiting_user";
  return {
    ...v,
    walletId: row.wallet_id,
    error: row.error ?? (expired ? "the owner did not act within the approval window" : null),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    summary: row.summary,
    approvalExpiresAt: row.approval_expires_at ? new Date(row.approval_expires_at).toISOString() : null,
  };
}
