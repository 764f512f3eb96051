/**
 * Transcript Merkle tree. Anyone holding a receipt and its transcript must be able to recompute
 * `transcriptRoot` offline, so the construction is fixed here and must never change without versioning
 * receipts:
 *
 *   leaf_i  = keccak256(utf8(canonicalJson(entry_i)))          (entries in transcript order, i = 0..n-1)
 *   level_0 = [leaf_0, ..., leaf_{n-1}]
 *   level_{k+1}[j] = keccak256(level_k[2j] ++ level_k[2j+1])   (++ = concatenation of the two 32-byte values)
 *   when a level has an odd number of nodes, its last node is promoted unchanged to the next level
 *   (it is NOT hashed with itself);
 *   root = the single node of the last level.
 *
 * - A transcript of one entry has root = leaf_0.
 * - An empty transcript has no root: transcriptRoot throws.
 * - Leaves are ordered (no sorting of pairs): proofs carry the side of each sibling.
 * - canonicalJson is src/lib/canonical-json.ts (keys sorted by UTF-16 code units, no whitespace,
 *   undefined members dropped), so the root does not depend on object key order.
 */
import { hexToBytes, keccak256, toBytes, type Hex } from "viem";
import { canonicalJson } from "../lib/canonical-json";
import type { TranscriptEntry } from "../judge/types";
import type { Keccak } from "./digest";

/** viem's keccak: browser-safe (the dashboard bundles the receipt check). The server passes src/lib/keccak.ts. */
export const keccakJs: Keccak = (data) => keccak256(typeof data === "string" ? toBytes(data) : data);

export function leafHash(entry: TranscriptEntry, keccak: Keccak = keccakJs): Hex {
  return keccak(canonicalJson(entry));
}

export function parentHash(left: Hex, right: Hex, keccak: Keccak = keccakJs): Hex {
  const pair = new Uint8Array(64);
  pair.set(hexToBytes(left), 0);
  pair.set(hexToBytes(right), 32);
  return keccak(pair);
}

function nextLevel(level: Hex[], keccak: Keccak): Hex[] {
  const out: Hex[] = [];
  for (let i = 0; i < level.length; i += 2) {
    out.push(i + 1 < level.length ? parentHash(level[i], level[i + 1], keccak) : level[i]);
  }
  return out;
}

/** Merkle root over leaves already hashed (same tree rules as transcriptRoot). */
export function merkleRootOfLeaves(leaves: Hex[], keccak: Keccak = keccakJs): Hex {
  if (leaves.length === 0) throw new Error("merkle root of an empty list");
  let level = leaves;
  while (level.length > 1) level = nextLevel(level, keccak);
  return level[0];
}

export function transcriptRoot(entries: TranscriptEntry[], keccak: Keccak = keccakJs): Hex {
  if (!Array.isArray(entries) || entries.length === 0) throw new Error("transcriptRoot: empty transcript");
  return merkleRootOfLeaves(
    entries.map((e) => leafHash(e, keccak)),
    keccak,
  );
}

/** One step of an inclusion proof: the sibling hash and on which side it sits. */
export interface ProofStep {
  sibling: Hex;
  position: "left" | "right";
}

/**
 * Inclusion proof of entry `index`. Levels where the node is the promoted odd last node contribute no step.
 */
export function merkleProof(entries: TranscriptEntry[], index: number): ProofStep[] {
  if (!Array.isArray(entries) || entries.length === 0) throw new Error("merkleProof: empty transcript");
  if (!Number.isInteger(index) || index < 0 || index >= entries.length) throw new RangeError("merkleProof: index out of range");
  const steps: ProofStep[] = [];
  let level = entries.map((e) => leafHash(e));
  let i = index;
  while (level.length > 1) {
    const isRight = i % 2 === 1;
    if (isRight) steps.push({ sibling: level[i - 1], position: "left" });
    else if (i + 1 < level.length) steps.push({ sibling: level[i + 1], position: "right" });
    level = nextLevel(level, keccakJs);
    i = Math.floor(i / 2);
  }
  return steps;
}

/** Checks that `entry` is included under `root` following `proof`. */
export function verifyMerkleProof(entry: TranscriptEntry, proof: ProofStep[], root: Hex): boolean {
  let h: Hex;
  try {
    h = leafHash(entry);
  } catch {
    return false;
  }
  for (const step of proof) {
    h = step.position === "left" ? parentHash(step.sibling, h) : parentHash(h, step.sibling);
  }
  return h.toLowerCase() === root.toLowerCase();
}
