/**
 * Offline receipt verification: recompute transcriptRoot and outputHash, recover the EIP-712 signer of
 * (requestHash, transcriptRoot, outputHash) and compare it with `judge` (and with an expected judge
 * address, or one of the pinned addresses, when given: callers that trust a receipt must pin). Every check
 * runs; `errors` lists each failure.
 */
import { isAddressEqual, recoverTypedDataAddress, type Hex } from "viem";
import type { TranscriptEntry, Verdict } from "../judge/types";
import { outputHash } from "./output";
import { receiptTypedData } from "./sign";
import { transcriptRoot } from "./transcript";

const BYTES32 = /^0x[0-9a-fA-F]{64}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const SIG65 = /^0x[0-9a-fA-F]{130}$/;
/** secp256k1 group order / 2: signatures must be low-s (EIP-2) so a third party cannot re-shape one. */
const HALF_N = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;

function canonicalSignatureError(sig: string): string | null {
  const s = BigInt(`0x${sig.slice(66, 130)}`);
  const v = parseInt(sig.slice(130, 132), 16);
  if (s === 0n || s > HALF_N) return "signature is not canonical (high s)";
  if (v !== 27 && v !== 28) return "signature is not canonical (v must be 27 or 28)";
  return null;
}

export interface VerifiableReceipt {
  requestHash: string;
  transcriptRoot: string;
  outputHash: string;
  signature: string;
  judge: string;
}

export async function verifyReceipt(
  receipt: VerifiableReceipt,
  transcript: TranscriptEntry[],
  output: { verdict: Verdict | null; reasoning: string | null },
  opts: { expectedJudge?: string; expectedJudges?: string[] } = {},
): Promise<{ ok: boolean; errors: string[] }> {
  const errors: string[] = [];
  const fieldsOk =
    BYTES32.test(receipt.requestHash) &&
    BYTES32.test(receipt.transcriptRoot) &&
    BYTES32.test(receipt.outputHash) &&
    ADDRESS.test(receipt.judge) &&
    SIG65.test(receipt.signature);
  if (!BYTES32.test(receipt.requestHash)) errors.push("requestHash is not 0x + 32 bytes");
  if (!BYTES32.test(receipt.transcriptRoot)) errors.push("transcriptRoot is not 0x + 32 bytes");
  if (!BYTES32.test(receipt.outputHash)) errors.push("outputHash is not 0x + 32 bytes");
  if (!ADDRESS.test(receipt.judge)) errors.push("judge is not an address");
  if (!SIG65.test(receipt.signature)) errors.push("signature is not 65 bytes");

  try {
    const root = transcriptRoot(transcript);
    if (root.toLowerCase() !== receipt.transcriptRoot.toLowerCase()) errors.push("transcriptRoot does not match the transcript");
  } catch (e) {
    errors.push(`transcript cannot be hashed: ${(e as Error).message}`);
  }
  try {
    const out = outputHash(output);
    if (out.toLowerCase() !== receipt.outputHash.toLowerCase()) errors.push("outputHash does not match the verdict and reasoning");
  } catch (e) {
    errors.push(`output cannot be hashed: ${(e as Error).message}`);
  }

  const canon = SIG65.test(receipt.signature) ? canonicalSignatureError(receipt.signature) : null;
  if (canon) errors.push(canon);

  if (fieldsOk && !canon) {
    try {
      const signer = await recoverTypedDataAddress({
        ...receiptTypedData({
          requestHash: receipt.requestHash as Hex,
          transcriptRoot: receipt.transcriptRoot as Hex,
          outputHash: receipt.outputHash as Hex,
        }),
        signature: receipt.signature as Hex,
      });
      if (!isAddressEqual(signer, receipt.judge as Hex)) errors.push("signature was not made by the judge key");
    } catch (e) {
      errors.push(`signature cannot be recovered: ${(e as Error).message.split("\n")[0]}`);
    }
  }
  // The signature only proves that the key the receipt names signed it; the pinned address(es) say whose
  // key that must be. Without this check anyone can re-sign an altered receipt with a key of their own.
  const expected = opts.expectedJudge !== undefined ? [opts.expectedJudge, ...(opts.expectedJudges ?? [])] : opts.expectedJudges;
  if (expected !== undefined) {
    const pinned = ADDRESS.test(receipt.judge) && expected.some((e) => ADDRESS.test(e) && isAddressEqual(e as Hex, receipt.judge as Hex));
    if (!pinned) errors.push("judge is not the expected judge address");
  }
  return { ok: errors.length === 0, errors };
}
