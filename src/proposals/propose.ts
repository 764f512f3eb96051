/**
 * propose: the escrow pipeline of SPEC 3, in order.
 *
 *  1. Resolve the wallet (404 on another account), refuse an archived one (409), check the chain and
 *     build the exact payload and its requestHash (400 propose_failed on refusals).
 *  2. Simulate (outside any lock), then check the limits against the simulated effects.
 *  3. Under the wallet's row lock: check the rolling 24-hour cap against what other proposals hold,
 *     and record the proposal, either `blocked` by a limit (free, no judge) or `verifying` holding its
 *     USD. The lock makes concurrent proposals see each other's reservations.
 *  4. Judge (one credit) against the mandate with the escrow preset. Out of credits (402) or a judge
 *     failure (502, credit refunded) leaves the proposal recorded as `blocked`.
 *  5. decide() picks blocked / awaiting_user / execute; execute signs and sends (execute.ts).
 *
 * The proposal exists from step 3 on, so a client that gives up waiting can still find it.
 */
import type { Principal } from "../accounts/principal";
import { ServiceError } from "../lib/errors";
import { prefixedId } from "../lib/ids";
import { simulateEvm } from "../chains/evm/simulate";
import { limitsFromRow } from "../wallets/limits";
import { findWallet, lockWallet } from "../wallets/repo";
import { buildEvmProposal, checkChain, simulationTxOf } from "./build";
import { proposeConflict } from "./errors";
import { executeProposal } from "./execute";
import { proposalContext, proposalFacts } from "./facts";
import { checkDailyCap, checkLimits } from "./limits-check";
import { proposalResult, type ProposalResult } from "./present";
import { findProposal, reservedInWindow, transition } from "./repo";
import { cutNote, type ProposeRequest } from "./schemas";
import { decide } from "./state";
import type { ProposalsDeps } from "./types";

export const NO_MANDATE = "No mandate was set for this escrow wallet. Every action needs the owner's review: escalate it.";

export async function propose(deps: ProposalsDeps, principal: Principal, walletRef: string, req: ProposeRequest, source: "api" | "mcp" = "api"): Promise<ProposalResult> {
  const { db, clock, logger } = deps;
  const wallet = await findWallet(db, principal.accountId, walletRef);
  if (wallet.archived_at) throw proposeConflict("the wallet is archived and cannot transact; an operator can unarchive it");
  checkChain(wallet.chain, req.input);
  const chain = deps.chains.evm(wallet.chain);
  if (!chain) throw proposeConflict(`this ${wallet.chain} wallet cannot transact on this deployment (no ${wallet.chain} chain is configured)`);
  const built = buildEvmProposal(chain, wallet, req.input);
  const note = cutNote(req.note);
  const limits = limitsFromRow(wallet.limits);

  const simulation = await simulateEvm(chain, simulationTxOf(built.payload), { clock, declared: built.declared });
  const lim = checkLimits(limits, simulation.changes, { simulated: simulation.status === "clean" });

  const id = prefixedId("prop");
  const rec = await db.transaction().execute(async (tx) => {
    await lockWallet(tx, wallet.id);
    const now = clock.now();
    const spent = await reservedInWindow(tx, wallet.id, now, null);
    const blockReason = lim.reason ?? checkDailyCap(limits, spent, lim.exposureUsd);
    await tx
      .insertInto("proposals")
      .values({
        id,
        account_id: principal.accountId,
        wallet_id: wallet.id,
        origin: "agent",
        kind: built.kind,
        status: blockReason ? "blocked" : "verifying",
        input: JSON.stringify(req.input),
        note,
        summary: built.summary,
        payload: JSON.stringify(built.payload),
        request_hash: built.requestHash,
        simulation: JSON.stringify(simulation),
        verdict: blockReason ? "BLOCK" : null,
        reasoning: blockReason,
        scan_id: null,
        credits_remaining: null,
        proof: null,
        reserved_usd: blockReason ? 0 : lim.exposureUsd,
        cap_at: now,
        approval_expires_at: null,
        nonce: null,
        signed_tx: null,
        tx_hash: null,
        signed_at: null,
        error: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    return { spent, blocked: blockReason !== null };
  });
  logger.info({ proposalId: id, walletId: wallet.id, kind: built.kind, simulation: simulation.status, blockedByLimits: rec.blocked, source }, "proposal recorded");
  if (rec.blocked) return result(deps, id);

  const facts = proposalFacts({ kind: built.kind, summary: built.summary, chain: wallet.chain, chainId: chain.info.chainId, wallet: wallet.address, simulation, exposureUsd: lim.exposureUsd, unpriced: lim.unpriced });
  let run;
  try {
    run = await deps.verification.run(
      principal.accountId,
      {
        intent: wallet.mandate ?? NO_MANDATE,
        action: { ...req.input, wallet: wallet.address, summary: built.summary },
        context: proposalContext({ wallet: { name: wallet.name, address: wallet.address, chain: wallet.chain, mode: wallet.mode }, limits, spentLast24hUsd: rec.spent, simulation }),
        preset: "escrow",
      },
      { source: "proposal", facts, note, reason: `proposal:${id}` },
    );
  } catch (err) {
    const now = clock.now();
    if (err instanceof ServiceError && (err.kind === "payment_required" || err.kind === "upstream_failed")) {
      const outOfCredits = err.kind === "payment_required";
      const why = outOfCredits ? "out of credits: the judge did not run" : "the judge run failed; the credit was refunded";
      await transition(db, id, "verifying", "blocked", now, { reasoning: why, error: why });
      throw new ServiceError(
        err.kind,
        "propose_failed",
        `${outOfCredits ? "out of credits: buy credits, then propose again" : `judge run failed (${err.detail ?? err.error}); your credit was refunded, retry`}. The proposal ${id} was recorded as blocked.`,
        { extra: { txId: id, ...(err.extra ?? {}) } },
      );
    }
    await transition(db, id, "verifying", "blocked", now, { reasoning: "internal error before a decision; nothing was signed", error: "internal error" });
    throw err;
  }

  const key = await db.selectFrom("wallets").select("key_ref").where("id", "=", wallet.id).executeTakeFirstOrThrow();
  const decision = decide({
    verdict: run.verdict,
    walletMode: wallet.mode as "autonomous" | "safe",
    simulationStatus: simulation.status,
    limitsCheckable: lim.checkable,
    canSign: deps.signer.canSign({ walletId: wallet.id, address: wallet.address, keyRef: key.key_ref }),
  });
  const judged = { verdict: run.verdict, scan_id: run.id, credits_remaining: run.creditsRemaining, proof: JSON.stringify(run.proof) };
  const judgeReason = run.reasoning ?? "";
  const now = clock.now();
  if (decision.next === "blocked") {
    const reasoning = decision.reason ? `${decision.reason} (${simulation.error}); the judge said ${run.verdict ?? "nothing"}: ${judgeReason}` : judgeReason;
    await transition(db, id, "verifying", "blocked", now, { ...judged, reasoning: reasoning.slice(0, 2000) });
  } else if (decision.next === "awaiting_user") {
    const reasoning = run.verdict === "ALLOW" ? `${judgeReason} (held for the owner: ${decision.reason})` : judgeReason || decision.reason;
    await transition(db, id, "verifying", "awaiting_user", now, { ...judged, reasoning: reasoning.slice(0, 2000), approval_expires_at: new Date(now.getTime() + deps.approvalWindowMs) });
  } else {
    await db.updateTable("proposals").set({ ...judged, reasoning: judgeReason.slice(0, 2000), updated_at: now }).where("id", "=", id).execute();
    await executeProposal(deps, id, "verifying");
  }
  return result(deps, id);
}

export async function result(deps: ProposalsDeps, id: string): Promise<ProposalResult> {
  const row = await findProposal(deps.db, null, id);
  const w = await deps.db.selectFrom("wallets").select("chain").where("id", "=", row.wallet_id).executeTakeFirstOrThrow();
  return proposalResult(row, deps.clock.now(), { publicUrl: deps.publicUrl, chainOf: () => deps.chains.evm(w.chain) });
}
