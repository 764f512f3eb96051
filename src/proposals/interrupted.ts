/**
 * A proposal left `verifying` by a crash (issue 18, item 6). The process died between recording it and
 * deciding it; whether its judge had answered is in the ledger: the debit of its run carries the reason
 * `proposal:<id>` and the run's id as `ref`. Nothing charged may vanish without its receipt, so:
 *
 * - The judge answered (a COMPLETED run was charged): the verification is kept. The proposal gets the
 *   run's verdict, reasoning, `scanId`, proof and the balance after the debit, and is decided again from
 *   the stored verdict and simulation (state.decide). One change: a proposal that would have executed is
 *   held for the owner instead. The agent never received the answer (the crash cut its request) and may
 *   well have proposed the same action again; signing it minutes later, unseen, could pay twice. The owner's
 *   confirmation re-simulates and re-checks the rules as for any held proposal.
 * - The judge had not answered (no charge, or a PENDING remote-judge run): blocked, nothing signed; the
 *   verification sweep refunds a PENDING run once its judge deadline has passed (its refund is the receipt).
 */
import type { Executor } from "../wallets/repo";
import type { SimulationReport } from "../chains/types";
import { transition } from "./repo";
import { decide, type Verdict } from "./state";
import type { ProposalsDeps } from "./types";

const NOT_DECIDED = "interrupted: the service stopped before this proposal was decided; nothing was signed";

/** The completed, charged judge run of a proposal, if its judge answered. */
async function answeredRun(ex: Executor, accountId: string, proposalId: string) {
  const debit = await ex
    .selectFrom("credit_entries")
    .select(["ref", "balance_after"])
    .where("account_id", "=", accountId)
    .where("reason", "=", `proposal:${proposalId}`)
    .where("delta", "<", 0)
    .orderBy("id", "desc")
    .executeTakeFirst();
  if (!debit?.ref || !UUID.test(debit.ref)) return undefined;
  const run = await ex
    .selectFrom("verifications")
    .select(["id", "verdict", "reasoning", "request_hash", "transcript_root", "output_hash", "signature", "judge", "attested"])
    .where("id", "=", debit.ref)
    .where("account_id", "=", accountId)
    .where("status", "=", "COMPLETED")
    .executeTakeFirst();
  return run && { ...run, balance_after: debit.balance_after };
}
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Settles one interrupted proposal (locked by the caller); returns whether it moved. */
export async function settleInterrupted(deps: ProposalsDeps, ex: Executor, id: string): Promise<boolean> {
  const now = deps.clock.now();
  const p = await ex
    .selectFrom("proposals")
    .innerJoin("wallets", "wallets.id", "proposals.wallet_id")
    .select(["proposals.account_id", "proposals.simulation", "wallets.mode"])
    .where("proposals.id", "=", id)
    .executeTakeFirst();
  const run = p ? await answeredRun(ex, p.account_id, id) : undefined;
  if (!p || !run) return transition(ex, id, "verifying", "blocked", now, { error: NOT_DECIDED, reasoning: "interrupted before a decision; nothing was signed" });

  const verdict = run.verdict as Verdict;
  const simulation = (typeof p.simulation === "string" ? JSON.parse(p.simulation) : p.simulation) as SimulationReport | null;
  const judged = {
    verdict,
    scan_id: run.id,
    credits_remaining: run.balance_after,
    proof: JSON.stringify({
      requestHash: run.request_hash,
      transcriptRoot: run.transcript_root,
      outputHash: run.output_hash,
      signature: run.signature,
      judge: run.judge,
      attested: run.attested,
      anchorTx: null,
      anchorVerified: false,
      transcriptUri: `${deps.publicUrl}/api/v1/intent/${run.id}/transcript`,
      explorerTx: null,
    }),
  };
  const judgeReason = run.reasoning ?? "";
  // Limits were checked when it was recorded; whether the service could sign no longer matters (it is held).
  const decision = decide({ verdict, walletMode: p.mode, simulationStatus: simulation?.status ?? "unavailable", limitsCheckable: true, canSign: true });
  if (decision.next === "blocked") {
    const reasoning = decision.reason ? `${decision.reason}; the judge said ${verdict ?? "nothing"}: ${judgeReason}` : judgeReason;
    return transition(ex, id, "verifying", "blocked", now, { ...judged, reasoning: reasoning.slice(0, 2000), error: "interrupted after the judge answered; decided from its stored verdict" });
  }
  const why =
    decision.next === "execute"
      ? "the service stopped after the judge allowed it and before it was signed; the agent never got the answer and may have proposed again, so the owner confirms"
      : `the service stopped after the judge answered; ${decision.reason}`;
  const reasoning = verdict === "ALLOW" ? `Held for the owner: ${why}. The judge allowed it: ${judgeReason}` : `${judgeReason} (${why})`;
  return transition(ex, id, "verifying", "awaiting_user", now, { ...judged, reasoning: reasoning.slice(0, 2000), approval_expires_at: new Date(now.getTime() + deps.approvalWindowMs) });
}
