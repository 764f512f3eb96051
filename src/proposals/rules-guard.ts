/**
 * The rules a proposal was judged under must still hold when it is signed (issue 18, attacks 2 and 3).
 *
 * Called under the wallet's row lock, in the transaction that moves the proposal to `executing` (and at the
 * owner's confirmation), with the wallet row read under that lock. Refuses, with the reason to record:
 *  - an archived wallet (archiving while the judge runs must stop the proposal);
 *  - a mandate changed since the proposal was recorded (the judge's verdict was about another mandate);
 *  - limits changed since then that the proposal no longer passes, checked against its stored simulation and
 *    the rolling cap (excluding itself), or, for a proposal about to execute without the owner, limits it can
 *    no longer be checked against.
 * The owner's withdrawals (origin `owner`) are exempt: neither the mandate nor the limits apply to them, and
 * an archived wallet can still be withdrawn from. The credit of a judge that ran is kept: it answered.
 */
import type { Transaction } from "kysely";
import type { DB } from "../db/schema";
import type { AddressComparator, SimulationReport } from "../chains/types";
import { comparatorFor } from "../chains/codecs";
import { limitsFromRow } from "../wallets/limits";
import { checkDailyCap, checkLimits } from "./limits-check";
import { reservedInWindow, transition, type ProposalRow } from "./repo";
import type { ProposalsDeps } from "./types";

export interface RulesNow {
  id: string;
  archived_at: Date | null;
  limits: unknown;
  rules_version: number;
  mandate_version: number;
}

/** `o.addresses`: the wallet chain's address comparator (the adapter's codec). */
export async function rulesRefusal(tx: Transaction<DB>, p: ProposalRow, w: RulesNow, now: Date, o: { ownerDecides: boolean; addresses: AddressComparator }): Promise<string | null> {
  if (p.origin !== "agent") return null;
  if (w.archived_at) return "the wallet was archived before this proposal could be signed; nothing was signed";
  if (p.mandate_version !== null && p.mandate_version !== w.mandate_version) {
    return "the wallet's rules changed: its mandate was replaced after the judge ran, so the verdict was about another mandate; nothing was signed (propose again to be judged under the current mandate)";
  }
  if (p.rules_version !== null && p.rules_version === w.rules_version) return null;
  const sim = p.simulation as SimulationReport | null;
  const limits = limitsFromRow(w.limits);
  const lim = checkLimits(limits, sim?.changes ?? [], { simulated: sim?.status === "clean", addresses: o.addresses });
  const reason = lim.reason ?? checkDailyCap(limits, await reservedInWindow(tx, w.id, now, p.id), lim.exposureUsd);
  if (reason) return `the wallet's rules changed after the judge ran and this proposal no longer satisfies them (${reason}); nothing was signed`;
  if (!o.ownerDecides && !lim.checkable) return "the wallet's rules changed after the judge ran and this proposal cannot be checked against them (an asset has no USD price); nothing was signed";
  return null;
}

/**
 * rules-guard.ts under the wallet lock, in the signing transaction: a refusal blocks the proposal (its
 * verdict, scanId and charged credit stay: the judge answered). Shared by every kind's executor.
 */
export async function refusedByRules(deps: ProposalsDeps, tx: Transaction<DB>, p: ProposalRow, w: RulesNow & { chain: string }, from: "verifying" | "awaiting_user", now: Date): Promise<boolean> {
  const refusal = await rulesRefusal(tx, p, w, now, { ownerDecides: from === "awaiting_user", addresses: comparatorFor(deps.chains, w.chain) });
  if (!refusal) return false;
  const judged = p.verdict ? ` The judge had answered ${p.verdict}${p.reasoning ? `: ${p.reasoning}` : ""}` : "";
  await transition(tx, p.id, from, "blocked", now, { reasoning: `${refusal}.${judged}`.slice(0, 2000) });
  deps.logger.warn({ proposalId: p.id, walletId: w.id, reason: refusal }, "proposal refused at signing: the wallet's rules changed");
  return true;
}
