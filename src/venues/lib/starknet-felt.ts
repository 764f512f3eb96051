/** Starknet felts as the adapters read them: numbers below 2^252, reported padded to 0x + 64 hex. */
import { bigInt } from "./util";

const FELT_MAX = 2n ** 252n;
export const U128_MAX = 2n ** 128n - 1n;

export function felt(v: unknown): bigint | null {
  const b = bigInt(typeof v === "string" ? v.trim() : v);
  return b !== null && b >= 0n && b < FELT_MAX ? b : null;
}

export const feltHex = (b: bigint): string => `0x${b.toString(16).padStart(64, "0")}`;
