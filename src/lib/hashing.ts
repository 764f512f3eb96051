import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { keccak256, toBytes, type Hex } from "viem";
import { canonicalJson } from "./canonical-json";

export const sha256Hex = (s: string | Uint8Array): string => createHash("sha256").update(s).digest("hex");

export const keccakCanonical = (value: unknown): Hex => keccak256(toBytes(canonicalJson(value)));

/** 0x + 32 random bytes: the per-run `requestHash` of a verification (SPEC 2.1: not a payload hash). */
export const randomHex32 = (): Hex => `0x${randomBytes(32).toString("hex")}`;

/** Constant-time comparison of two secrets of any length (length leaks, content does not). */
export function safeEqual(a: string, b: string): boolean {
  const ha = createHash("sha256").update(a).digest();
  const hb = createHash("sha256").update(b).digest();
  return timingSafeEqual(ha, hb) && a.length === b.length;
}
