import { sql } from "kysely";
import { claimRows } from "../db/claim";
import type { Logger } from "pino";
import type { Database } from "../db/client";
import type { Principal } from "../accounts/principal";
import { applyCreditChange, debitOneAndInsert } from "../credits/ledger";
import { ServiceError } from "../lib/errors";
import { randomHex32 } from "../lib/hashing";
import { HASH32_RE, UUID_RE, uuid } from "../lib/ids";
import type { Clock } from "../lib/clock";
import type { Metrics } from "../observability/metrics";
import type { Judge, JudgeInput, TranscriptEntry } from "../judge/types";
import { resolvePreset } from "../judge/presets";
import { splitReference } from "../judge/reference";
import { buildReceipt } from "../receipts/receipt";
import type { ReceiptSigner } from "../receipts/signer";
import { createVerificationWriter } from "./batch-writer";
import type { PipelinedExecutor } from "../db/pglite-dialect";
import { detectAction, resolveVenue } from "../venues/registry";
import type { Facts } from "../venues/types";
import type { StoredVerification, VerificationResult, VerifyRequest } from "./schemas";
import type { VerificationMode } from "../db/schema";
import type { AnchorProof } from "../receipts/batch-tree";

export type VerificationSource = "api" | "mcp" | "dashboard" | "proposal";

export interface VerificationDeps {
  db: Database;
  judge: Judge;
  receiptSigner: ReceiptSigner;
  clock: Clock;
  metrics: Metrics;
  logger: Logger;
  publicUrl: string;
  /** Top-up terms to attach to out_of_credits errors (absent while top-ups are disabled). */
  topupTerms?: (accountId: string) => Promise<Record<string, unknown> | null>;
  /** How long a PENDING run may stay before recovery refunds it (judge timeout plus margin). */
  pendingGraceMs: number;
  /** The database's pipelined statement path, when it has one (src/db/pglite-dialect.ts). */
  pipelined?: PipelinedExecutor | null;
  /**
   * Receipt anchoring (src/anchoring), read-only here: a run's anchor status and inclusion proof. Anchoring
   * itself runs in the background; nothing on the request path waits for it. Absent: anchoring is off.
   */
  anchors?: AnchorReader;
}

export interface AnchorReader {
  view(row: { anchor_tx: string | null }): { anchorStatus: "verified" | "pending" | "skipped"; anchorTx: string | null; explorerTx: string | null };
  proof(row: { anchor_batch_id: string | number | bigint | null; anchor_leaf_index: number | null }): Promise<AnchorProof | null>;
}

const NO_ANCHORS: AnchorReader = {
  view: (row) => ({ anchorStatus: row.anchor_tx ? "verified" : "skipped", anchorTx: row.anchor_tx, explorerTx: null }),
  proof: async () => null,
};

/** Everything a run needs beyond the request: escrow proposals pass pre-computed facts and a note. */
export interface RunOptions {
  source: VerificationSource;
  facts?: Facts | null;
  note?: string | null;
  /** Ledger reason for the debit, e.g. "verification" or "proposal:prop_x". */
  reason?: string;
}

export interface RunResult extends VerificationResult {
  facts: Facts | null;
  transcript: TranscriptEntry[];
}

export function createVerificationService(deps: VerificationDeps) {
  const { db, judge, clock, metrics, logger } = deps;
  const anchors = deps.anchors ?? NO_ANCHORS;
  const writer = createVerificationWriter(db, {
    pipelined: deps.pipelined,
    observer: {
      batch(runs, seconds) {
        metrics.verificationBatchSize.observe(runs);
        metrics.verificationWriteDuration.observe(seconds);
      },
    },
  });

  const outOfCredits = async (accountId: string) => {
    const topup = (await deps.topupTerms?.(accountId)) ?? null;
    return new ServiceError("payment_required", "out_of_credits", "No credits left on this account. Buy credits with USDC over x402 (see topup).", {
      extra: topup ? { topup } : undefined,
    });
  };

  /**
   * The paid run. With a remote judge (a model that costs money and may take seconds): debit one credit and
   * record the run as PENDING in one statement, judge, then complete it with a signed receipt; a judge
   * failure refunds in one transaction with marking the run FAILED, and a crash in between is refunded by
   * recoverPending (nothing charged is lost). With an in-process judge (`judge.inProcess`: the rules
   * engine, free and bounded) the judge runs first and the debit, its ledger entry and the COMPLETED run
   * are written in one statement, shared with the runs finishing at the same time (batch-writer.ts):
   * nothing is charged unless the receipt is stored, a crash leaves nothing to recover, and the PENDING row
   * and its update are skipped (docs/performance.md).
   */
  async function run(accountId: string, req: VerifyRequest, opts: RunOptions): Promise<RunResult> {
    const venueId = resolveVenue(req.venue ?? null);
    const { context, reference } = splitReference(req.context ?? null);
    const preset = resolvePreset(req.preset);
    const facts = opts.facts !== undefined ? opts.facts : typeof req.action === "string" ? null : detectAction(req.action, venueId, req.context ?? null);
    const id = uuid();
    const requestHash = randomHex32();
    const mode: VerificationMode = facts ? "structured" : "semantic";
    const debit = { accountId, reason: opts.reason ?? "verification", ref: id };
    const row = {
      id,
      account_id: accountId,
      request_hash: requestHash,
      source: opts.source,
      mode,
      venue: facts?.venue ?? null,
      action_family: facts?.actionFamily ?? null,
      action_type: facts?.actionType ?? null,
      preset,
      intent: req.intent,
      action: JSON.stringify(req.action),
      context: req.context === undefined ? null : JSON.stringify(req.context),
      facts: facts ? JSON.stringify(facts) : null,
      anchor_tx: null,
    };
    const pending = { status: "PENDING" as const, verdict: null, reasoning: null, provider: null, transcript: null, transcript_root: null, output_hash: null, signature: null, judge: null, completed_at: null };

    if (!judge.inProcess) {
      // One statement: debit, ledger entry and the PENDING run (src/credits/ledger.ts).
      if ((await debitOneAndInsert(db, debit, "verifications", { ...row, ...pending })) === null) throw await outOfCredits(accountId);
      metrics.creditsDebited.inc();
    }

    const input: JudgeInput = { intent: req.intent, action: req.action, facts, context, reference, note: opts.note ?? null, preset };
    let output;
    try {
      output = await judge.judge(input);
    } catch (err) {
      if (!judge.inProcess) await refund(accountId, id, "refund:judge_failed");
      logger.warn({ err: errMessage(err), verificationId: id }, "judge run failed; credit refunded");
      throw new ServiceError("upstream_failed", "verification_failed", `the judge could not complete this run (${errMessage(err)}); your credit was refunded, retry`, { cause: err });
    }

    const transcript: TranscriptEntry[] = [
      { kind: "request", data: { requestHash, intent: req.intent, action: req.action, venue: req.venue ?? null, preset } },
      { kind: "context", data: { context, reference, note: opts.note ?? null } },
      { kind: "facts", data: facts },
      ...output.transcript,
      { kind: "output", data: { verdict: output.verdict, reasoning: output.reasoning, provider: output.provider } },
    ];
    const receipt = await buildReceipt({ requestHash, transcript, verdict: output.verdict, reasoning: output.reasoning, signer: deps.receiptSigner });
    const completed = {
      status: "COMPLETED" as const,
      verdict: output.verdict,
      reasoning: output.reasoning,
      provider: output.provider,
      transcript: JSON.stringify(transcript),
      transcript_root: receipt.transcriptRoot,
      output_hash: receipt.outputHash,
      signature: receipt.signature,
      judge: receipt.judge,
      completed_at: clock.now(),
    };
    let balance: number | null;
    if (judge.inProcess) {
      balance = await writer.write({ debit, row: { ...row, ...completed } });
      if (balance === null) throw await outOfCredits(accountId);
      metrics.creditsDebited.inc();
    } else {
      const done = await db
        .updateTable("verifications")
        .set(completed)
        .where("id", "=", id)
        .where("status", "=", "PENDING")
        // The balance comes back with the update: one statement fewer per verification.
        .returning((eb) => eb.selectFrom("accounts").select("credits_remaining").whereRef("accounts.id", "=", "verifications.account_id").as("credits_remaining"))
        .executeTakeFirst();
      // Recovery refunded this run while the judge was still working: the caller was not charged.
      if (!done) throw new ServiceError("upstream_failed", "verification_failed", "the run took too long and was refunded; retry");
      balance = done.credits_remaining;
    }
    metrics.verifications.inc({ verdict: output.verdict ?? "null", source: opts.source });
    return {
      id,
      requestHash,
      status: "COMPLETED",
      verdict: output.verdict,
      reasoning: output.reasoning,
      mode,
      venue: facts?.venue ?? null,
      actionFamily: facts?.actionFamily ?? null,
      actionType: facts?.actionType ?? null,
      proof: {
        ...receipt,
        // A fresh receipt is never anchored yet: its batch is formed in the background (anchorStatus pending).
        anchorVerified: false,
        transcriptUri: `${deps.publicUrl}/api/v1/intent/${id}/transcript`,
        explorerTx: null,
      },
      creditsRemaining: balance ?? 0,
      facts,
      transcript,
    };
  }

  async function refund(accountId: string, id: string, reason: string): Promise<boolean> {
    const refunded = await db.transaction().execute(async (tx) => {
      const marked = await tx.updateTable("verifications").set({ status: "FAILED", completed_at: clock.now() }).where("id", "=", id).where("status", "=", "PENDING").executeTakeFirst();
      if (marked.numUpdatedRows === 0n) return false;
      await applyCreditChange(tx, { accountId, delta: 1, reason, ref: id });
      return true;
    });
    if (refunded) metrics.creditsRefunded.inc();
    return refunded;
  }

  async function findRow(accountId: string, idOrHash: string) {
    const byId = UUID_RE.test(idOrHash);
    if (!byId && !HASH32_RE.test(idOrHash)) return undefined;
    return db
      .selectFrom("verifications")
      .selectAll()
      .where("account_id", "=", accountId)
      .where("status", "=", "COMPLETED")
      .where(byId ? "id" : "request_hash", "=", byId ? idOrHash.toLowerCase() : idOrHash.toLowerCase())
      .executeTakeFirst();
  }

  return {
    run,

    /** POST /api/v1/intent and MCP verify_intent. */
    async verify(principal: Principal, req: VerifyRequest, source: VerificationSource = "api"): Promise<VerificationResult> {
      const { facts: _f, transcript: _t, ...result } = await run(principal.accountId, req, { source });
      return result;
    },

    /** GET /api/v1/intent/{id}: by id or requestHash, only on the caller's account. */
    async get(principal: Principal, idOrHash: string): Promise<StoredVerification & { transcriptUri: string; explorerTx: string | null }> {
      const row = await findRow(principal.accountId, idOrHash);
      if (!row) throw new ServiceError("not_found", "not found", "no such verification on this account");
      const anchor = anchors.view(row);
      return {
        id: row.id,
        requestHash: row.request_hash,
        status: "COMPLETED",
        verdict: row.verdict as StoredVerification["verdict"],
        reasoning: row.reasoning,
        proof: {
          transcriptRoot: row.transcript_root ?? "",
          outputHash: row.output_hash ?? "",
          signature: row.signature ?? "",
          judge: row.judge ?? "",
          attested: row.attested,
          anchorTx: anchor.anchorTx,
          anchorStatus: anchor.anchorStatus,
        },
        createdAt: new Date(row.created_at).toISOString(),
        transcriptUri: `${deps.publicUrl}/api/v1/intent/${row.id}/transcript`,
        explorerTx: anchor.explorerTx,
      };
    },

    /** The full run record (transcript included) for its own account: receipts are verifiable offline. */
    async transcript(principal: Principal, idOrHash: string) {
      const row = await findRow(principal.accountId, idOrHash);
      if (!row) throw new ServiceError("not_found", "not found", "no such verification on this account");
      return {
        id: row.id,
        requestHash: row.request_hash,
        verdict: row.verdict,
        reasoning: row.reasoning,
        provider: row.provider,
        receipt: { requestHash: row.request_hash, transcriptRoot: row.transcript_root, outputHash: row.output_hash, signature: row.signature, judge: row.judge },
        transcript: row.transcript as TranscriptEntry[],
        facts: row.facts,
        createdAt: new Date(row.created_at).toISOString(),
        // The receipt's Merkle path to its batch's anchored root (docs/receipts.md); null until its batch is formed.
        anchor: await anchors.proof(row),
      };
    },

    async list(principal: Principal, opts: { limit: number; query?: string }) {
      let q = db.selectFrom("verifications").selectAll().where("account_id", "=", principal.accountId).where("status", "=", "COMPLETED");
      if (opts.query) {
        const like = `%${opts.query.replace(/[%_\\]/g, (m) => `\\${m}`)}%`;
        q = q.where((eb) => eb.or([eb("intent", "ilike", like), eb("reasoning", "ilike", like), eb("venue", "ilike", like), eb(sql<string>`action::text`, "ilike", like)]));
      }
      return q.orderBy("created_at", "desc").limit(opts.limit).execute();
    },

    /** Group-commit figures (statements written, runs, largest batch), for /metrics and the benchmark. */
    writerStats: () => writer.stats(),

    /**
     * Refunds runs left PENDING by a crash. A run is refunded only once its judge deadline has passed
     * everywhere: its age on the database's clock (created_at is the database's now()) must exceed
     * `pendingGraceMs`, which config keeps at least 1 s past JUDGE_TIMEOUT_MS, and the model call itself is
     * bounded by that deadline (src/judge/llm/deadline.ts). Rows are claimed (src/db/claim.ts): with several
     * processes sweeping, each run is refunded by one of them, in one transaction with its FAILED mark; a
     * late completion finds it no longer PENDING and is refused without charging (run() above).
     */
    async recoverPending(): Promise<number> {
      const graceSeconds = deps.pendingGraceMs / 1000;
      const n = await claimRows(
        db,
        (tx) =>
          tx
            .selectFrom("verifications")
            .select(["id", "account_id"])
            .where("status", "=", "PENDING")
            .where("created_at", "<", sql<Date>`now() - make_interval(secs => ${graceSeconds})`)
            .limit(500),
        async (tx, rows) => {
          for (const r of rows) {
            await tx.updateTable("verifications").set({ status: "FAILED", completed_at: clock.now() }).where("id", "=", r.id).execute();
            await applyCreditChange(tx, { accountId: r.account_id, delta: 1, reason: "refund:interrupted", ref: r.id });
          }
          return rows.length;
        },
      );
      if (n > 0) {
        metrics.creditsRefunded.inc(n);
        logger.warn({ refunded: n }, "refunded interrupted verification runs");
      }
      return n;
    },
  };
}

export type VerificationService = ReturnType<typeof createVerificationService>;

const errMessage = (e: unknown): string => (e instanceof Error ? e.message : String(e)).slice(0, 300);
