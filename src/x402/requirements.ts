/**
 * x402 v2 helpers for the Base USDC `exact` scheme: payment requirements, the PaymentRequired document,
 * the base64 header codecs (from @x402/core/http) and the bits of an EIP-3009 payload a resource server
 * needs (payer, nonce, an idempotency key).
 */
import {
  decodePaymentRequiredHeader,
  decodePaymentResponseHeader,
  decodePaymentSignatureHeader,
  encodePaymentRequiredHeader,
  encodePaymentResponseHeader,
  encodePaymentSignatureHeader,
} from "@x402/core/http";
import { isPaymentPayloadV2 } from "@x402/core/schemas";
import type {
  Network,
  PaymentPayload,
  PaymentRequired,
  PaymentRequirements,
  ResourceInfo,
  SettleResponse,
  SupportedResponse,
  VerifyResponse,
} from "@x402/core/types";
import { getAddress, isAddress, isHex, type Address } from "viem";
import { BASE_USDC, SANDBOX_NETWORK, USDC_EIP712_NAME, USDC_EIP712_VERSION } from "../sandbox/addresses";

export type { Network, PaymentPayload, PaymentRequired, PaymentRequirements, ResourceInfo, SettleResponse, SupportedResponse, VerifyResponse };
export {
  decodePaymentRequiredHeader,
  decodePaymentResponseHeader,
  decodePaymentSignatureHeader,
  encodePaymentRequiredHeader,
  encodePaymentResponseHeader,
  encodePaymentSignatureHeader,
};

export const X402_VERSION = 2;
/** v2 request header carrying the base64 PaymentPayload. */
export const PAYMENT_SIGNATURE_HEADER = "PAYMENT-SIGNATURE";
/** v2 402-response header carrying the base64 PaymentRequired. */
export const PAYMENT_REQUIRED_HEADER = "PAYMENT-REQUIRED";
/** v2 response header carrying the base64 SettleResponse. */
export const PAYMENT_RESPONSE_HEADER = "PAYMENT-RESPONSE";
/** x402 v1 request header (not supported; recognise it to answer with a clear error). */
export const X_PAYMENT_V1_HEADER = "X-PAYMENT";

export const DEFAULT_MAX_TIMEOUT_SECONDS = 300;

export interface UsdcRequirementsInput {
  /** Atomic USDC units (6 decimals), e.g. 1_000_000n or "1000000" for $1. */
  amount: bigint | string;
  payTo: string;
  /** Defaults to Base USDC. */
  asset?: string;
  /** Defaults to eip155:8453. */
  network?: Network;
  maxTimeoutSeconds?: number;
  /** EIP-712 domain of the token; defaults to USDC's ("USD Coin", "2"). */
  eip712?: { name: string; version: string };
  /** Further `extra` members. */
  extra?: Record<string, unknown>;
}

/** One `accepts` entry for an exact USDC payment. */
export function buildUsdcPaymentRequirements(input: UsdcRequirementsInput): PaymentRequirements {
  const amount = typeof input.amount === "bigint" ? input.amount.toString() : input.amount;
  if (!/^[1-9]\d*$/.test(amount)) throw new RangeError(`amount must be a positive integer of atomic units, got ${amount}`);
  if (!isAddress(input.payTo, { strict: false })) throw new RangeError(`payTo is not an address: ${input.payTo}`);
  const asset = input.asset ?? BASE_USDC;
  if (!isAddress(asset, { strict: false })) throw new RangeError(`asset is not an address: ${asset}`);
  return {
    scheme: "exact",
    network: input.network ?? SANDBOX_NETWORK,
    amount,
    asset: getAddress(asset),
    payTo: getAddress(input.payTo),
    maxTimeoutSeconds: input.maxTimeoutSeconds ?? DEFAULT_MAX_TIMEOUT_SECONDS,
    extra: {
      name: input.eip712?.name ?? USDC_EIP712_NAME,
      version: input.eip712?.version ?? USDC_EIP712_VERSION,
      ...(input.extra ?? {}),
    },
  };
}

/** The 402 document (for the PAYMENT-REQUIRED header; the body may carry more). */
export function buildPaymentRequired(input: {
  accepts: PaymentRequirements[];
  resource: ResourceInfo;
  error?: string;
  extensions?: Record<string, unknown>;
}): PaymentRequired {
  return {
    x402Version: X402_VERSION,
    ...(input.error !== undefined ? { error: input.error } : {}),
    resource: input.resource,
    accepts: input.accepts,
    ...(input.extensions ? { extensions: input.extensions } : {}),
  };
}

/**
 * Decode a PAYMENT-SIGNATURE header into a v2 PaymentPayload, or null when it is not base64 JSON of a
 * v2 payload (callers answer 402 with fresh terms).
 */
export function parsePaymentSignatureHeader(header: string | null | undefined): PaymentPayload | null {
  if (!header) return null;
  try {
    const decoded: unknown = decodePaymentSignatureHeader(header.trim());
    return isPaymentPayloadV2(decoded) ? (decoded as PaymentPayload) : null;
  } catch {
    return null;
  }
}

const sameAddress = (a: unknown, b: unknown): boolean =>
  typeof a === "string" && typeof b === "string" && a.toLowerCase() === b.toLowerCase();

/**
 * The candidate the payer accepted: same scheme, network, amount, asset and payTo (addresses compared
 * case-insensitively). Extra fields (`extra`, `maxTimeoutSeconds`) are not compared; the facilitator
 * checks the signature against the candidate's EIP-712 domain.
 */
export function findMatchingRequirements(
  payload: PaymentPayload,
  candidates: readonly PaymentRequirements[],
): PaymentRequirements | undefined {
  const a = payload.accepted;
  if (!a) return undefined;
  return candidates.find(
    (c) =>
      c.scheme === a.scheme &&
      c.network === a.network &&
      String(c.amount) === String(a.amount) &&
      sameAddress(c.asset, a.asset) &&
      sameAddress(c.payTo, a.payTo),
  );
}

export interface Eip3009Authorization {
  from: Address;
  to: Address;
  value: string;
  validAfter: string;
  validBefore: string;
  nonce: `0x${string}`;
}

/** The EIP-3009 authorization inside an exact-EVM payload, or null for other payload kinds (e.g. Permit2). */
export function getEip3009Authorization(payload: PaymentPayload): { authorization: Eip3009Authorization; signature: `0x${string}` } | null {
  const p = payload.payload as { authorization?: Record<string, unknown>; signature?: unknown };
  const auth = p?.authorization;
  if (!auth || typeof p.signature !== "string" || !isHex(p.signature)) return null;
  const { from, to, value, validAfter, validBefore, nonce } = auth;
  if (typeof from !== "string" || !isAddress(from, { strict: false })) return null;
  if (typeof to !== "string" || !isAddress(to, { strict: false })) return null;
  if (typeof nonce !== "string" || !isHex(nonce) || nonce.length !== 66) return null;
  const int = (v: unknown) => (typeof v === "string" || typeof v === "number") && /^\d+$/.test(String(v));
  if (!int(value) || !int(validAfter) || !int(validBefore)) return null;
  return {
    authorization: {
      from: getAddress(from),
      to: getAddress(to),
      value: String(value),
      validAfter: String(validAfter),
      validBefore: String(validBefore),
      nonce: nonce.toLowerCase() as `0x${string}`,
    },
    signature: p.signature,
  };
}

/**
 * A stable identifier of one EIP-3009 authorization: the token contract enforces that (authorizer, nonce)
 * is used once, so crediting keyed on this is credited at most once per authorization.
 */
export function authorizationKey(payload: PaymentPayload): string | null {
  const a = getEip3009Authorization(payload);
  if (!a) return null;
  return `${payload.accepted.network}:${payload.accepted.asset.toLowerCase()}:${a.authorization.from.toLowerCase()}:${a.authorization.nonce}`;
}
