import { verifyReceipt } from "../receipts/verify";
import type { TranscriptEntry, Verdict } from "../judge/types";

/** The stored run as `services.verification.transcript` returns it. */
export interface TranscriptDoc {
  verdict: string | null;
  reasoning: string | null;
  receipt: { requestHash: string; transcriptRoot: string | null; outputHash: string | null; signature: string | null; judge: string | null };
  transcript: TranscriptEntry[];
}

/**
 * The same check the page runs in the browser (assets/receipt.js bundles src/receipts/verify.ts), for
 * browsers without JavaScript modules and for scripts.
 */
export async function verifyReceiptServerSide(doc: TranscriptDoc, expectedJudge: string) {
  const r = doc.receipt;
  return verifyReceipt(
    { requestHash: r.requestHash, transcriptRoot: r.transcriptRoot ?? "", outputHash: r.outputHash ?? "", signature: r.signature ?? "", judge: r.judge ?? "" },
    doc.transcript,
    { verdict: doc.verdict as Verdict | null, reasoning: doc.reasoning },
    { expectedJudge },
  );
}
