/**
 * Receipt anchoring (docs/receipts.md): a background worker, never on a verification's request path.
 *
 * Each tick forms due batches (store.formBatch) and walks every open batch one step along
 *
 *   built --sign, store the signed tx, broadcast--> sent --receipt seen--> mined --confirmed, root re-read--> verified
 *
 * Crash safety: the signed transaction is stored before it is broadcast, so a restart re-sends the same bytes
 * (same hash) instead of a second transaction. The contract stores a root once per (anchorer, batchId): if two
 * transactions for a batch are ever mined, the second is a no-op, and the batch's anchorTx is the one that
 * emitted `Anchored`. A reverted, dropped or reorged transaction sends the batch back a step and it is retried.
 * Each step is a compare-and-set on the batch's state; batches are claimed with FOR UPDATE SKIP LOCKED.
 */
import type { Logger } from "pino";
import type { Database } from "../db/client";
import type { Clock } from "../lib/clock";
import { uuid } from "../lib/ids";
import { batchPath, type AnchorProof } from "../receipts/batch-tree";
import type { AnchorChain, Hex } from "./chain";
import { claimOpenBatch, releaseBatch } from "./claim";
import { advance, formBatch, getBatch, markVerified, unpackLeaves, type BatchRow } from "./store";

export interface AnchoringOptions {
  /** Leaves per batch at most (a full batch is formed at once). */
  maxLeaves: number;
  /** A run waits at most this long before its batch is formed. */
  maxWaitMs: number;
  /** How often the worker looks for work. */
  pollMs: number;
  /** Blocks on top of the anchor's block (itself included) before the root is re-read and the batch verified. */
  confirmations: number;
}

export type AnchorStatus = "verified" | "pending" | "skipped";

export interface AnchorView {
  anchorStatus: AnchorStatus;
  anchorTx: string | null;
  explorerTx: string | null;
}

export function createAnchoring(deps: { db: Database; chain: AnchorChain | null; clock: Clock; logger: Logger; options: AnchoringOptions }) {
  const { db, chain, clock, logger, options } = deps;
  const owner = uuid();
  const log = logger.child({ component: "anchoring" });
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;

  const later = (ms: number) => new Date(clock.now().getTime() + ms);
  const backoff = (attempts: number) => later(Math.min(60_000, options.pollMs * 2 ** Math.min(attempts, 6)));

  /** The batch's anchoring transaction is mined: record the one that emitted Anchored. */
  async function toMined(b: BatchRow, c: AnchorChain, from: "built" | "sent"): Promise<boolean> {
    const found = await c.findAnchor(BigInt(b.id), BigInt(b.sent_block ?? "0"));
    if (!found) return false;
    const r = await c.receipt(found.hash);
    return advance(db, b.id, from, { status: "mined", tx_hash: found.hash, block_number: String(found.blockNumber), block_hash: found.blockHash, gas_used: r ? String(r.gasUsed) : null, last_error: null });
  }

  /** One step of batch `b`; returns when it is worth looking at again. */
  async function step(b: BatchRow, c: AnchorChain): Promise<Date> {
    const batchId = BigInt(b.id);
    if (b.status === "built") {
      const onChain = await c.rootOf(batchId);
      if (onChain && onChain.toLowerCase() === b.root.toLowerCase()) {
        await toMined(b, c, "built");
        return later(options.pollMs);
      }
      if (onChain) {
        // The contract already holds another root for this id (e.g. a database restored behind the chain).
        await advance(db, b.id, "built", { status: "conflict", last_error: `the contract holds ${onChain} for batch ${b.id}` });
        log.error({ batchId: b.id, onChain, root: b.root }, "anchor batch id already used on chain with another root; batch not anchored");
        return later(0);
      }
      const head = await c.head();
      const signed = await c.sign({ id: batchId, root: b.root as Hex, leafCount: b.leaf_count });
      const stored = await advance(db, b.id, "built", { status: "sent", tx_hash: signed.hash, tx_raw: signed.raw, tx_nonce: signed.nonce, sent_block: String(head), attempts: b.attempts + 1 });
      if (!stored) return later(options.pollMs);
      const sent = await c.broadcast(signed.raw);
      log.info({ batchId: b.id, leaves: b.leaf_count, tx: signed.hash, nonce: signed.nonce, broadcast: sent }, "anchor transaction sent");
      return later(options.pollMs);
    }

    if (b.status === "sent") {
      const r = await c.receipt(b.tx_hash as Hex);
      if (r?.success) {
        // Ours may have been a no-op if another transaction anchored first: the emitting one is recorded.
        if (!(await toMined(b, c, "sent"))) log.warn({ batchId: b.id, tx: b.tx_hash }, "anchor transaction mined but no Anchored event found yet");
        return later(options.pollMs);
      }
      const onChain = await c.rootOf(batchId);
      if (onChain && onChain.toLowerCase() === b.root.toLowerCase() && (await toMined(b, c, "sent"))) return later(options.pollMs);
      if (r && !r.success) {
        await advance(db, b.id, "sent", { status: "built", tx_hash: null, tx_raw: null, tx_nonce: null, last_error: `anchor transaction ${b.tx_hash} reverted` });
        log.warn({ batchId: b.id, tx: b.tx_hash }, "anchor transaction reverted; re-sending");
        return backoff(b.attempts);
      }
      // Not mined: pending, dropped or reorged out. Re-sending the same bytes is harmless.
      const again = await c.broadcast(b.tx_raw as Hex);
      if (again === "nonce_used") {
        await advance(db, b.id, "sent", { status: "built", tx_hash: null, tx_raw: null, tx_nonce: null, last_error: `nonce ${b.tx_nonce} was used by another transaction` });
        log.warn({ batchId: b.id, tx: b.tx_hash, nonce: b.tx_nonce }, "anchor transaction replaced (nonce used); re-signing");
        return later(0);
      }
      return later(options.pollMs);
    }

    if (b.status === "mined") {
      const head = await c.head();
      if (head - BigInt(b.block_number ?? "0") + 1n < BigInt(options.confirmations)) return later(options.pollMs);
      const r = await c.receipt(b.tx_hash as Hex);
      const onChain = await c.rootOf(batchId);
      const stillThere = r && r.success && r.blockHash.toLowerCase() === (b.block_hash ?? "").toLowerCase();
      if (!stillThere || !onChain || onChain.toLowerCase() !== b.root.toLowerCase()) {
        // Reorged out (or moved to another block): follow it again from "sent".
        await advance(db, b.id, "mined", { status: "sent", block_number: null, block_hash: null, last_error: "anchor transaction no longer in its block (reorg)" });
        log.warn({ batchId: b.id, tx: b.tx_hash }, "anchor transaction reorged; following it again");
        return later(0);
      }
      if (await markVerified(db, b.id, b.tx_hash as string, clock.now())) log.info({ batchId: b.id, tx: b.tx_hash, block: b.block_number, gasUsed: b.gas_used }, "anchor batch verified");
      return later(0);
    }
    return later(options.pollMs);
  }

  /** Forms due batches, then takes one step on each open batch this worker can claim. */
  async function tick(): Promise<void> {
    if (!chain) return;
    const info = { chainId: chain.chainId, contract: chain.contract, anchorer: chain.anchorer };
    for (let i = 0; i < 100; i++) {
      const formed = await formBatch(db, { maxLeaves: options.maxLeaves, maxWaitMs: options.maxWaitMs, now: clock.now(), chain: info });
      if (!formed) break;
      log.info({ batchId: formed.id, leaves: formed.leafCount }, "anchor batch formed");
    }
    for (let i = 0; i < 100 && !stopped; i++) {
      const b = await claimOpenBatch(db, owner, clock.now(), 60_000);
      if (!b) break;
      let next: Date;
      let error: string | null = null;
      try {
        next = await step(b, chain);
      } catch (err) {
        error = err instanceof Error ? err.message.split("\n")[0] : String(err);
        next = backoff(b.attempts);
        log.warn({ batchId: b.id, err: error }, "anchor step failed; will retry");
      }
      await releaseBatch(db, b.id, owner, next, error);
    }
  }

  const runTick = () => {
    if (running || stopped) return running ?? Promise.resolve();
    running = tick()
      .catch((err) => log.error({ err: err instanceof Error ? err.message : String(err) }, "anchoring tick failed"))
      .finally(() => (running = null));
    return running;
  };

  return {
    enabled: chain !== null,
    chain,
    /** One pass of the worker (tests and the bench drive it directly). */
    tick: runTick,
    start() {
      if (!chain || timer) return;
      stopped = false;
      timer = setInterval(() => void runTick(), options.pollMs);
      timer.unref();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },

    /** What a run's receipt says about its anchor. `skipped` only where anchoring is off. */
    view(row: { anchor_tx: string | null }): AnchorView {
      if (row.anchor_tx) return { anchorStatus: "verified", anchorTx: row.anchor_tx, explorerTx: chain?.explorerTxUrl(row.anchor_tx as Hex) ?? null };
      return { anchorStatus: chain ? "pending" : "skipped", anchorTx: null, explorerTx: null };
    },

    /** The run's inclusion proof, once its batch is formed. */
    async proof(row: { anchor_batch_id: string | number | bigint | null; anchor_leaf_index: number | null }): Promise<AnchorProof | null> {
      if (row.anchor_batch_id === null || row.anchor_leaf_index === null) return null;
      const b = await getBatch(db, String(row.anchor_batch_id));
      if (!b) return null;
      const leaves = unpackLeaves(b.leaves);
      const verified = b.status === "verified";
      return {
        status: verified ? "verified" : "pending",
        batchId: b.id,
        root: b.root as Hex,
        leaf: leaves[row.anchor_leaf_index],
        leafIndex: row.anchor_leaf_index,
        leafCount: b.leaf_count,
        path: batchPath(leaves, row.anchor_leaf_index),
        chainId: b.chain_id,
        contract: b.contract as Hex,
        anchorer: b.anchorer as Hex,
        tx: verified ? (b.tx_hash as Hex) : null,
        blockNumber: verified ? b.block_number : null,
        explorerTx: verified && chain ? chain.explorerTxUrl(b.tx_hash as Hex) : null,
      };
    },
  };
}

export type Anchoring = ReturnType<typeof createAnchoring>;
