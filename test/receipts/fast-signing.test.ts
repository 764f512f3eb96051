/**
 * The service signs receipts with libsecp256k1 and a WebAssembly keccak (src/receipts/signer.ts) for speed;
 * anyone verifies them with viem. These must agree bit for bit: the digest, every hash, and the signature
 * itself (both use RFC 6979 nonces and low s, so signatures are deterministic and identical).
 */
import fc from "fast-check";
import { hashTypedData, keccak256, recoverTypedDataAddress, toBytes, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { keccak256Fast } from "../../src/lib/keccak";
import { defaultSecpBackend } from "../../src/receipts/signer";
import { accountReceiptSigner, keyReceiptSigner, receiptDigester, receiptTypedData, transcriptRoot, outputHash } from "../../src/receipts";
import { keccakJs } from "../../src/receipts/transcript";

const hex32 = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => `0x${Buffer.from(b).toString("hex")}` as Hex);
const message = fc.record({ requestHash: hex32, transcriptRoot: hex32, outputHash: hex32 });

describe("fast receipt signing agrees with viem", () => {
  it("keccak256Fast equals viem's keccak256 on strings and bytes of any length", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 400 }), fc.uint8Array({ maxLength: 600 }), (s, b) => {
        expect(keccak256Fast(s)).toBe(keccak256(toBytes(s)));
        expect(keccak256Fast(b)).toBe(keccak256(b));
      }),
      { numRuns: 300 },
    );
    expect(keccak256Fast("")).toBe("0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470");
  });

  it("the receipt digest equals viem's hashTypedData", () => {
    const fast = receiptDigester(keccak256Fast);
    const js = receiptDigester(keccakJs);
    fc.assert(
      fc.property(message, (m) => {
        const expected = hashTypedData(receiptTypedData(m));
        expect(fast(m)).toBe(expected);
        expect(js(m)).toBe(expected);
      }),
      { numRuns: 200 },
    );
  });

  it.runIf(process.platform === "linux" && process.arch === "x64")("the native libsecp256k1 binding is used on linux-x64 (the package ships a prebuilt binary)", () => {
    expect(defaultSecpBackend).toBe("native");
  });

  it.each(["native", "wasm"] as const)("%s signatures are byte-identical to viem's signTypedData and recover to the judge", async (backend) => {
    for (let k = 0; k < 5; k++) {
      const key = generatePrivateKey();
      const fast = keyReceiptSigner(key, { backend });
      const viem = accountReceiptSigner(privateKeyToAccount(key));
      expect(fast.address).toBe(viem.address);
      for (const m of fc.sample(message, 20)) {
        const sig = await fast.sign(m);
        expect(sig).toBe(await viem.sign(m));
        expect(await recoverTypedDataAddress({ ...receiptTypedData(m), signature: sig })).toBe(fast.address);
      }
    }
  });

  it("transcript roots and output hashes do not depend on which keccak computed them", () => {
    const entry = fc.record({ kind: fc.string({ maxLength: 10 }), data: fc.jsonValue() });
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 9 }), fc.string(), (entries, reasoning) => {
        expect(transcriptRoot(entries, keccak256Fast)).toBe(transcriptRoot(entries));
        expect(outputHash({ verdict: "BLOCK", reasoning }, keccak256Fast)).toBe(outputHash({ verdict: "BLOCK", reasoning }));
      }),
      { numRuns: 200 },
    );
  });

  it("refuses a key that is not a secp256k1 scalar", () => {
    expect(() => keyReceiptSigner(`0x${"00".repeat(32)}`)).toThrow(/private key/);
    expect(() => keyReceiptSigner(`0x${"ff".repeat(32)}`)).toThrow(/private key/);
    expect(() => keyReceiptSigner("0x1234")).toThrow(/private key/);
  });
});
