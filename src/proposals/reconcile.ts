/**
 * Settling what a crash (or a slow chain) left open, at start-up and periodically. Safe to run from many
 * processes at once: each `executing` proposal is claimed (deps.claim: an advisory lock per proposal on
 * PostgreSQL) for the whole of its lookup and settlement, so one process acts on it at a time and the others
 * skip it; `verifying` rows are taken FOR UPDATE SKIP LOCKED; expiry is one guarded UPDATE. Underneath,
 * every write is still a guarded status change, and re-broadcasting stored bytes never sends a second
 * transaction. A row younger than `minAgeMs` (the sending request's lease: it waits that long for its own
 * receipt) is left to its sender.
 *
 * - `executing`: the chain adapter looks up the stored hash (adapter.lookup). Final: executed or failed.
 *   Pending: wait. Dropped (provably never lands, e.g. the nonce was spent by another transaction):
 *   failed. Unknown to the node: re-broadcast the same bytes.
 * - `verifying` older than the judge's grace period: the process died between the limit check and the
 *   decision. If its judge had answered (a charged, completed run), the verdict is kept and it is decided
 *   again, held for the owner rather than executed; else blocked, nothing signed, and the verification
 *   sweep refunds an unfinished judge run (interrupted.ts).
 * - `awaiting_user` past its window: expired (reads already show it; this makes it durable and lets
 *   listings filter on it).
 */
import { failRejected, settle } from "./execute";
import { transition } from "./repo";
import { claimRows, unclaimed } from "../db/claim";
import { settleInterrupted } from "./interrupted";
import { reconcileEmbedded } from "../wallets/custody/embedded-confirm";
import type { ProposalsDeps } from "./types";

export interface ReconcileReport {
  executed: number;
  failed: number;
  rebroadcast: number;
  pending: number;
  interrupted: number;
  expired: number;
}

/** `settleWaitMs`: after a re-broadcast, how long to wait for its receipt before moving on (start-up). */
export async function reconcile(deps: ProposalsDeps, opts: { minAgeMs?: number; settleWaitMs?: number } = {}): Promise<ReconcileReport> {
  const { db, clock, logger } = deps;
  const report: ReconcileReport = { executed: 0, failed: 0, rebroadcast: 0, pending: 0, interrupted: 0, expired: 0 };
  const now = clock.now();

  // Only proposals no live request is still working on (a propose call waits for its receipt itself).
  const cutoff = new Date(now.getTime() - (opts.minAgeMs ?? 0));
  const executing = await db
    .selectFrom("proposals")
    .innerJoin("wallets", "wallets.id", "proposals.wallet_id")
    .select(["proposals.id", "proposals.kind", "proposals.wallet_id", "proposals.tx_hash", "proposals.signed_tx", "proposals.nonce", "wallets.chain", "wallets.address", "wallets.custody"])
    .where("proposals.status", "=", "executing")
    .where("proposals.updated_at", "<=", cutoff)
    .orderBy("proposals.updated_at")
    .limit(200)
    .execute();
  const claim = deps.claim ?? unclaimed;
  for (const p of executing) {
    if (deps.kinds?.has(p.kind)) continue; // settled by the kind's own reconcile below
    if (p.custody === "embedded") continue; // settled by reconcileEmbedded below (no stored bytes)
    const chain = deps.chains.forWallet(p.chain);
    if (!chain || !p.tx_hash || !p.signed_tx) continue;
    const hash = p.tx_hash;
    const signedTx = p.signed_tx;
    try {
      await claim("proposal", p.id, async () => {
        // Claimed: re-read, another process may have settled it since the list was read.
        const now = await db.selectFrom("proposals").select("status").where("id", "=", p.id).executeTakeFirst();
        if (now?.status !== "executing") return;
        const found = await chain.lookup({ hash, raw: signedTx, address: p.address, sequence: p.nonce });
        if (found.state === "succeeded" || found.state === "reverted") {
          const settled = await settle(deps, p.id, hash, found);
          if (settled) report[settled]++;
          return;
        }
        if (found.state === "pending") {
          report.pending++;
          return;
        }
        if (found.state === "dropped") {
          if (await transition(db, p.id, "executing", "failed", clock.now(), { error: found.reason })) report.failed++;
          return;
        }
        const out = await chain.broadcast({ raw: signedTx, hash });
        if (out.kind === "rejected") {
          if (await failRejected(deps, { id: p.id, walletId: p.wallet_id, nonce: p.nonce }, out.reason)) report.failed++;
        } else {
          report.rebroadcast++;
          logger.info({ proposalId: p.id, txHash: hash, outcome: out.kind }, "re-broadcast a stored transaction");
          const final = opts.settleWaitMs ? await chain.waitForFinal(hash, opts.settleWaitMs) : null;
          const settled = final ? await settle(deps, p.id, hash, final) : null;
          if (settled) report[settled]++;
        }
      });
    } catch (err) {
      logger.warn({ proposalId: p.id, err: (err as Error).message }, "reconcile: chain not readable; will retry");
    }
  }

  for (const [name, kind] of deps.kinds ?? []) {
    try {
      const r = (await kind.reconcile?.(deps, { minAgeMs: opts.minAgeMs ?? 0 })) ?? { executed: 0, failed: 0 };
      report.executed += r.executed;
      report.failed += r.failed;
    } catch (err) {
      logger.warn({ kind: name, err: (err as Error).message }, "reconcile: a proposal kind could not settle; will retry");
    }
  }

  // Self-custodial wallets: the owner's wallet sent it; only the receipt (or a spent nonce) can settle it.
  try {
    const r = await reconcileEmbedded(deps, { minAgeMs: opts.minAgeMs ?? 0 });
    report.executed += r.executed;
    report.failed += r.failed;
  } catch (err) {
    logger.warn({ err: (err as Error).message }, "reconcile: embedded proposals could not settle; will retry");
  }

  const stale = new Date(now.getTime() - deps.staleVerifyingMs);
  report.interrupted = await claimRows(
    db,
    (tx) => tx.selectFrom("proposals").select("id").where("status", "=", "verifying").where("updated_at", "<", stale).limit(200),
    async (tx, rows) => {
      let n = 0;
      for (const p of rows) {
        if (await settleInterrupted(deps, tx, p.id)) n++;
      }
      return n;
    },
  );

  report.expired = await expireHeld(deps);
  const changed = report.executed + report.failed + report.rebroadcast + report.interrupted + report.expired;
  if (changed > 0) logger.info({ ...report }, "proposals reconciled");
  return report;
}

/**
 * awaiting_user -> expired for every proposal past its window (the reservation is released with it). One
 * guarded UPDATE: two processes expiring at once each move a row at most once (the second re-checks the
 * status after the first commits and skips it), so the proposal.expired event is recorded once.
 */
export async function expireHeld(deps: ProposalsDeps): Promise<number> {
  const now = deps.clock.now();
  const r = await deps.db
    .updateTable("proposals")
    .set({ status: "expired", error: "the owner did not act within the approval window", updated_at: now })
    .where("status", "=", "awaiting_user")
    .where("approval_expires_at", "<=", now)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}
