import { mkdtempSync, readFileSync, statSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { concat, encodeAbiParameters, keccak256, recoverAddress, toBytes, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, describe, expect, it } from "vitest";
import type { TranscriptEntry } from "../../src/judge/types";
import { canonicalJson } from "../../src/lib/canonical-json";
import {
  buildReceipt,
  keyReceiptSigner,
  loadJudgeKey,
  merkleProof,
  outputHash,
  transcriptRoot,
  verifyMerkleProof,
  verifyReceipt,
} from "../../src/receipts";

const judgeKey = generatePrivateKey();
const account = privateKeyToAccount(judgeKey);
const signer = keyReceiptSigner(judgeKey);
const requestHash = `0x${"ab".repeat(32)}` as Hex;
const transcript: TranscriptEntry[] = [
  { kind: "input", data: { intent: "Max $100 per payment.", action: "pay $50 to bob", context: { a: 1, b: [1, 2] } } },
  { kind: "facts", data: null },
  { kind: "rules", data: { verdict: "ALLOW", violations: [] } },
];
const output = { verdict: "ALLOW" as const, reasoning: "$50 is under the $100 cap." };

const leaf = (e: TranscriptEntry) => keccak256(toBytes(canonicalJson(e)));
const node = (a: Hex, b: Hex) => keccak256(concat([a, b]));

function flipHexChar(h: string, pos: number): string {
  const c = h[pos];
  const r = c === "0" ? "1" : "0";
  return h.slice(0, pos) + r + h.slice(pos + 1);
}

describe("transcript Merkle tree", () => {
  it("follows the documented construction (odd last node promoted)", () => {
    const e = [0, 1, 2, 3, 4].map((i) => ({ kind: "k", data: i }));
    const [l0, l1, l2, l3, l4] = e.map(leaf);
    expect(transcriptRoot(e.slice(0, 1))).toBe(l0);
    expect(transcriptRoot(e.slice(0, 2))).toBe(node(l0, l1));
    expect(transcriptRoot(e.slice(0, 3))).toBe(node(node(l0, l1), l2));
    expect(transcriptRoot(e.slice(0, 4))).toBe(node(node(l0, l1), node(l2, l3)));
    expect(transcriptRoot(e)).toBe(node(node(node(l0, l1), node(l2, l3)), l4));
  });

  it("rejects an empty transcript", () => {
    expect(() => transcriptRoot([])).toThrow(/empty/);
  });

  it("does not depend on object key order", () => {
    const a: TranscriptEntry[] = [{ kind: "input", data: { x: 1, y: { p: "q", r: [1, { s: 2, t: 3 }] } } }];
    const b: TranscriptEntry[] = [{ data: { y: { r: [1, { t: 3, s: 2 }], p: "q" }, x: 1 }, kind: "input" }];
    expect(transcriptRoot(a)).toBe(transcriptRoot(b));
  });

  it("depends on entry order", () => {
    expect(transcriptRoot([transcript[0], transcript[1]])).not.toBe(transcriptRoot([transcript[1], transcript[0]]));
  });

  it("proves inclusion of every entry for sizes 1..9", () => {
    for (let n = 1; n <= 9; n++) {
      const e = Array.from({ length: n }, (_, i) => ({ kind: "k", data: { i } }));
      const root = transcriptRoot(e);
      for (let i = 0; i < n; i++) {
        const proof = merkleProof(e, i);
        expect(verifyMerkleProof(e[i], proof, root)).toBe(true);
        expect(verifyMerkleProof({ kind: "k", data: { i: i + 100 } }, proof, root)).toBe(false);
      }
    }
  });
});

describe("outputHash", () => {
  it("is keccak256 of canonical {verdict, reasoning}", () => {
    expect(outputHash(output)).toBe(keccak256(toBytes('{"reasoning":"$50 is under the $100 cap.","verdict":"ALLOW"}')));
    expect(outputHash({ verdict: null, reasoning: null })).toBe(keccak256(toBytes('{"reasoning":null,"verdict":null}')));
  });
});

describe("receipt round trip and tampering", () => {
  it("verifies a fresh receipt", async () => {
    const r = await buildReceipt({ requestHash, transcript, ...output, signer });
    expect(r.judge).toBe(account.address);
    expect(r.attested).toBe(false);
    expect(r.anchorTx).toBeNull();
    expect(r.signature).toMatch(/^0x[0-9a-f]{130}$/);
    const res = await verifyReceipt({ ...r, requestHash }, transcript, output, { expectedJudge: account.address });
    expect(res).toEqual({ ok: true, errors: [] });
  });

  it("fails on any tampered part", async () => {
    const r = { ...(await buildReceipt({ requestHash, transcript, ...output, signer })), requestHash };
    const bad = async (rec: typeof r, t = transcript, o: { verdict: "ALLOW" | "BLOCK" | "ESCALATE" | null; reasoning: string | null } = output) =>
      (await verifyReceipt(rec, t, o)).ok;

    // each transcript entry
    for (let i = 0; i < transcript.length; i++) {
      const t = transcript.map((e, j) => (j === i ? { ...e, data: { tampered: true, was: e.data } } : e));
      expect(await bad(r, t)).toBe(false);
    }
    expect(await bad(r, [...transcript, { kind: "extra", data: 1 }])).toBe(false);
    expect(await bad(r, transcript.slice(0, 2))).toBe(false);
    expect(await bad(r, [])).toBe(false);
    // verdict and reasoning
    expect(await bad(r, transcript, { ...output, verdict: "BLOCK" })).toBe(false);
    expect(await bad(r, transcript, { ...output, verdict: null })).toBe(false);
    expect(await bad(r, transcript, { ...output, reasoning: output.reasoning + " " })).toBe(false);
    // requestHash, roots (a consistent forger could swap root + transcript, but the signature then fails)
    expect(await bad({ ...r, requestHash: flipHexChar(requestHash, 10) as Hex })).toBe(false);
    const t2: TranscriptEntry[] = [{ kind: "input", data: "other" }];
    expect(await bad({ ...r, transcriptRoot: transcriptRoot(t2) }, t2)).toBe(false);
    const o2 = { verdict: "BLOCK" as const, reasoning: "x" };
    expect(await bad({ ...r, outputHash: outputHash(o2) }, transcript, o2)).toBe(false);
    // every hex character of the signature
    for (let pos = 2; pos < r.signature.length; pos++) {
      expect(await bad({ ...r, signature: flipHexChar(r.signature, pos) as Hex })).toBe(false);
    }
    // judge address
    expect(await bad({ ...r, judge: privateKeyToAccount(generatePrivateKey()).address })).toBe(false);
    expect(await bad({ ...r, judge: flipHexChar(r.judge, 5) as Hex })).toBe(false);
    // a receipt signed by another key with the claimed judge swapped in
    const other = await buildReceipt({ requestHash, transcript, ...output, signer: keyReceiptSigner(generatePrivateKey()) });
    expect(await bad({ ...other, requestHash, judge: account.address })).toBe(false);
  });

  it("checks the expected judge", async () => {
    const r = await buildReceipt({ requestHash, transcript, ...output, signer });
    const res = await verifyReceipt({ ...r, requestHash }, transcript, output, {
      expectedJudge: privateKeyToAccount(generatePrivateKey()).address,
    });
    expect(res.ok).toBe(false);
    expect(res.errors).toContain("judge is not the expected judge address");
  });

  it("rejects a malleated (high-s) signature of the same key", async () => {
    const r = await buildReceipt({ requestHash, transcript, ...output, signer });
    const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    const s = BigInt(`0x${r.signature.slice(66, 130)}`);
    const v = parseInt(r.signature.slice(130), 16);
    const sig = `${r.signature.slice(0, 66)}${(N - s).toString(16).padStart(64, "0")}${(v === 27 ? 28 : 27).toString(16)}` as Hex;
    const res = await verifyReceipt({ ...r, signature: sig, requestHash }, transcript, output);
    expect(res.ok).toBe(false);
  });

  it("rejects malformed requestHash when building", async () => {
    await expect(buildReceipt({ requestHash: "0x1234" as Hex, transcript, ...output, signer })).rejects.toThrow();
  });
});

describe("EIP-712 definition (for offline verifiers)", () => {
  it("signature is over keccak256(0x1901 ++ domainSeparator ++ hashStruct(Receipt)), domain {name, version} only", async () => {
    const r = await buildReceipt({ requestHash, transcript, ...output, signer });
    const domainTypeHash = keccak256(toBytes("EIP712Domain(string name,string version)"));
    const domainSeparator = keccak256(
      encodeAbiParameters(
        [{ type: "bytes32" }, { type: "bytes32" }, { type: "bytes32" }],
        [domainTypeHash, keccak256(toBytes("Arbiter Judge")), keccak256(toBytes("1"))],
      ),
    );
    const typeHash = keccak256(toBytes("Receipt(bytes32 requestHash,bytes32 transcriptRoot,bytes32 outputHash)"));
    const structHash = keccak256(
      encodeAbiParameters(
        [{ type: "bytes32" }, { type: "bytes32" }, { type: "bytes32" }, { type: "bytes32" }],
        [typeHash, requestHash, r.transcriptRoot, r.outputHash],
      ),
    );
    const digest = keccak256(concat(["0x1901", domainSeparator, structHash]));
    expect(await recoverAddress({ hash: digest, signature: r.signature })).toBe(account.address);
  });
});

describe("property: random transcripts", () => {
  const json = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);
  const entry = fc.record({ kind: fc.string({ maxLength: 12 }), data: json });
  const entries = fc.array(entry, { minLength: 1, maxLength: 8 });
  const out = fc.record({
    verdict: fc.constantFrom("ALLOW" as const, "BLOCK" as const, "ESCALATE" as const, null),
    reasoning: fc.option(fc.string({ maxLength: 40 }), { nil: null }),
  });

  it("round-trips and any single mutation fails", async () => {
    await fc.assert(
      fc.asyncProperty(entries, out, fc.nat(), fc.nat({ max: 5 }), async (t, o, pick, which) => {
        const r = { ...(await buildReceipt({ requestHash, transcript: t, ...o, signer })), requestHash };
        expect((await verifyReceipt(r, t, o)).ok).toBe(true);

        let mt = t;
        let mo = o;
        let mr = r;
        switch (which) {
          case 0: {
            const i = pick % t.length;
            mt = t.map((e, j) => (j === i ? { kind: e.kind, data: { mutated: e.data } } : e));
            break;
          }
          case 1: {
            const i = pick % t.length;
            mt = t.map((e, j) => (j === i ? { kind: `${e.kind}!`, data: e.data } : e));
            break;
          }
          case 2:
            mo = { ...o, verdict: o.verdict === "ALLOW" ? "BLOCK" : "ALLOW" };
            break;
          case 3:
            mo = { ...o, reasoning: o.reasoning === null ? "" : `${o.reasoning}.` };
            break;
          case 4: {
            const pos = 2 + (pick % 130);
            mr = { ...r, signature: flipHexChar(r.signature, pos) as Hex };
            break;
          }
          default: {
            const pos = 2 + (pick % 64);
            mr = { ...r, requestHash: flipHexChar(requestHash, pos) as Hex };
          }
        }
        expect((await verifyReceipt(mr, mt, mo)).ok).toBe(false);
      }),
      { numRuns: 150 },
    );
  });
});

describe("loadJudgeKey", () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it("uses the env key when given", () => {
    const k = generatePrivateKey();
    expect(loadJudgeKey({ envKey: k }).address).toBe(privateKeyToAccount(k).address);
    expect(() => loadJudgeKey({ envKey: "0x1234" })).toThrow(/32 bytes/);
  });

  it("generates in memory without a data dir", () => {
    expect(loadJudgeKey({}).address).not.toBe(loadJudgeKey({}).address);
  });

  it("generates once in the data dir with mode 0600, then reuses it", () => {
    const dir = mkdtempSync(join(tmpdir(), "judge-key-"));
    dirs.push(dir);
    const a = loadJudgeKey({ dataDir: join(dir, "nested") });
    const file = join(dir, "nested", "judge-key");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, "utf8").trim()).toMatch(/^0x[0-9a-f]{64}$/);
    expect(loadJudgeKey({ dataDir: join(dir, "nested") }).address).toBe(a.address);
  });
});
