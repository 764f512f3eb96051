import type { Logger } from "pino";
import type { Database } from "../db/client";
import type { Clock } from "../lib/clock";
import type { VerificationService } from "../verification/service";
import type { KeyHandle } from "../chains/custody";
import type { SimulationReport } from "../chains/types";
import type { ProposalRow } from "./repo";
import type { EscrowChains } from "../wallets/types";
import type { KeyClaimer } from "../db/claim";

export interface ProposalsDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  chains: EscrowChains;
  verification: VerificationService;
  publicUrl: string;
  /** APPROVAL_WINDOW_MINUTES in ms: how long a held proposal waits for the owner. */
  approvalWindowMs: number;
  /** A proposal still `verifying` after this long was interrupted (crash during the judge run). */
  staleVerifyingMs: number;
  /**
   * Claims one proposal for a sweep step (src/db/claim.ts keyClaimer): on a database shared by several
   * processes, the advisory lock on ("proposal", id); absent = run (one process).
   */
  claim?: KeyClaimer;
  /** Proposal kinds carried out other than by a chain adapter's transaction (x402 payments), by `kind`. */
  kinds?: Map<string, ProposalKindHandler>;
}

/**
 * A proposal kind the pipeline records, limits and judges like any other, but carries out itself (e.g.
 * `x402_payment`: an EIP-3009 authorization sent to a resource, not a transaction). Registered with
 * `proposals.registerKind`; propose, confirm, execute, reconcile and result dispatch on `kind`.
 */
export interface ProposalKindHandler {
  /** Whether the service can carry this kind out for the wallet now (decide()'s `canSign`). */
  canExecute(h: KeyHandle): boolean;
  /** Carry it out; moves the proposal out of `from` (to executing, executed or failed) under its own guards. */
  execute(deps: ProposalsDeps, id: string, from: "verifying" | "awaiting_user"): Promise<void>;
  /** Fresh effects when the owner confirms; `block` when it can no longer execute as proposed. */
  resimulate(deps: ProposalsDeps, row: ProposalRow): Promise<{ simulation: SimulationReport; block?: string }>;
  /** Settle what a crash or a slow counterparty left `executing` (older than minAgeMs). */
  reconcile?(deps: ProposalsDeps, opts: { minAgeMs: number }): Promise<{ executed: number; failed: number }>;
  /** Fields added to the proposal result (SPEC 2.7 plus this kind's outcome). */
  present?(deps: ProposalsDeps, row: ProposalRow): Promise<Record<string, unknown> | null>;
}
