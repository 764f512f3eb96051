import { verifyReceipt } from "../receipts/verify";
import type { TranscriptEntry, Verdict } from "../judge/types";
import { checkInclusion, type AnchorProof } from "../receipts/batch-tree";

/** The stored run as `services.verification.transcript` returns it. */
export interface TranscriptDoc {
  verdict: string | null;
  reasoning: string | null;
  receipt: { requestHash: string; transcriptRoot: string | null; outputHash: string | null; signature: string | null; judge: string | null };
  transcript: TranscriptEntry[];
  anchor?: AnchorProof | null;
}

/**
 * The same check the page runs in the browser (assets/receipt.js bundles src/receipts/verify.ts), for
 * browsers without JavaScript modules and for scripts.
 */
export async function verifyReceiptServerSide(doc: TranscriptDoc, expectedJudge: string) {
  const r = doc.receipt;
  const result: { ok: boolean; errors: string[]; inclusion?: string } = await verifyReceipt(
    { requestHash: r.requestHash, transcriptRoot: r.transcriptRoot ?? "", outputHash: r.outputHash ?? "", signature: r.signature ?? "", judge: r.judge ?? "" },
    doc.transcript,
    { verdict: doc.verdict as Verdict | null, reasoning: doc.reasoning },
    { expectedJudge },
  );
  if (doc.anchor?.root) {
    const { errors } = checkInclusion({ requestHash: r.requestHash, transcriptRoot: r.transcriptRoot ?? "", outputHash: r.outputHash ?? "" }, doc.anchor);
    result.errors.push(...errors);
    result.ok = result.errors.length === 0;
    if (errors.length === 0) result.inclusion = `inclusion verified: leaf ${doc.anchor.leafIndex} of batch ${doc.anchor.batchId}`;
  }
  return result;
}
