import { randomBytes, randomUUID } from "node:crypto";

/** Random base32-ish id with a type prefix: acct_, key_, wal_, prop_ ... (DESIGN "Data and invariants"). */
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
export function prefixedId(prefix: string, bytes = 12): string {
  const buf = randomBytes(bytes);
  let out = "";
  for (const b of buf) out += ALPHABET[b & 31];
  return `${prefix}_${out}`;
}

/** A secret token with `bits` of randomness, base64url. */
export const secretToken = (bits = 256): string => randomBytes(Math.ceil(bits / 8)).toString("base64url");

export const uuid = (): string => randomUUID();

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const HASH32_RE = /^0x[0-9a-fA-F]{64}$/;
