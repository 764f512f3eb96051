/**
 * Escrow wallets and proposals, built together (the wallet verbs call back into proposals inside the
 * wallet's row lock) from the parts the composition root owns: database, clock, chain, custodian and
 * the verification service. `start()` runs the start-up reconcile (before the service reports ready)
 * and a periodic sweep; `stop()` ends the sweep.
 */
import type { Logger } from "pino";
import type { Database } from "../db/client";
import type { Clock } from "../lib/clock";
import type { ChainRegistry } from "../chains/port";
import type { VerificationService } from "../verification/service";
import { createProposalsService, type ProposalsService } from "../proposals/service";
import { recheckHeld, rejectHeldOnArchive } from "../proposals/recheck";
import type { ProposalsDeps } from "../proposals/types";
import { createWalletsService, type WalletsService } from "./service";
import type { EscrowChains, WalletsDeps } from "./types";
import { createEmbeddedCustody, type EmbeddedCustody } from "./custody/embedded-service";
import { keyClaimer } from "../db/claim";

export interface EscrowOptions {
  db: Database;
  clock: Clock;
  logger: Logger;
  /** The chain adapters this deployment serves (Base: sandbox or BASE_RPC_URL); none when escrow is not configured. */
  chains: ChainRegistry;
  verification: VerificationService;
  publicUrl: string;
  approvalWindowMinutes: number;
  judgeTimeoutMs: number;
  /** Period of the reconcile/expiry sweep (default 15 s). */
  sweepMs?: number;
  /** The database is this process's alone (PGlite): start-up reconcile need not wait for other senders. */
  exclusiveDatabase?: boolean;
}

export interface Escrow {
  wallets: WalletsService;
  proposals: ProposalsService;
  embedded: EmbeddedCustody;
  configured: boolean;
  start(): Promise<void>;
  stop(): void;
}

export function createEscrow(o: EscrowOptions): Escrow {
  const chains: EscrowChains = o.chains;
  const served = chains.all();
  const receiptWaitMs = served.length ? Math.max(...served.map((a) => a.receiptTimeoutMs)) : 30_000;
  const pdeps: ProposalsDeps = {
    db: o.db,
    clock: o.clock,
    logger: o.logger,
    chains,
    verification: o.verification,
    publicUrl: o.publicUrl,
    approvalWindowMs: o.approvalWindowMinutes * 60_000,
    staleVerifyingMs: o.judgeTimeoutMs + 120_000,
    // Several processes on one PostgreSQL: each sweep step on a proposal holds its advisory lock.
    claim: keyClaimer(o.db, !o.exclusiveDatabase),
  };
  const proposals = createProposalsService(pdeps);
  const wdeps: WalletsDeps = {
    db: o.db,
    clock: o.clock,
    logger: o.logger,
    chains,
    publicUrl: o.publicUrl,
    ruleChangeWindowMs: o.approvalWindowMinutes * 60_000,
    onRulesChanged: (tx, wallet) => recheckHeld(pdeps, tx, wallet),
    onArchived: (tx, walletId) => rejectHeldOnArchive(pdeps, tx, walletId),
  };
  const wallets = createWalletsService(wdeps);
  // Self-custodial (embedded) wallets: connected with SIWE, confirmed by the owner's own wallet.
  const embedded = createEmbeddedCustody(wdeps, pdeps);
  let timer: NodeJS.Timeout | null = null;
  let running = false;
  /** How long a live request may still be sending a proposal (it waits this long for its receipt). */
  const liveSendMs = receiptWaitMs + 5_000;
  const sweep = async () => {
    if (running) return;
    running = true;
    try {
      // Leave proposals a live request is still waiting on to that request.
      await proposals.reconcile({ minAgeMs: liveSendMs });
    } catch (err) {
      o.logger.error({ err }, "escrow sweep failed");
    }
    try {
      await wallets.expireRuleChanges();
    } catch (err) {
      o.logger.error({ err }, "escrow sweep: expiring rule changes failed");
    } finally {
      running = false;
    }
  };
  return {
    wallets,
    proposals,
    embedded,
    configured: served.length > 0,
    async start() {
      if (served.length > 0) {
        // Before serving: whatever a crash left `executing` is settled or re-broadcast first.
        // With other processes on the database, a young `executing` row may be one a live process is still
        // sending: the start-up pass leaves those to their sender, as the sweep does. Alone on the database
        // (PGlite), nothing else is sending and everything is settled at once.
        await proposals.reconcile({ settleWaitMs: served.every((a) => a.info.sandbox) ? 5_000 : 0, minAgeMs: o.exclusiveDatabase ? 0 : liveSendMs }).catch((err) => o.logger.error({ err }, "start-up reconcile failed; the sweep will retry"));
      } else {
        await proposals.expireHeld();
      }
      await wallets.expireRuleChanges().catch((err) => o.logger.error({ err }, "start-up: expiring rule changes failed; the sweep will retry"));
      timer = setInterval(() => void sweep(), o.sweepMs ?? 15_000);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
