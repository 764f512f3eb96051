/**
 * Who signs receipts. A `ReceiptSigner` turns a receipt message into the 65-byte EIP-712 signature of the
 * judge key and names the key's address.
 *
 * - `keyReceiptSigner(privateKey)`: the service's signer. libsecp256k1 over the digest from
 *   src/receipts/digest.ts with the WebAssembly keccak, much cheaper than viem's signTypedData, which was the
 *   largest cost of a verification (docs/performance.md). libsecp256k1 runs natively where the `secp256k1`
 *   package ships a prebuilt binary for the platform (~3x faster than WebAssembly here), else as WebAssembly
 *   (tiny-secp256k1). Both sign with RFC 6979 nonces and low s, as viem does, so every backend produces
 *   byte-identical signatures for the same key and message (test/receipts/fast-signing.test.ts).
 * - `accountReceiptSigner(account)`: any viem LocalAccount (e.g. a remote or hardware signer).
 */
import { createRequire } from "node:module";
import * as secp from "tiny-secp256k1";
import type { Hex, LocalAccount } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { keccak256Fast } from "../lib/keccak";
import { receiptDigester } from "./digest";
import { receiptTypedData, type ReceiptMessage } from "./sign";

export interface ReceiptSigner {
  readonly address: Hex;
  sign(message: ReceiptMessage): Promise<Hex>;
}

const digestOf = receiptDigester(keccak256Fast);

/** Signs a 32-byte digest: 64-byte r||s (low s, RFC 6979 nonce) and the recovery id. */
type SignDigest = (digest: Uint8Array, key: Uint8Array) => { signature: Uint8Array; recoveryId: number };
export type SecpBackend = "native" | "wasm";

const wasmSign: SignDigest = (digest, key) => secp.signRecoverable(digest, key);

/**
 * The native binding only (`secp256k1/bindings`): the package's own entry point would fall back to a
 * pure-JavaScript implementation, slower than the WebAssembly one, when no prebuilt binary fits.
 */
const nativeSign: SignDigest | null = (() => {
  try {
    const native = createRequire(import.meta.url)("secp256k1/bindings") as { ecdsaSign(msg: Uint8Array, key: Uint8Array): { signature: Uint8Array; recid: number } };
    return (digest, key) => {
      const { signature, recid } = native.ecdsaSign(digest, key);
      return { signature, recoveryId: recid };
    };
  } catch {
    return null;
  }
})();

/** The backend `keyReceiptSigner` uses by default on this machine. */
export const defaultSecpBackend: SecpBackend = nativeSign ? "native" : "wasm";

export function keyReceiptSigner(privateKey: Hex, opts: { backend?: SecpBackend } = {}): ReceiptSigner {
  const d = Buffer.from(privateKey.slice(2), "hex");
  if (d.length !== 32 || !secp.isPrivate(d)) throw new Error("receipt signer: not a valid secp256k1 private key");
  const backend = opts.backend ?? defaultSecpBackend;
  if (backend === "native" && !nativeSign) throw new Error("receipt signer: the native secp256k1 binding is not available on this platform");
  const signDigest = backend === "native" ? nativeSign! : wasmSign;
  const address = privateKeyToAddress(privateKey);
  return {
    address,
    async sign(message) {
      const { signature, recoveryId } = signDigest(Buffer.from(digestOf(message).slice(2), "hex"), d);
      // 2 and 3 mean r overflowed the group order (probability ~2^-128); Ethereum's v cannot express them.
      if (recoveryId > 1) throw new Error("receipt signer: unrepresentable recovery id");
      return `0x${Buffer.from(signature).toString("hex")}${(27 + recoveryId).toString(16)}`;
    },
  };
}

export function accountReceiptSigner(account: LocalAccount): ReceiptSigner {
  return { address: account.address, sign: (message) => account.signTypedData(receiptTypedData(message)) };
}
