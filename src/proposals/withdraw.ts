/**
 * withdraw: the owner moves funds out of a wallet (dashboard; operators via the admin API). It is the
 * owner's own money, so neither the mandate nor the agent's limits apply and no credit is charged; it
 * is still simulated (a reverting withdrawal is refused), recorded as a proposal (origin `owner`, kind
 * `withdrawal`, kept out of the agent's daily cap) and sent through the same crash-safe executor and
 * nonce lock as every other transaction. Archived wallets can be withdrawn from.
 */
import { ServiceError } from "../lib/errors";
import { prefixedId } from "../lib/ids";
import { findWallet, findWalletById } from "../wallets/repo";
import { newProposalRow } from "./repo";
import { executeProposal } from "./execute";
import type { ProposalResult } from "./present";
import { planned, result } from "./propose";
import type { WithdrawRequest } from "./schemas";
import type { ProposalsDeps } from "./types";
import type { OwnerScope } from "./owner";

export async function withdraw(deps: ProposalsDeps, scope: OwnerScope, walletRef: string, req: WithdrawRequest): Promise<ProposalResult> {
  const { db, clock } = deps;
  const wallet = scope.accountId === null ? await findWalletById(db, walletRef) : await findWallet(db, scope.accountId, walletRef);
  if (wallet.custody === "embedded") throw new ServiceError("conflict", "withdraw_failed", "this is a self-custodial wallet: its funds are in your own wallet; send them from there");
  const chain = deps.chains.forWallet(wallet.chain);
  if (!chain) throw new ServiceError("conflict", "withdraw_failed", `no ${wallet.chain} chain is configured on this deployment`);
  const ref = { id: wallet.id, address: wallet.address, chain: wallet.chain };
  const built = await planned(() => chain.buildTransfer(ref, req), "withdraw_failed");
  // The plain simulation (no residual-allowance pass needed: a transfer grants nothing).
  const sim = (await planned(() => chain.simulate(ref, built.payload, { declared: built.declared }), "withdraw_failed")).report;
  const id = prefixedId("prop");
  const now = clock.now();
  const reverted = sim.status === "reverted";
  await db
    .insertInto("proposals")
    .values(
      newProposalRow({
        id,
        account_id: wallet.account_id,
        wallet_id: wallet.id,
        origin: "owner",
        kind: "withdrawal",
        status: reverted ? "blocked" : "verifying",
        input: JSON.stringify({ kind: "withdrawal", ...req }),
        note: null,
        summary: `owner withdrawal: ${built.summary}`,
        payload: JSON.stringify(built.payload),
        request_hash: built.requestHash,
        simulation: JSON.stringify(sim),
        verdict: null,
        reasoning: reverted ? `the simulation reverts (${sim.error}): a transaction that reverts is never sent` : "owner withdrawal: the mandate and the agent's limits do not apply",
        reserved_usd: 0,
        cap_at: now,
        now,
      }),
    )
    .execute();
  deps.logger.info({ proposalId: id, walletId: wallet.id, asset: req.asset, amount: req.amount, to: req.to }, "owner withdrawal recorded");
  if (!reverted) await executeProposal(deps, id, "verifying");
  return result(deps, id);
}
