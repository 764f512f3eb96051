/** The proposal verbs the transports call. One file per verb; this only binds them to their deps. */
import type { Principal } from "../accounts/principal";
import { confirmProposal, rejectProposal, type OwnerScope } from "./owner";
import type { WalletView } from "../wallets/repo";
import { propose, proposeBuilt, result, type ProposeBuiltOptions } from "./propose";
import { findProposal } from "./repo";
import { getDetail, getStatus, listProposals } from "./read";
import { expireHeld, reconcile } from "./reconcile";
import type { ListProposalsQuery, ProposeRequest, WithdrawRequest } from "./schemas";
import type { ProposalKindHandler, ProposalsDeps } from "./types";
import { withdraw } from "./withdraw";

export function createProposalsService(deps: ProposalsDeps) {
  return {
    /** POST /api/v1/wallets/{id}/propose and the MCP proposal tools. */
    propose: (p: Principal, walletRef: string, req: ProposeRequest, source: "api" | "mcp" = "api") => propose(deps, p, walletRef, req, source),
    /** Swaps and x402 payments: a payload built elsewhere, through the same simulate, limits, judge, execute. */
    proposeBuilt: (p: Principal, wallet: WalletView, o: ProposeBuiltOptions) => proposeBuilt(deps, p, wallet, o),
    /** Adds a kind carried out other than by an EVM transaction (x402_payment). */
    registerKind(kind: string, handler: ProposalKindHandler) {
      deps.kinds ??= new Map();
      if (deps.kinds.has(kind)) throw new Error(`proposal kind ${kind} is already registered`);
      deps.kinds.set(kind, handler);
    },
    /** GET /api/v1/escrow-transactions/{txId} (SPEC 2.10). */
    status: (p: Principal, txId: string) => getStatus(deps, p, txId),
    /** MCP get_escrow_transaction. */
    detail: (p: Principal, txId: string) => getDetail(deps, p, txId),
    list: (p: Principal, q: ListProposalsQuery) => listProposals(deps, p, q),
    /** The full proposal result (SPEC 2.7) for the owner's dashboard (its account) or an operator (null). */
    result: async (scope: OwnerScope, txId: string) => result(deps, (await findProposal(deps.db, scope.accountId, txId)).id),
    /** Owner verbs: the dashboard passes the owner's account; operators pass accountId null. */
    confirm: (scope: OwnerScope, txId: string) => confirmProposal(deps, scope, txId),
    reject: (scope: OwnerScope, txId: string) => rejectProposal(deps, scope, txId),
    withdraw: (scope: OwnerScope, walletRef: string, req: WithdrawRequest) => withdraw(deps, scope, walletRef, req),
    reconcile: (opts?: { minAgeMs?: number; settleWaitMs?: number }) => reconcile(deps, opts),
    expireHeld: () => expireHeld(deps),
  };
}
export type ProposalsService = ReturnType<typeof createProposalsService>;
