/**
 * Defensive readers for untrusted JSON. Adapters run on every request with arbitrary input, so every
 * accessor tolerates wrong types and never throws; an own-property check keeps "__proto__" and
 * "constructor" keys from resolving to prototype members.
 */
export type Json = Record<string, unknown>;

export const isRecord = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

export function own(obj: unknown, key: string): unknown {
  if (!isRecord(obj) && !Array.isArray(obj)) return undefined;
  return Object.prototype.hasOwnProperty.call(obj, key) ? (obj as Json)[key] : undefined;
}

export const str = (v: unknown): string | null => (typeof v === "string" ? v : null);

export const nonEmptyStr = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v.trim() : null);

export const bool = (v: unknown): boolean | null => (typeof v === "boolean" ? v : null);

/** A finite number from a number or a plain numeric string; null otherwise. */
export function num(v: unknown): number | null {
  if (typeof v === "number") return Number.isFinite(v) ? v : null;
  if (typeof v === "string" && /^\s*-?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?\s*$/i.test(v) && v.length < 80) {
    const n = Number(v);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/** An integer amount from bigint, safe integer, decimal-digit string or 0x-hex string. */
export function bigInt(v: unknown): bigint | null {
  if (typeof v === "bigint") return v;
  if (typeof v === "number") return Number.isSafeInteger(v) ? BigInt(v) : null;
  if (typeof v !== "string") return null;
  const s = v.trim();
  if (s.length === 0 || s.length > 100) return null;
  if (/^-?\d+$/.test(s)) return BigInt(s);
  if (/^0x[0-9a-f]+$/i.test(s)) return BigInt(s);
  return null;
}

export const isHexAddress = (v: unknown): v is string => typeof v === "string" && /^0x[0-9a-fA-F]{40}$/.test(v);

export const lower = (v: string): string => v.toLowerCase();

/** Lower-cased EVM address, or null when it is not one. */
export const evmAddr = (v: unknown): string | null => (isHexAddress(v) ? v.toLowerCase() : null);

export function uniq<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}

/** Case-insensitive own-key lookup; context keys are written by people (e.g. "eth" vs "ETH"). */
export function lookupCI(obj: unknown, key: string): unknown {
  if (!isRecord(obj)) return undefined;
  const direct = own(obj, key);
  if (direct !== undefined) return direct;
  const k = key.toLowerCase();
  for (const name of Object.keys(obj)) if (name.toLowerCase() === k) return obj[name];
  return undefined;
}

/** Shortens long untrusted strings before they go into details or summaries. */
export function clip(s: string, max = 200): string {
  return s.length > max ? `${s.slice(0, max)}...` : s;
}

export const MAX_ITEMS = 100;
