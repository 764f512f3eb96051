/**
 * The proposal state machine (SPEC 3), in one pure module. Every status change in the services goes
 * through `assertTransition`, and every decision about where a judged proposal goes is `decide`.
 *
 *   (new) ──limits fail──────────────────────────────> blocked      (no judge, no credit)
 *   (new) ──limits pass──> verifying ──BLOCK / revert / credit or judge failure──> blocked
 *                          verifying ──ALLOW + autonomous + clean + checkable + signer──> executing
 *                          verifying ──anything else──> awaiting_user ──window passes──> expired
 *   awaiting_user ──owner confirms (re-simulated, re-checked)──> executing
 *   awaiting_user ──owner rejects / wallet archived──> rejected
 *   awaiting_user ──rules changed and limits no longer pass / re-simulation reverts──> blocked
 *   executing ──receipt success──> executed
 *   executing ──receipt reverted, or the node refused the transaction──> failed
 *   verifying / awaiting_user ──cannot be signed (estimate now reverts, requestHash mismatch)──> failed
 *
 * `executing` means: the signed transaction is stored and has been (or is being) broadcast, and no
 * receipt has been seen yet. A restart reconciles it by hash (proposals/reconcile.ts).
 */
/** The one list of proposal statuses: the zod enums (REST, MCP, OpenAPI), the db column type and the
 * migration's CHECK constraint (test/db/schema-matches-migrations.test.ts) all derive from it. */
export const PROPOSAL_STATUSES = ["verifying", "blocked", "awaiting_user", "executing", "executed", "failed", "rejected", "expired"] as const;
export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number];

/** Statuses a propose response may carry (SPEC 3): never `verifying` (the call waits for the verdict),
 * never `rejected`/`expired` (those need an owner or the clock after the response). */
export const PROPOSE_STATUSES = ["blocked", "awaiting_user", "executing", "executed", "failed"] as const satisfies readonly ProposalStatus[];
export type ProposeStatus = (typeof PROPOSE_STATUSES)[number];

const TRANSITIONS: Record<ProposalStatus, readonly ProposalStatus[]> = {
  verifying: ["blocked", "awaiting_user", "executing", "failed"],
  awaiting_user: ["executing", "rejected", "blocked", "expired", "failed"],
  executing: ["executed", "failed"],
  blocked: [],
  executed: [],
  failed: [],
  rejected: [],
  expired: [],
};

export class TransitionError extends Error {}

export function canTransition(from: ProposalStatus, to: ProposalStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

export function assertTransition(from: ProposalStatus, to: ProposalStatus): void {
  if (!canTransition(from, to)) throw new TransitionError(`a proposal cannot go from ${from} to ${to}`);
}

export const isTerminal = (s: ProposalStatus): boolean => TRANSITIONS[s].length === 0;

export type Verdict = "ALLOW" | "BLOCK" | "ESCALATE" | null;

export interface DecisionInput {
  verdict: Verdict;
  walletMode: "autonomous" | "safe";
  simulationStatus: "clean" | "reverted" | "unavailable";
  /** Every set limit could be evaluated from the simulation (prices known, no unpriced outflow). */
  limitsCheckable: boolean;
  /** The custodian can sign for this wallet now (key present, executor available for batches). */
  canSign: boolean;
  /**
   * Why the wallet's chain holds this proposal for the owner whatever the judge says, or null: a kind it
   * always holds (ChainInfo.ownerConfirmsKinds), or a simulation warning of severity `block`.
   */
  ownerHold?: string | null;
}

export type Decision = { next: "blocked"; reason: string | null } | { next: "awaiting_user"; reason: string } | { next: "execute" };

/**
 * Where a judged proposal goes. A reverting simulation is blocked whatever the judge said (hard rule:
 * a transaction that reverts is never sent); `reason` is then the text that replaces the judge's.
 */
export function decide(i: DecisionInput): Decision {
  if (i.simulationStatus === "reverted") return { next: "blocked", reason: i.verdict === "BLOCK" ? null : "the simulation reverts: a transaction that reverts is never sent" };
  if (i.verdict === "BLOCK") return { next: "blocked", reason: null };
  if (i.verdict !== "ALLOW") return { next: "awaiting_user", reason: i.verdict === "ESCALATE" ? "the judge escalated this proposal to the owner" : "the judge gave no verdict; the owner decides" };
  if (i.walletMode === "safe") return { next: "awaiting_user", reason: "this is a safe wallet, so every proposal waits for the owner's confirmation" };
  if (i.ownerHold) return { next: "awaiting_user", reason: i.ownerHold };
  if (i.simulationStatus !== "clean") return { next: "awaiting_user", reason: "the simulation is unavailable, so the owner decides" };
  if (!i.limitsCheckable) return { next: "awaiting_user", reason: "the wallet limits could not be checked against the simulation (an asset has no USD price), so the owner decides" };
  if (!i.canSign) return { next: "awaiting_user", reason: "the service cannot sign this action itself, so the owner decides" };
  return { next: "execute" };
}

/** A held proposal past its window reads `expired` even before the sweep writes it. */
export function effectiveStatus(status: ProposalStatus, approvalExpiresAt: Date | null, now: Date): ProposalStatus {
  if (status === "awaiting_user" && approvalExpiresAt && approvalExpiresAt.getTime() <= now.getTime()) return "expired";
  return status;
}

/**
 * Whether a proposal's USD counts against the wallet's rolling 24-hour cap: while it may still move
 * funds or after it did. Blocked, rejected, expired and failed proposals moved nothing (a transaction
 * that reverted on chain paid gas only), so their reservation is released.
 */
export function holdsReservation(status: ProposalStatus, approvalExpiresAt: Date | null, now: Date): boolean {
  const s = effectiveStatus(status, approvalExpiresAt, now);
  return s === "verifying" || s === "awaiting_user" || s === "executing" || s === "executed";
}

/** The owner may confirm or reject only a held proposal inside its window. */
export function ownerActionable(status: ProposalStatus, approvalExpiresAt: Date | null, now: Date): { ok: true } | { ok: false; why: string } {
  const s = effectiveStatus(status, approvalExpiresAt, now);
  if (s === "awaiting_user") return { ok: true };
  if (s === "expired") return { ok: false, why: "the approval window has passed: the proposal expired; ask the agent to propose again" };
  return { ok: false, why: `the proposal is ${s}, not awaiting the owner` };
}
