/**
 * The one strict reader of EVM addresses from outside (requests, limits, x402 terms, heartbeats).
 *
 * EIP-55: an address written in mixed case carries a checksum in its letter case; one typed character off
 * breaks it, so a mixed-case address whose checksum is wrong is refused rather than silently lower-cased
 * (which would send funds to the mistyped address). An address in one case only (all lower, all upper)
 * carries no checksum and is accepted as written. Comparisons elsewhere use the checksummed form this returns.
 */
import { getAddress, type Address } from "viem";
import { z } from "zod";

const SHAPE = /^0x[0-9a-fA-F]{40}$/;

export const ADDRESS_SHAPE_MESSAGE = "must be a 0x address (20 bytes hex)";
export const CHECKSUM_MESSAGE = "has mixed case but a wrong EIP-55 checksum (a character is probably mistyped); send it exactly as checksummed, or all lowercase";

export type EvmAddressCheck = { ok: true; address: Address } | { ok: false; reason: "shape" | "checksum"; message: string };

/** Parses an address; on success returns its EIP-55 checksummed form. */
export function checkEvmAddress(raw: string): EvmAddressCheck {
  if (!SHAPE.test(raw)) return { ok: false, reason: "shape", message: ADDRESS_SHAPE_MESSAGE };
  const hex = raw.slice(2);
  const checksummed = getAddress(`0x${hex.toLowerCase()}`);
  const oneCase = hex === hex.toLowerCase() || hex === hex.toUpperCase();
  if (!oneCase && checksummed !== `0x${hex}`) return { ok: false, reason: "checksum", message: CHECKSUM_MESSAGE };
  return { ok: true, address: checksummed };
}

/** Whether a string has the shape of an EVM address (checksum not considered). */
export const looksLikeEvmAddress = (raw: string): boolean => SHAPE.test(raw);

/** A string that, if it is an address, has a good checksum (a mixed-case one with a wrong checksum is refused). */
export const isAcceptableEvmAddress = (raw: string): boolean => checkEvmAddress(raw).ok;

/**
 * The zod schema for an address field: shape, then checksum, each with its own message. The output stays
 * the string as sent (callers that need one form call checkEvmAddress / getAddress on it).
 */
export function evmAddressSchema(shapeMessage = ADDRESS_SHAPE_MESSAGE) {
  return z
    .string()
    .regex(SHAPE, shapeMessage)
    .refine((s) => !SHAPE.test(s) || checkEvmAddress(s).ok, CHECKSUM_MESSAGE);
}

/** A field that takes a symbol or an address (asset, sell, buy): an address in it must pass the checksum. */
export function symbolOrEvmAddressSchema(max = 100) {
  return z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((s) => !SHAPE.test(s) || checkEvmAddress(s).ok, CHECKSUM_MESSAGE);
}
