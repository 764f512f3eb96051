/**
 * Who signs receipts. A `ReceiptSigner` turns a receipt message into the 65-byte EIP-712 signature of the
 * judge key and names the key's address.
 *
 * - `keyReceiptSigner(privateKey)`: the service's signer. libsecp256k1 (tiny-secp256k1, WebAssembly) over the
 *   digest from src/receipts/digest.ts with the WebAssembly keccak: ~4x cheaper than viem's signTypedData,
 *   which was the largest cost of a verification (docs/performance.md). libsecp256k1 signs with RFC 6979
 *   nonces and low s, as viem does, so both produce byte-identical signatures for the same key and message
 *   (test/receipts/fast-signing.test.ts).
 * - `accountReceiptSigner(account)`: any viem LocalAccount (e.g. a remote or hardware signer).
 */
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

export function keyReceiptSigner(privateKey: Hex): ReceiptSigner {
  const d = Buffer.from(privateKey.slice(2), "hex");
  if (d.length !== 32 || !secp.isPrivate(d)) throw new Error("receipt signer: not a valid secp256k1 private key");
  const address = privateKeyToAddress(privateKey);
  return {
    address,
    async sign(message) {
      const { signature, recoveryId } = secp.signRecoverable(Buffer.from(digestOf(message).slice(2), "hex"), d);
      // 2 and 3 mean r overflowed the group order (probability ~2^-128); Ethereum's v cannot express them.
      if (recoveryId > 1) throw new Error("receipt signer: unrepresentable recovery id");
      return `0x${Buffer.from(signature).toString("hex")}${(27 + recoveryId).toString(16)}`;
    },
  };
}

export function accountReceiptSigner(account: LocalAccount): ReceiptSigner {
  return { address: account.address, sign: (message) => account.signTypedData(receiptTypedData(message)) };
}
