import type { Hex, LocalAccount } from "viem";
import type { TranscriptEntry, Verdict } from "../judge/types";
import { outputHash } from "./output";
import { signReceipt } from "./sign";
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
  account: LocalAccount;
}): Promise<Receipt> {
  if (!BYTES32.test(args.requestHash)) throw new Error("buildReceipt: requestHash must be 0x + 32 bytes");
  const root = transcriptRoot(args.transcript);
  const out = outputHash({ verdict: args.verdict, reasoning: args.reasoning });
  const { signature, judge } = await signReceipt(args.account, {
    requestHash: args.requestHash,
    transcriptRoot: root,
    outputHash: out,
  });
  return { transcriptRoot: root, outputHash: out, signature, judge, attested: false, anchorTx: null };
}
