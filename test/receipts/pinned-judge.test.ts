import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildReceipt } from "../../src/receipts/receipt";
import { keyReceiptSigner } from "../../src/receipts/signer";
import { checkTranscriptDocument, type TranscriptDocument } from "../../src/receipts/check";
import { JudgeDocument, signRotation, trustedKeys } from "../../src/receipts/judge-identity";
import { loadJudgeDocument, rotateJudgeKey } from "../../src/receipts/judge-history";
import type { TranscriptEntry } from "../../src/judge/types";
import { startTestRuntime, type TestRuntime } from "../helpers/runtime";
import { ROOT } from "../helpers/process";

/** `npm run cli -- ...` as a user runs it (tsx on src/cli.ts), offline: ARBITER_URL points nowhere. */
function cli(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), path.join(ROOT, "src/cli.ts"), ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ARBITER_URL: "http://127.0.0.1:9", ...env },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** The attack of issue 24: a BLOCK receipt turned into ALLOW and re-signed with a random key. */
async function forgeAllow(doc: TranscriptDocument): Promise<TranscriptDocument> {
  const reasoning = "Looks fine.";
  const transcript: TranscriptEntry[] = doc.transcript.map((e) => (e.kind === "output" ? { ...e, data: { ...(e.data as object), verdict: "ALLOW", reasoning } } : e));
  const forger = keyReceiptSigner(generatePrivateKey());
  const r = await buildReceipt({ requestHash: doc.receipt.requestHash as `0x${string}`, transcript, verdict: "ALLOW", reasoning, signer: forger });
  return { ...doc, verdict: "ALLOW", reasoning, transcript, receipt: { requestHash: doc.receipt.requestHash, transcriptRoot: r.transcriptRoot, outputHash: r.outputHash, signature: r.signature, judge: r.judge } };
}

describe("pinned judge key", () => {
  let t: TestRuntime;
  let dir: string;
  let genuine: TranscriptDocument;
  let judge: string;

  beforeAll(async () => {
    t = await startTestRuntime();
    dir = mkdtempSync(path.join(tmpdir(), "arbiter-pin-"));
    const acct = await t.createAccount(5);
    const res = await t.request("POST", "/api/v1/intent", { key: acct.apiKey, body: { intent: "Never transfer funds.", action: "Send 5 ETH to 0xabc" } });
    const run = (await res.json()) as { id: string; verdict: string };
    expect(run.verdict).toBe("BLOCK");
    genuine = (await (await t.request("GET", `/api/v1/intent/${run.id}/transcript`, { key: acct.apiKey })).json()) as TranscriptDocument;
    judge = t.runtime.judgeAccount.address;
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("publishes the judge key at /.well-known/arbiter-judge.json", async () => {
    const res = await t.request("GET", "/.well-known/arbiter-judge.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const doc = JudgeDocument.parse(await res.json());
    expect(doc.keys).toHaveLength(1);
    expect(doc.keys[0].address).toBe(judge);
    expect(doc.keys[0].validUntil).toBeNull();
    expect(Date.parse(doc.keys[0].validFrom)).toBeLessThanOrEqual(Date.now());
  });

  it("the forged ALLOW is self-consistent (its signature matches the key it names) but is refused against the pinned key", async () => {
    const forged = await forgeAllow(genuine);
    // What the old check accepted: no pin, the receipt's own key.
    const unpinned = await checkTranscriptDocument(forged, { addresses: [forged.receipt.judge!] });
    expect(unpinned.ok).toBe(true);
    const pinned = await checkTranscriptDocument(forged, { addresses: [judge] });
    expect(pinned.ok).toBe(false);
    expect(pinned.errors).toContain("judge is not the expected judge address");
    // Claiming the service's address while signing with another key fails the signature instead.
    const claimed = await checkTranscriptDocument({ ...forged, receipt: { ...forged.receipt, judge } }, { addresses: [judge] });
    expect(claimed.errors).toContain("signature was not made by the judge key");
  });

  it("CLI: receipt verify refuses the forgery, requires a pin, accepts the genuine receipt (offline)", async () => {
    const forgedFile = path.join(dir, "forged.json");
    const genuineFile = path.join(dir, "genuine.json");
    writeFileSync(forgedFile, JSON.stringify(await forgeAllow(genuine)));
    writeFileSync(genuineFile, JSON.stringify(genuine));

    const forged = cli(["receipt", "verify", "--file", forgedFile, "--judge", judge]);
    expect(forged.code).toBe(1);
    expect(JSON.parse(forged.out).errors).toContain("judge is not the expected judge address");

    const noPin = cli(["receipt", "verify", "--file", forgedFile]);
    expect(noPin.code).toBe(2);
    expect(noPin.err).toMatch(/--judge/);

    const ok = cli(["receipt", "verify", "--file", genuineFile, "--judge", judge]);
    expect(ok.code, ok.err).toBe(0);
    expect(JSON.parse(ok.out)).toMatchObject({ ok: true, judge, verdict: "BLOCK" });

    // A pinned copy of the published document works the same way.
    const pinFile = path.join(dir, "pinned.json");
    writeFileSync(pinFile, JSON.stringify(await (await t.request("GET", "/.well-known/arbiter-judge.json")).json()));
    expect(cli(["receipt", "verify", "--file", genuineFile, "--judge-file", pinFile]).code).toBe(0);
    expect(cli(["receipt", "verify", "--file", forgedFile, "--judge-file", pinFile]).code).toBe(1);
  }, 120_000);
});

describe("judge key rotation", () => {
  it("a rotation signed by the previous key extends trust; a tampered or unsigned one does not", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "arbiter-rot-"));
    try {
      const t0 = new Date("2026-01-01T00:00:00Z");
      const first = loadJudgeDocument({ dataDir, current: privateKeyToAccount(readKey(dataDir, true)).address, now: t0 });
      const old = first.keys[0].address;
      const rotated = await rotateJudgeKey({ dataDir, now: new Date("2026-03-01T00:00:00.700Z") });
      expect(rotated.previous).toBe(old);
      const doc = JudgeDocument.parse(JSON.parse(readFileSync(path.join(dataDir, "judge-keys.json"), "utf8")));
      expect(doc.keys.map((k) => k.address)).toEqual([old, rotated.next]);
      expect(doc.keys[0].validUntil).toBe("2026-03-01T00:00:00.000Z");
      expect(doc.keys[1].validFrom).toBe("2026-03-01T00:00:00.000Z");
      // The key file now holds the new key; the service would start with it.
      expect(privateKeyToAccount(readKey(dataDir)).address).toBe(rotated.next);

      // A verifier that pinned only the old key trusts the new one through the signed link.
      const fromOld = await trustedKeys(doc, [old]);
      expect(fromOld.keys.map((k) => k.address)).toEqual([old, rotated.next]);
      expect(fromOld.problems).toEqual([]);

      // Tampered: the link names an attacker's key.
      const attacker = privateKeyToAccount(generatePrivateKey()).address;
      const tampered = { ...doc, keys: [doc.keys[0], { ...doc.keys[1], address: attacker }] };
      const t1 = await trustedKeys(tampered, [old]);
      expect(t1.keys.map((k) => k.address)).toEqual([old]);
      expect(t1.problems[0]).toMatch(/not made by the previous key/);

      // Signed by a key that is not the previous one.
      const stranger = privateKeyToAccount(generatePrivateKey());
      const { entry } = await signRotation(stranger, { address: stranger.address, validFrom: doc.keys[0].validFrom, validUntil: null }, attacker, new Date("2026-04-01T00:00:00Z"));
      const t2 = await trustedKeys({ keys: [doc.keys[0], { ...entry, rotation: { previous: old, signature: entry.rotation!.signature } }] }, [old]);
      expect(t2.keys).toHaveLength(1);

      // A key changed by hand (no rotation) is published, but nobody who pinned the chain trusts it.
      const manual = privateKeyToAccount(generatePrivateKey()).address;
      const after = loadJudgeDocument({ dataDir, current: manual, now: new Date("2026-05-01T00:00:00Z") });
      expect(after.keys.at(-1)).toMatchObject({ address: manual, rotation: null });
      const t3 = await trustedKeys(after, [old]);
      expect(t3.keys.map((k) => k.address)).toEqual([old, rotated.next]);
      expect(t3.problems[0]).toMatch(/not signed by the previous key/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("the run's time must fall in the signing key's validity period", async () => {
    const key = generatePrivateKey();
    const signer = keyReceiptSigner(key);
    const transcript: TranscriptEntry[] = [{ kind: "output", data: { verdict: "ALLOW", reasoning: "ok" } }];
    const requestHash = `0x${"ab".repeat(32)}` as const;
    const r = await buildReceipt({ requestHash, transcript, verdict: "ALLOW", reasoning: "ok", signer });
    const doc: TranscriptDocument = { verdict: "ALLOW", reasoning: "ok", createdAt: "2026-06-01T00:00:00.000Z", transcript, receipt: { requestHash, transcriptRoot: r.transcriptRoot, outputHash: r.outputHash, signature: r.signature, judge: r.judge } };
    const pinned = { keys: [{ address: signer.address, validFrom: "2026-01-01T00:00:00.000Z", validUntil: "2026-03-01T00:00:00.000Z" }] };
    const res = await checkTranscriptDocument(doc, { document: pinned });
    expect(res.ok).toBe(false);
    expect(res.errors[0]).toMatch(/outside the judge key's validity period/);
    expect((await checkTranscriptDocument({ ...doc, createdAt: "2026-02-01T00:00:00.000Z" }, { document: pinned })).ok).toBe(true);
  });
});

function readKey(dataDir: string, create = false): `0x${string}` {
  const file = path.join(dataDir, "judge-key");
  if (create) writeFileSync(file, `${generatePrivateKey()}\n`, { mode: 0o600 });
  return readFileSync(file, "utf8").trim() as `0x${string}`;
}
