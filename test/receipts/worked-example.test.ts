/**
 * docs/receipts.md's worked example, recomputed from the document alone: the hashing rules are re-implemented
 * here with viem's primitives (keccak256, recoverAddress), nothing from src/ — a third party's verifier. The
 * same numbers must also come out of Arbiter's own code, so the page and the service cannot drift apart.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { concat, keccak256, recoverAddress, toBytes, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/process";
import { checkTranscriptDocument } from "../../src/receipts/check";
import { batchPath, batchRoot } from "../../src/receipts/batch-tree";

const page = readFileSync(path.join(ROOT, "docs/receipts.md"), "utf8");
const ex = JSON.parse(page.match(/```json worked-example\n([\s\S]*?)\n```/)![1]) as {
  judgePrivateKey: Hex;
  judge: Hex;
  requestHash: Hex;
  transcript: unknown[];
  leaves: Hex[];
  transcriptRoot: Hex;
  verdict: string;
  reasoning: string;
  outputHash: Hex;
  receiptDigest: Hex;
  signature: Hex;
  batch: { batchId: string; leaves: Hex[]; leafIndex: number; path: { sibling: Hex; position: "left" | "right" }[]; root: Hex };
};

// ---- an independent implementation of docs/receipts.md section 2 ----
function canonical(v: unknown): string {
  if (v === null || typeof v !== "object") return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  const keys = Object.keys(v as object)
    .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(",")}}`;
}
const k = (s: string) => keccak256(toBytes(s));
const pair = (l: Hex, r: Hex) => keccak256(concat([l, r]));
function root(leaves: Hex[]): Hex {
  let level = leaves;
  while (level.length > 1) {
    const next: Hex[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(i + 1 < level.length ? pair(level[i], level[i + 1]) : level[i]);
    level = next;
  }
  return level[0];
}
const domainSeparator = keccak256(concat([k("EIP712Domain(string name,string version)"), k("Arbiter Judge"), k("1")]));
const receiptDigest = (requestHash: Hex, transcriptRoot: Hex, outputHash: Hex) =>
  keccak256(concat(["0x1901", domainSeparator, keccak256(concat([k("Receipt(bytes32 requestHash,bytes32 transcriptRoot,bytes32 outputHash)"), requestHash, transcriptRoot, outputHash]))]));

describe("docs/receipts.md worked example", () => {
  it("the constants of section 2.4 and 4", () => {
    expect(page).toContain(domainSeparator);
    expect(page).toContain(k("Receipt(bytes32 requestHash,bytes32 transcriptRoot,bytes32 outputHash)"));
    expect(page).toContain(k("KeyRotation(address previous,address next,uint64 validFrom)"));
  });

  it("recomputes every number from the rules alone", async () => {
    const leaves = ex.transcript.map((e) => k(canonical(e)));
    expect(leaves).toEqual(ex.leaves);
    expect(page).toContain(`\`canonicalJson(entry_0)\` = \`${canonical(ex.transcript[0])}\``);
    expect(root(leaves)).toBe(ex.transcriptRoot);
    expect(pair(pair(leaves[0], leaves[1]), leaves[2])).toBe(ex.transcriptRoot);
    expect(k(canonical({ verdict: ex.verdict, reasoning: ex.reasoning }))).toBe(ex.outputHash);
    const digest = receiptDigest(ex.requestHash, ex.transcriptRoot, ex.outputHash);
    expect(digest).toBe(ex.receiptDigest);
    expect(await recoverAddress({ hash: digest, signature: ex.signature })).toBe(ex.judge);
    expect(privateKeyToAccount(ex.judgePrivateKey).address).toBe(ex.judge);

    expect(ex.batch.leaves[ex.batch.leafIndex]).toBe(digest);
    expect(root(ex.batch.leaves)).toBe(ex.batch.root);
    let h = digest;
    for (const s of ex.batch.path) h = s.position === "left" ? pair(s.sibling, h) : pair(h, s.sibling);
    expect(h).toBe(ex.batch.root);
    for (const v of [ex.transcriptRoot, ex.outputHash, ex.receiptDigest, ex.batch.root, ex.judge]) expect(page).toContain(v);
  });

  it("Arbiter's own code agrees, and its check accepts the example", async () => {
    expect(batchRoot(ex.batch.leaves)).toBe(ex.batch.root);
    expect(batchPath(ex.batch.leaves, ex.batch.leafIndex)).toEqual(ex.batch.path);
    const doc = {
      verdict: ex.verdict,
      reasoning: ex.reasoning,
      transcript: ex.transcript as never,
      receipt: { requestHash: ex.requestHash, transcriptRoot: ex.transcriptRoot, outputHash: ex.outputHash, signature: ex.signature, judge: ex.judge },
      anchor: {
        status: "verified" as const,
        batchId: ex.batch.batchId,
        root: ex.batch.root,
        leaf: ex.receiptDigest,
        leafIndex: ex.batch.leafIndex,
        leafCount: ex.batch.leaves.length,
        path: ex.batch.path,
        chainId: 8453,
        contract: "0xa4b1000000000000000000000000000000000003" as Hex,
        anchorer: "0x0000000000000000000000000000000000000001" as Hex,
        tx: null,
        blockNumber: null,
        explorerTx: null,
      },
    };
    expect(await checkTranscriptDocument(doc, { addresses: [ex.judge] })).toMatchObject({ ok: true, inclusion: "included" });
    // A path whose sides do not match the index is refused even if it folds to the root.
    const swapped = { ...doc, anchor: { ...doc.anchor, leafIndex: 0 } };
    expect((await checkTranscriptDocument(swapped, { addresses: [ex.judge] })).errors).toContain("the anchor path does not match the leaf's index in the batch");
  });
});
