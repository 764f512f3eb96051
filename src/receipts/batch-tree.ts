/**
 * The anchor batch tree (docs/receipts.md): completed runs are gathered into batches; a batch's leaves are
 * the EIP-712 digests of its receipts (src/receipts/digest.ts), in leaf-index order, and its root is built with
 * exactly the transcript tree's rules (src/receipts/transcript.ts: parent = keccak256(left ++ right), an odd
 * last node promoted unchanged). The root is what the anchor contract stores for (anchorer, batchId).
 *
 * A leaf is a digest the judge key signed, so no internal node can pass as a leaf without a judge signature
 * over it: the tree needs no separate leaf/node prefixes.
 */
import type { Hex } from "viem";
import { receiptDigester, type Keccak } from "./digest";
import { keccakJs, merkleRootOfLeaves, parentHash, type ProofStep } from "./transcript";

/** What a transcript carries about its receipt's anchor (GET /api/v1/intent/{id}/transcript, `anchor`). */
export interface AnchorProof {
  status: "pending" | "verified";
  /** uint64 batch id as a decimal string. */
  batchId: string;
  /** The batch root; null while the batch is still being formed. */
  root: Hex | null;
  /** This receipt's leaf: its EIP-712 digest. */
  leaf: Hex;
  leafIndex: number;
  leafCount: number;
  /** Siblings from the leaf up to the root. */
  path: ProofStep[];
  chainId: number;
  /** The anchor contract and the address that anchored (the contract keys roots by sender). */
  contract: Hex;
  anchorer: Hex;
  tx: Hex | null;
  blockNumber: string | null;
  explorerTx: string | null;
}

export function batchRoot(leaves: Hex[], keccak: Keccak = keccakJs): Hex {
  return merkleRootOfLeaves(leaves, keccak);
}

/** The path of leaf `index`: a level where the node is the promoted odd last node contributes no step. */
export function batchPath(leaves: Hex[], index: number, keccak: Keccak = keccakJs): ProofStep[] {
  if (leaves.length === 0) throw new Error("batchPath: empty batch");
  if (!Number.isInteger(index) || index < 0 || index >= leaves.length) throw new RangeError("batchPath: index out of range");
  const steps: ProofStep[] = [];
  let level = leaves;
  let i = index;
  while (level.length > 1) {
    if (i % 2 === 1) steps.push({ sibling: level[i - 1], position: "left" });
    else if (i + 1 < level.length) steps.push({ sibling: level[i + 1], position: "right" });
    const next: Hex[] = [];
    for (let j = 0; j < level.length; j += 2) next.push(j + 1 < level.length ? parentHash(level[j], level[j + 1], keccak) : level[j]);
    level = next;
    i = Math.floor(i / 2);
  }
  return steps;
}

/** The sides a path of leaf `index` in a tree of `count` leaves must have, bottom up. */
export function expectedSides(index: number, count: number): ("left" | "right")[] {
  const sides: ("left" | "right")[] = [];
  let i = index;
  let n = count;
  while (n > 1) {
    if (i % 2 === 1) sides.push("left");
    else if (i + 1 < n) sides.push("right");
    i = Math.floor(i / 2);
    n = Math.ceil(n / 2);
  }
  return sides;
}

export function foldPath(leaf: Hex, path: ProofStep[], keccak: Keccak = keccakJs): Hex {
  let h = leaf;
  for (const step of path) h = step.position === "left" ? parentHash(step.sibling, h, keccak) : parentHash(h, step.sibling, keccak);
  return h;
}

const BYTES32 = /^0x[0-9a-fA-F]{64}$/;
const digestJs = receiptDigester(keccakJs);

/** Offline: the leaf is this receipt's digest, the path has the shape its index dictates, and it folds to the root. */
export function checkInclusion(receipt: { requestHash: string; transcriptRoot: string; outputHash: string }, anchor: AnchorProof): { errors: string[] } {
  const errors: string[] = [];
  if (![receipt.requestHash, receipt.transcriptRoot, receipt.outputHash].every((h) => BYTES32.test(h))) return { errors: ["the receipt's hashes are malformed; inclusion not checked"] };
  const digest = digestJs({ requestHash: receipt.requestHash as Hex, transcriptRoot: receipt.transcriptRoot as Hex, outputHash: receipt.outputHash as Hex });
  if (!anchor.root || !BYTES32.test(anchor.root)) return { errors: ["the anchor has no root"] };
  if (!Array.isArray(anchor.path) || anchor.path.some((s) => !s || !BYTES32.test(s.sibling) || (s.position !== "left" && s.position !== "right"))) return { errors: ["the anchor path is malformed"] };
  if (typeof anchor.leaf !== "string" || anchor.leaf.toLowerCase() !== digest.toLowerCase()) errors.push("the anchor leaf is not this receipt's digest");
  const sides = Number.isInteger(anchor.leafIndex) && Number.isInteger(anchor.leafCount) && anchor.leafIndex >= 0 && anchor.leafIndex < anchor.leafCount ? expectedSides(anchor.leafIndex, anchor.leafCount) : null;
  if (!sides || sides.length !== anchor.path.length || sides.some((s, i) => anchor.path[i].position !== s)) errors.push("the anchor path does not match the leaf's index in the batch");
  if (foldPath(digest, anchor.path).toLowerCase() !== anchor.root.toLowerCase()) errors.push("the receipt's Merkle path does not lead to the batch root");
  return { errors };
}
