/**
 * EIP-712 receipt signature.
 *
 *   domain      = { name: "Arbiter Judge", version: "1" }   (no chainId, no verifyingContract:
 *                 a receipt is a statement by the judge key, independent of any chain; the
 *                 EIP712Domain type therefore has exactly the fields `string name, string version`)
 *   primaryType = Receipt
 *   Receipt     = { bytes32 requestHash; bytes32 transcriptRoot; bytes32 outputHash }
 *
 * digest = keccak256(0x1901 ++ domainSeparator ++ hashStruct(Receipt)); the signature is the 65-byte
 * secp256k1 (r, s, v) signature of the digest by the judge key; `judge` is that key's address.
 */
import type { Hex } from "viem";

export const RECEIPT_DOMAIN = { name: "Arbiter Judge", version: "1" } as const;

export const RECEIPT_TYPES = {
  Receipt: [
    { name: "requestHash", type: "bytes32" },
    { name: "transcriptRoot", type: "bytes32" },
    { name: "outputHash", type: "bytes32" },
  ],
} as const;

export interface ReceiptMessage {
  requestHash: Hex;
  transcriptRoot: Hex;
  outputHash: Hex;
}

export function receiptTypedData(message: ReceiptMessage) {
  return {
    domain: RECEIPT_DOMAIN,
    types: RECEIPT_TYPES,
    primaryType: "Receipt" as const,
    message,
  };
}
