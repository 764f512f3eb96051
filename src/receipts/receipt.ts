import type { Hex } from "viem";
import type { TranscriptEntry, Verdict } from "../judge/types";
import { outputHash } from "./output";
import { keccak256Fast } from "../lib/keccak";
import type { ReceiptSigner } from "./signer";
import { transcriptRoot } from "./transcript";

export interface Receipt {
  transcriptRoot: Hex;
  outputHash: Hex;
  signature: Hex;
  judge: Hex;
  attested: false;
  anchorTx: null;
}

const BYTES32 = /^0x[0-9a-fA-F]{64}$/;

/** Builds and signs the receipt (SPEC 2.2) of one judge run. */
export async function buildReceipt(args: {
  requestHash: Hex;
  transcript: TranscriptEntry[];
  verdict: Verdict | null;
  reasoning: string | null;
  signer: ReceiptSigner;
}): Promise<Receipt> {
  if (!BYTES32.test(args.requestHash)) throw new Error("buildReceipt: requestHash must be 0x + 32 bytes");
  const root = transcriptRoot(args.transcript, keccak256Fast);
  const out = outputHash({ verdict: args.verdict, reasoning: args.reasoning }, keccak256Fast);
  const signature = await args.signer.sign({ requestHash: args.requestHash, transcriptRoot: root, outputHash: out });
  return { transcriptRoot: root, outputHash: out, signature, judge: args.signer.address, attested: false, anchorTx: null };
}
