/**
 * Hooks the wallet verbs call inside the wallet's row lock (wired in escrow.ts).
 *
 * - After the mandate changes: every held proposal judged under the old one is blocked (its verdict was
 *   about another mandate; rules-guard.ts refuses it at confirmation anyway, this says so at once).
 * - After the limits change: every proposal still awaiting the owner is checked again, against its
 *   stored simulation and the rolling cap (excluding itself), and blocked when it no longer passes.
 *   Oldest first, so earlier proposals keep their place in the cap.
 * - After the wallet is archived: held proposals are rejected (an archived wallet never transacts).
 */
import type { Transaction } from "kysely";
import type { DB } from "../db/schema";
import type { SimulationReport } from "../chains/types";
import { comparatorFor } from "../chains/codecs";
import { limitsFromRow } from "../wallets/limits";
import type { WalletRow } from "../wallets/repo";
import { checkDailyCap, checkLimits } from "./limits-check";
import { reservedInWindow, transition } from "./repo";
import type { ProposalsDeps } from "./types";

export async function recheckHeld(deps: ProposalsDeps, tx: Transaction<DB>, wallet: WalletRow): Promise<string[]> {
  const now = deps.clock.now();
  const limits = limitsFromRow(wallet.limits);
  const held = await tx
    .selectFrom("proposals")
    .select(["id", "simulation", "mandate_version"])
    .where("wallet_id", "=", wallet.id)
    .where("origin", "=", "agent")
    .where("status", "=", "awaiting_user")
    .where("approval_expires_at", ">", now)
    .orderBy("created_at", "asc")
    .execute();
  const blocked: string[] = [];
  const addresses = comparatorFor(deps.chains, wallet.chain);
  for (const p of held) {
    if (p.mandate_version !== null && p.mandate_version !== wallet.mandate_version) {
      const why = "the wallet's mandate was replaced while this proposal waited for the owner: the judge's verdict was about another mandate; propose again";
      if (await transition(tx, p.id, "awaiting_user", "blocked", now, { reasoning: why })) blocked.push(p.id);
      continue;
    }
    const sim = p.simulation as SimulationReport | null;
    const lim = checkLimits(limits, sim?.changes ?? [], { simulated: sim?.status === "clean", addresses });
    const reason = lim.reason ?? checkDailyCap(limits, await reservedInWindow(tx, wallet.id, now, p.id), lim.exposureUsd);
    if (reason && (await transition(tx, p.id, "awaiting_user", "blocked", now, { reasoning: `${reason} (the wallet's limits changed while this proposal waited for the owner)` }))) {
      blocked.push(p.id);
    }
  }
  if (blocked.length) deps.logger.info({ walletId: wallet.id, blocked }, "held proposals blocked by new limits");
  return blocked;
}

export async function rejectHeldOnArchive(deps: ProposalsDeps, tx: Transaction<DB>, walletId: string): Promise<string[]> {
  const now = deps.clock.now();
  const rows = await tx
    .updateTable("proposals")
    .set({ status: "rejected", error: "the wallet was archived", updated_at: now })
    .where("wallet_id", "=", walletId)
    .where("status", "=", "awaiting_user")
    .returning("id")
    .execute();
  return rows.map((r) => r.id);
}
