/**
 * The EIP-3009 authorization an x402 `exact` payment carries, signed through the custody port
 * (`WalletSigner.signTypedData`): TransferWithAuthorization(from = wallet, to = payTo, value = amount,
 * validAfter = 0, validBefore, nonce = 32 random bytes) in the token's EIP-712 domain (the terms' `extra.name`
 * and `extra.version`, the wallet's chain id, the token as verifying contract). The same message the
 * official x402 client signs; `accepted` is the resource's own terms entry, unchanged, so its server
 * matches it.
 *
 * validBefore is now + min(maxTimeoutSeconds, MAX_VALIDITY_SECONDS): a signed authorization is a bearer
 * instrument for exactly this transfer until then, so it is kept short.
 */
import { randomBytes } from "node:crypto";
import { authorizationTypes } from "@x402/evm";
import { getAddress, toHex, type Address, type Hex } from "viem";
import type { PaymentPayload, PaymentRequirements, ResourceInfo } from "@x402/core/types";
import type { KeyHandle, WalletSigner } from "../../chains/evm/custody";
import { X402_VERSION } from "../requirements";

export const MAX_VALIDITY_SECONDS = 300;

export interface SignedPayment {
  payload: PaymentPayload;
  nonce: Hex;
  validBefore: number;
}

export async function signExactPayment(
  signer: WalletSigner,
  handle: KeyHandle,
  p: { from: Address; chainId: number; accepted: PaymentRequirements; resource: ResourceInfo | null; nowSeconds: number },
): Promise<SignedPayment> {
  if (!signer.signTypedData) throw new Error("this custodian cannot sign typed data");
  const extra = p.accepted.extra ?? {};
  if (typeof extra.name !== "string" || typeof extra.version !== "string") throw new Error("the terms carry no EIP-712 domain (extra.name, extra.version)");
  const nonce = toHex(randomBytes(32));
  const validBefore = p.nowSeconds + Math.min(p.accepted.maxTimeoutSeconds, MAX_VALIDITY_SECONDS);
  const authorization = { from: getAddress(p.from), to: getAddress(p.accepted.payTo), value: p.accepted.amount, validAfter: "0", validBefore: String(validBefore), nonce };
  const signature = await signer.signTypedData(handle, {
    domain: { name: extra.name, version: extra.version, chainId: p.chainId, verifyingContract: getAddress(p.accepted.asset) },
    types: authorizationTypes,
    primaryType: "TransferWithAuthorization",
    message: { ...authorization, value: BigInt(authorization.value), validAfter: 0n, validBefore: BigInt(validBefore) },
  });
  const payload: PaymentPayload = {
    x402Version: X402_VERSION,
    ...(p.resource ? { resource: p.resource } : {}),
    accepted: p.accepted,
    payload: { authorization, signature },
  } as PaymentPayload;
  return { payload, nonce, validBefore };
}
