/** get and list (SPEC 2.10, 4.11, MCP list_escrow_transactions / get_escrow_transaction). Free. */
import type { Principal } from "../accounts/principal";
import { findWallet } from "../wallets/repo";
import { proposalDetail, proposalStatusView, type ProposalDetail, type ProposalStatusView } from "./present";
import { findProposal, type ProposalRow } from "./repo";
import type { ListProposalsQuery } from "./schemas";
import type { ProposalsDeps } from "./types";

function presenter(deps: ProposalsDeps) {
  const chainCache = new Map<string, string>();
  return async (rows: ProposalRow[]) => {
    const missing = [...new Set(rows.map((r) => r.wallet_id))].filter((w) => !chainCache.has(w));
    if (missing.length) {
      const ws = await deps.db.selectFrom("wallets").select(["id", "chain"]).where("id", "in", missing).execute();
      for (const w of ws) chainCache.set(w.id, w.chain);
    }
    return { publicUrl: deps.publicUrl, chainOf: (walletId: string) => deps.chains.forWallet(chainCache.get(walletId) ?? "") };
  };
}

export async function getStatus(deps: ProposalsDeps, principal: Principal, txId: string): Promise<ProposalStatusView> {
  const row = await findProposal(deps.db, principal.accountId, txId);
  return proposalStatusView(row, deps.clock.now(), await presenter(deps)([row]));
}

export async function getDetail(deps: ProposalsDeps, principal: Principal, txId: string): Promise<ProposalDetail> {
  const row = await findProposal(deps.db, principal.accountId, txId);
  return proposalDetail(row, deps.clock.now(), await presenter(deps)([row]));
}

/** Newest first; `status` filters on what reads show (a held proposal past its window is `expired`). */
export async function listProposals(deps: ProposalsDeps, principal: Principal, q: ListProposalsQuery): Promise<ProposalDetail[]> {
  const now = deps.clock.now();
  let query = deps.db.selectFrom("proposals").selectAll().where("account_id", "=", principal.accountId);
  if (q.wallet) query = query.where("wallet_id", "=", (await findWallet(deps.db, principal.accountId, q.wallet)).id);
  if (q.status === "expired") {
    query = query.where((eb) => eb.or([eb("status", "=", "expired"), eb.and([eb("status", "=", "awaiting_user"), eb("approval_expires_at", "<=", now)])]));
  } else if (q.status === "awaiting_user") {
    query = query.where("status", "=", "awaiting_user").where("approval_expires_at", ">", now);
  } else if (q.status) {
    query = query.where("status", "=", q.status);
  }
  const rows = await query.orderBy("created_at", "desc").orderBy("id", "desc").limit(q.limit).execute();
  const d = await presenter(deps)(rows);
  return rows.map((r) => proposalDetail(r, now, d));
}
