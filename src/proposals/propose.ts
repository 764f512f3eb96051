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
 * `proposeBuilt` is steps 2 to 5 for callers that build their own payload (swaps, x402 payments).
 */
import type { Principal } from "../accounts/principal";
import { ServiceError } from "../lib/errors";
import { prefixedId } from "../lib/ids";
import { limitsFromRow } from "../wallets/limits";
import { findWallet, lockWallet } from "../wallets/repo";
import type { Transaction } from "kysely";
import type { DB, ProposalKind } from "../db/schema";
import { ChainInputError, ChainUnavailableError, type ChainAdapter } from "../chains/port";
import { holdsForOwner, type ChainPayload, type MinimumOutput, type RawChange, type Simulated, type SimulationReport } from "../chains/types";
import type { KeyHandle } from "../chains/custody";
import { offlineChain } from "../chains/codecs";
import type { WalletView } from "../wallets/repo";
import { checkCustody } from "../wallets/custody/embedded";
import { proposeConflict, proposeFailed } from "./errors";
import { executeProposal } from "./execute";
import { proposalContext, proposalFacts } from "./facts";
import { checkDailyCap, checkLimits } from "./limits-check";
import { checkMinimumOutputs } from "./swap-bound";
import { proposalResult, type ProposalResult } from "./present";
import { findProposal, newProposalRow, reservedInWindow, transition } from "./repo";
import { cutNote, type ProposeRequest } from "./schemas";
import { decide } from "./state";
import type { ProposalsDeps } from "./types";

export const NO_MANDATE = "No mandate was set for this escrow wallet. Every action needs the owner's review: escalate it.";

export async function propose(deps: ProposalsDeps, principal: Principal, walletRef: string, req: ProposeRequest, source: "api" | "mcp" = "api"): Promise<ProposalResult> {
  const wallet = await findWallet(deps.db, principal.accountId, walletRef);
  if (wallet.archived_at) throw proposeConflict("the wallet is archived and cannot transact; an operator can unarchive it");
  const chain = deps.chains.forWallet(wallet.chain);
  const ref = { id: wallet.id, address: wallet.address, chain: wallet.chain };
  const built = await planned(() => {
    // A wallet whose chain is not served still answers "wrong chain" first, from its family's offline codec.
    (chain ?? offlineChain(wallet.chain))?.checkInputChain(req.input);
    if (req.input.kind === "x402_payment") throw new ChainInputError("x402_payment is refused on this route; use the MCP tool escrow_pay_x402");
    if (!chain) throw proposeConflict(`this ${wallet.chain} wallet cannot transact on this deployment (no ${wallet.chain} chain is configured)`);
    return chain.plan(ref, req.input);
  });
  // Every family plans the input's own kind (PlannedTransaction.kind), so the typed one is recorded.
  return proposeBuilt(deps, principal, wallet, { built: { ...built, kind: req.input.kind }, input: req.input, note: req.note, source, simulate: () => chain!.simulate(ref, built.payload, { declared: built.declared }) });
}

/**
 * Runs a chain adapter's planner (or any step that parses input with it) and maps its refusals to the
 * proposal vocabulary: a malformed field is 400 invalid_input naming it; a refusal is 400 propose_failed;
 * an unreachable chain is 502 chain_unavailable.
 */
export async function planned<T>(step: () => T | Promise<T>, code = "propose_failed"): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (err instanceof ChainInputError) {
      if (err.field) throw new ServiceError("invalid_input", "invalid_input", err.message.startsWith(err.field) ? err.message : `${err.field}: ${err.message}`);
      throw code === "propose_failed" ? proposeFailed(err.message) : new ServiceError("invalid_input", code, err.message);
    }
    if (err instanceof ChainUnavailableError) throw new ServiceError("upstream_failed", "chain_unavailable", `the chain could not be read: ${err.message}`.slice(0, 300));
    throw err;
  }
}

/**
 * The simulation every payload gets: the wallet chain's simulator, into the SPEC 2.8 report. A
 * simulation that finds the input itself at fault (a Solana wallet left unable to pay its fee or rent)
 * throws ChainInputError: callers map it with `planned`.
 */
export async function simulateProposal(chain: ChainAdapter, wallet: { id: string; address: string; chain: string }, built: { payload: ChainPayload; declared?: RawChange[] }): Promise<SimulationReport> {
  return (await chain.simulate(wallet, built.payload, { declared: built.declared })).report;
}

/** A report, or the adapter's full result whose `block` warnings hold the proposal for the owner. */
function splitSimulation(s: SimulationReport | Simulated): { report: SimulationReport; holds: string[] } {
  if (!("report" in s)) return { report: s, holds: [] };
  return { report: s.report, holds: s.warnings.filter(holdsForOwner).map((w) => w.message) };
}

/**
 * What a caller other than the propose route hands the pipeline (swaps, x402 payments): the built payload
 * and its requestHash, the input recorded and shown to the judge, and how to simulate it.
 */
export interface ProposeBuiltOptions {
  built: { kind: ProposalKind; payload: object; requestHash: string; summary: string; minimumOutputs?: MinimumOutput[] };
  input: Record<string, unknown>;
  note?: string | null;
  source: "api" | "mcp";
  /** Default: the wallet chain's simulation of `built.payload`. An adapter's full result also holds on `block` warnings. */
  simulate?: () => Promise<SimulationReport | Simulated>;
  /** Runs in the transaction that records the proposal (a kind's own rows). */
  onRecorded?: (tx: Transaction<DB>, proposalId: string) => Promise<void>;
}

/** Steps 2 to 5 for a wallet already resolved, checked and on a configured chain. */
export async function proposeBuilt(deps: ProposalsDeps, principal: Principal, wallet: WalletView, o: ProposeBuiltOptions): Promise<ProposalResult> {
  const { db, clock, logger } = deps;
  // Self-custodial wallets refuse what their owner's wallet cannot send; legacy safe wallets refuse all (409).
  checkCustody(wallet, o.built);
  const chain = deps.chains.forWallet(wallet.chain);
  if (!chain) throw proposeConflict(`this ${wallet.chain} wallet cannot transact on this deployment (no ${wallet.chain} chain is configured)`);
  const { built, source } = o;
  const req = { input: withoutProofData(o.input) };
  const note = cutNote(o.note);

  // Nothing is recorded or charged when the simulation refuses the input (400, no judge run).
  const sim = splitSimulation(await planned(() => (o.simulate ? o.simulate() : chain.simulate(wallet, built.payload as ChainPayload))));
  const simulation = sim.report;

  const id = prefixedId("prop");
  const rec = await db.transaction().execute(async (tx) => {
    // The rules are read under the lock: the proposal records the versions its limits were checked against
    // and its judge runs against, and signing refuses it if they changed since (rules-guard.ts).
    const w = await lockWallet(tx, wallet.id);
    if (w.archived_at) throw proposeConflict("the wallet is archived and cannot transact; an operator can unarchive it");
    const limits = limitsFromRow(w.limits);
    const lim = checkLimits(limits, simulation.changes, { simulated: simulation.status === "clean", addresses: chain.address });
    const now = clock.now();
    const spent = await reservedInWindow(tx, wallet.id, now, null);
    const blockReason = lim.reason ?? checkMinimumOutputs(built.minimumOutputs, simulation, chain.address) ?? checkDailyCap(limits, spent, lim.exposureUsd);
    await tx
      .insertInto("proposals")
      .values({
        ...newProposalRow({
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
          reserved_usd: blockReason ? 0 : lim.exposureUsd,
          cap_at: now,
          now,
        }),
        rules_version: w.rules_version,
        mandate_version: w.mandate_version,
      })
      .execute();
    await o.onRecorded?.(tx, id);
    return { spent, blocked: blockReason !== null, limits, lim, mandate: w.mandate };
  });
  const { limits, lim } = rec;
  logger.info({ proposalId: id, walletId: wallet.id, kind: built.kind, simulation: simulation.status, blockedByLimits: rec.blocked, source }, "proposal recorded");
  if (rec.blocked) return result(deps, id);

  const facts = proposalFacts({ kind: built.kind, summary: built.summary, chain: wallet.chain, chainId: chainIdOf(chain.info.caip2), family: chain.info.family, wallet: wallet.address, simulation, exposureUsd: lim.exposureUsd, unpriced: lim.unpriced });
  let run;
  try {
    run = await deps.verification.run(
      principal.accountId,
      {
        intent: rec.mandate ?? NO_MANDATE,
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
    walletMode: wallet.mode,
    simulationStatus: simulation.status,
    limitsCheckable: lim.checkable,
    canSign: canExecute(deps, chain, built.kind, { walletId: wallet.id, address: wallet.address, keyRef: key.key_ref }),
    ownerHold: chain.info.ownerConfirmsKinds?.includes(built.kind)
      ? `${built.kind === "transfer" ? "a named transfer" : `a ${built.kind}`} on a ${chain.info.key} wallet always waits for the owner's confirmation`
      : sim.holds.length
        ? `the simulation raised what the service cannot vouch for: ${sim.holds.join("; ")}`
        : null,
  });
  const judged = { verdict: run.verdict, scan_id: run.id, credits_remaining: run.creditsRemaining, proof: JSON.stringify(run.proof) };
  const judgeReason = run.reasoning ?? "";
  const now = clock.now();
  if (decision.next === "blocked") {
    const reasoning = decision.reason ? `${decision.reason} (${simulation.error}); the judge said ${run.verdict ?? "nothing"}: ${judgeReason}` : judgeReason;
    await transition(db, id, "verifying", "blocked", now, { ...judged, reasoning: reasoning.slice(0, 2000) });
  } else if (decision.next === "awaiting_user") {
    // The reason it waits comes first (that is what the owner acts on); the judge's own words follow.
    const reasoning = run.verdict === "ALLOW" ? `Held for the owner: ${decision.reason}. The judge allowed it: ${judgeReason}` : judgeReason || decision.reason;
    await transition(db, id, "verifying", "awaiting_user", now, { ...judged, reasoning: reasoning.slice(0, 2000), approval_expires_at: new Date(now.getTime() + deps.approvalWindowMs) });
  } else {
    await db.updateTable("proposals").set({ ...judged, reasoning: judgeReason.slice(0, 2000), updated_at: now }).where("id", "=", id).execute();
    await executeProposal(deps, id, "verifying");
  }
  return result(deps, id);
}

/** Whether the service can carry out this kind for the wallet now: a registered kind decides, else the chain's custody signer. */
function canExecute(deps: ProposalsDeps, chain: ChainAdapter, kind: string, h: KeyHandle): boolean {
  const handler = deps.kinds?.get(kind);
  return handler ? handler.canExecute(h) : chain.custody.canSign(h);
}

/** The chain id the judge's facts carry: the EIP-155 number for EVM chains (as before), else the CAIP-2 id. */
const chainIdOf = (caip2: string): number | string => (caip2.startsWith("eip155:") ? Number(caip2.slice(7)) : caip2);

export async function result(deps: ProposalsDeps, id: string): Promise<ProposalResult> {
  const row = await findProposal(deps.db, null, id);
  const w = await deps.db.selectFrom("wallets").select("chain").where("id", "=", row.wallet_id).executeTakeFirstOrThrow();
  const r = proposalResult(row, deps.clock.now(), { publicUrl: deps.publicUrl, chainOf: () => deps.chains.forWallet(w.chain) });
  const extra = await deps.kinds?.get(row.kind)?.present?.(deps, row);
  return extra ? { ...r, ...extra } : r;
}

/**
 * SPEC 4.9: a STRK20 proof (`starknet_calls.proof.data`, up to 4 MB) is never stored nor shown to the judge;
 * its facts stay (they are public and hashed into the transaction), its data becomes a note of its size.
 */
function withoutProofData(input: Record<string, unknown>): Record<string, unknown> {
  const p = input.proof as { facts?: unknown; data?: unknown } | null | undefined;
  if (!p || typeof p !== "object" || Array.isArray(p) || typeof p.data !== "string") return input;
  return { ...input, proof: { facts: p.facts, data: `[not stored: ${p.data.length} base64 characters]` } };
}
