import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

/**
 * Password hashing with scrypt (memory-hard): N = 2^15, r = 8, p = 1 uses 32 MiB and ~60-100 ms per hash here,
 * a 16-byte random salt per password and a 32-byte key. Stored as `scrypt$15$8$1$<salt b64>$<key b64>` so the
 * cost can be raised later without breaking stored hashes.
 */
const LOG_N = 15;
const R = 8;
const P = 1;
const KEY_LEN = 32;

export const PASSWORD_MIN = 10;
/** Bounds the work an attacker can make one request cost. */
export const PASSWORD_MAX = 256;

function derive(password: string, salt: Buffer, logN: number, r: number, p: number): Promise<Buffer> {
  const opts: ScryptOptions = { N: 2 ** logN, r, p, maxmem: 256 * 2 ** logN * r };
  return new Promise((resolve, reject) => scrypt(password.normalize("NFKC"), salt, KEY_LEN, opts, (err, key) => (err ? reject(err) : resolve(key))));
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, LOG_N, R, P);
  return `scrypt$${LOG_N}$${R}$${P}$${salt.toString("base64")}$${key.toString("base64")}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [logN, r, p] = parts.slice(1, 4).map(Number);
  if (![logN, r, p].every(Number.isInteger) || logN > 20 || r > 32 || p > 16) return false;
  const expected = Buffer.from(parts[5], "base64");
  const key = await derive(password, Buffer.from(parts[4], "base64"), logN, r, p);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A stored hash of a random password: checked when the email is unknown, so timing does not reveal it. */
let decoy: Promise<string> | null = null;
export const decoyHash = (): Promise<string> => (decoy ??= hashPassword(randomBytes(16).toString("hex")));

/** A reason the password is not acceptable, or null. */
export function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN) return `Use at least ${PASSWORD_MIN} characters.`;
  if (password.length > PASSWORD_MAX) return `Use at most ${PASSWORD_MAX} characters.`;
  return null;
}
