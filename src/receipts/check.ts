/**
 * The whole check `npm run cli -- receipt verify` runs on a transcript document (the JSON of
 * GET /api/v1/intent/{id}/transcript), offline unless an RPC is given:
 *  1. the transcript's Merkle root, the output hash and the EIP-712 signature (src/receipts/verify.ts);
 *  2. the signer against the PINNED judge keys (addresses given by the user, or a pinned judge document
 *     followed along its signed rotations), never the key the receipt names;
 *  3. the run's time within that key's validity period (createdAt is not signed: an anchor's block time is the
 *     signed bound, docs/receipts.md);
 *  4. when the document carries an anchor: the receipt's Merkle path to the batch root (src/receipts/batch-tree.ts)
 *     and, with `chainRoot` (read from the chain by the caller), that root on chain.
 */
import type { Hex } from "viem";
import type { TranscriptEntry, Verdict } from "../judge/types";
import { trustedKeys, withinValidity, type JudgeDocument, type TrustedKey } from "./judge-identity";
import { verifyReceipt } from "./verify";
import { checkInclusion, type AnchorProof } from "./batch-tree";

export interface TranscriptDocument {
  verdict: string | null;
  reasoning: string | null;
  createdAt?: string;
  receipt: { requestHash: string; transcriptRoot: string | null; outputHash: string | null; signature: string | null; judge: string | null };
  transcript: TranscriptEntry[];
  anchor?: AnchorProof | null;
}

export interface JudgePin {
  /** Addresses the user typed (`--judge`). */
  addresses?: string[];
  /** A judge document the user pinned earlier (`--judge-file`). */
  document?: JudgeDocument;
}

export interface CheckResult {
  ok: boolean;
  errors: string[];
  judge: string | null;
  verdict: string | null;
  /** `verified` (path checked against a root read from the chain), `included` (path checked offline), `none`. */
  inclusion: "verified" | "included" | "none";
  batchId: string | null;
}

export async function pinnedKeys(pin: JudgePin): Promise<{ keys: TrustedKey[]; problems: string[] }> {
  if (pin.document) return trustedKeys(pin.document, pin.addresses ?? []);
  const keys = (pin.addresses ?? []).map((a) => ({ address: a as Hex, validFrom: new Date(0).toISOString(), validUntil: null }));
  return { keys, problems: keys.length ? [] : ["no judge key pinned"] };
}

export async function checkTranscriptDocument(doc: TranscriptDocument, pin: JudgePin, opts: { chainRoot?: Hex | null } = {}): Promise<CheckResult> {
  const errors: string[] = [];
  const { keys, problems } = await pinnedKeys(pin);
  errors.push(...problems.filter(() => keys.length === 0));
  const r = doc.receipt ?? ({} as TranscriptDocument["receipt"]);
  const receipt = { requestHash: r.requestHash ?? "", transcriptRoot: r.transcriptRoot ?? "", outputHash: r.outputHash ?? "", signature: r.signature ?? "", judge: r.judge ?? "" };
  const base = await verifyReceipt(receipt, doc.transcript, { verdict: doc.verdict as Verdict | null, reasoning: doc.reasoning }, { expectedJudges: keys.map((k) => k.address) });
  errors.push(...base.errors);

  const key = keys.find((k) => k.address.toLowerCase() === receipt.judge.toLowerCase());
  if (key && doc.createdAt && !Number.isNaN(Date.parse(doc.createdAt)) && !withinValidity(key, new Date(doc.createdAt))) {
    errors.push(`the run's time ${doc.createdAt} is outside the judge key's validity period`);
  }

  let inclusion: CheckResult["inclusion"] = "none";
  if (doc.anchor && doc.anchor.root) {
    const inc = checkInclusion(receipt, doc.anchor);
    errors.push(...inc.errors);
    if (inc.errors.length === 0) inclusion = "included";
    if (opts.chainRoot !== undefined) {
      if (!opts.chainRoot || opts.chainRoot.toLowerCase() !== doc.anchor.root.toLowerCase()) errors.push("the batch root on chain does not match the transcript's anchor root");
      else if (inclusion === "included") inclusion = "verified";
    }
  } else if (opts.chainRoot !== undefined) {
    errors.push("the transcript carries no anchor to check on chain (not anchored yet?)");
  }
  return { ok: errors.length === 0, errors, judge: receipt.judge || null, verdict: doc.verdict, inclusion, batchId: doc.anchor?.batchId ?? null };
}
