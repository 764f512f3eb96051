import { createHash, randomFillSync, timingSafeEqual } from "node:crypto";
import { canonicalJson } from "./canonical-json";
import type { Hex } from "./hex";
import { keccak256Fast } from "./keccak";

export const sha256Hex = (s: string | Uint8Array): string => createHash("sha256").update(s).digest("hex");

/** keccak256 of the canonical JSON text, UTF-8 encoded (hash-wasm hashes a string as its UTF-8 bytes, as viem did). */
export const keccakCanonical = (value: unknown): Hex => keccak256Fast(canonicalJson(value));

// Random bytes are drawn from the CSPRNG 4 KiB at a time (one call per 128 values instead of one each: a
// call cost 5-13 us on the verification path, docs/performance.md). Each slice is handed out once.
const POOL = Buffer.alloc(4096);
let poolOffset = POOL.length;

/** 0x + 32 random bytes: the per-run `requestHash` of a verification (SPEC 2.1: not a payload hash). */
export function randomHex32(): Hex {
  if (poolOffset === POOL.length) {
    randomFillSync(POOL);
    poolOffset = 0;
  }
  const hex = POOL.toString("hex", poolOffset, poolOffset + 32);
  poolOffset += 32;
  return `0x${hex}`;
}

/** Constant-time comparison of two secrets of any length (length leaks, content does not). */
export function safeEqual(a: string, b: string): boolean {
  const ha = createHash("sha256").update(a).digest();
  const hb = createHash("sha256").update(b).digest();
  return timingSafeEqual(ha, hb) && a.length === b.length;
}
