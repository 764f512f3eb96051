/**
 * The associated token account of a wallet for a mint, derived offline and synchronously, so a payment into a token
 * account can be traced to the wallet an owner's list names. Owners list wallets ("their wallets are in
 * context.writers"); a USDC payment lands in the wallet's associated token account, an address the list never shows.
 * The derivation is fixed by the Associated Token program (seeds: wallet, token program, mint), so a match is proof of
 * ownership, not a guess: an account that is no listed wallet's derived account stays unknown.
 *
 * The on-curve test follows @solana/addresses (its vendored noble ed25519): a program-derived address is the first
 * bump, from 255 down, whose SHA-256 hash is not a valid ed25519 point.
 */
import { createHash } from "node:crypto";

const ATA_PROGRAM = "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL";
const PDA_MARKER = Buffer.from("ProgramDerivedAddress");
const P = 2n ** 255n - 19n;
const D = 37095705934669439343138083508754565189542113879843219016388785533085940283555n;
const RM1 = 19681161376707505956807079304988542015446066515923890162744021073123829784752n;
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

const mod = (a: bigint): bigint => {
  const r = a % P;
  return r >= 0n ? r : P + r;
};
function pow2(x: bigint, power: number): bigint {
  let r = x;
  while (power-- > 0) r = (r * r) % P;
  return r;
}
/** x^((p-5)/8), the square-root exponent of ed25519 decompression. */
function pow_2_252_3(x: bigint): bigint {
  const x2 = (x * x) % P;
  const b2 = (x2 * x) % P;
  const b4 = (pow2(b2, 2) * b2) % P;
  const b5 = (pow2(b4, 1) * x) % P;
  const b10 = (pow2(b5, 5) * b5) % P;
  const b20 = (pow2(b10, 10) * b10) % P;
  const b40 = (pow2(b20, 20) * b20) % P;
  const b80 = (pow2(b40, 40) * b40) % P;
  const b160 = (pow2(b80, 80) * b80) % P;
  const b240 = (pow2(b160, 80) * b80) % P;
  const b250 = (pow2(b240, 10) * b10) % P;
  return (pow2(b250, 2) * x) % P;
}

/** Whether 32 bytes decompress to an ed25519 point (then they cannot be a program-derived address). */
export function onCurve(bytes: Uint8Array): boolean {
  if (bytes.length !== 32) return false;
  let y = 0n;
  for (let i = 31; i >= 0; i--) y = (y << 8n) | BigInt(i === 31 ? bytes[i] & 0x7f : bytes[i]);
  const y2 = mod(y * y);
  const u = mod(y2 - 1n);
  const v = mod(D * y2 + 1n);
  const v3 = mod(v * v * v);
  const v7 = mod(v3 * v3 * v);
  let x = mod(u * v3 * pow_2_252_3(mod(u * v7)));
  const vx2 = mod(v * x * x);
  const root1 = vx2 === u;
  const root2 = vx2 === mod(-u);
  if (!root1 && !root2) return false;
  if (!root1) x = mod(x * RM1);
  if ((x & 1n) === 1n) x = mod(-x);
  return !(x === 0n && (bytes[31] & 0x80) !== 0);
}

const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const DIGIT = new Map([...ALPHABET].map((ch, i) => [ch, i]));

/** The 32 bytes of a base58 address (a small byte-array decoder: the codec's BigInt one is slow here). */
export function addressBytes(a: string): Uint8Array | null {
  const bytes: number[] = [];
  for (const ch of a) {
    let carry = DIGIT.get(ch);
    if (carry === undefined) return null;
    for (let i = 0; i < bytes.length; i++) {
      carry += bytes[i] * 58;
      bytes[i] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      bytes.push(carry & 0xff);
      carry >>= 8;
    }
  }
  for (const ch of a) {
    if (ch !== "1") break;
    bytes.push(0);
  }
  if (bytes.length !== 32) return null;
  return Uint8Array.from(bytes.reverse());
}

const BUMPS = 32;
const cache = new Map<string, boolean>();

/**
 * Whether `tokenAccount` is the associated token account of `owner` for `mint` under `tokenProgram`. The account
 * is the hash at the first bump, from 255 down, that is off the curve: the hashes of a few bumps are compared with
 * the account's bytes first, and the curve is tested only for the one that matches and the bumps before it. An
 * account behind more than 32 bumps (a chance of 1 in 4 billion) is not recognised, which leaves it unknown.
 */
export function isAssociatedAccount(tokenAccount: string, owner: string, mint: string, tokenProgram: string): boolean {
  const key = `${tokenAccount}|${owner}|${mint}|${tokenProgram}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  let out = false;
  const [target, o, prog, m, ata] = [tokenAccount, owner, tokenProgram, mint, ATA_PROGRAM].map(addressBytes);
  if (target && o && prog && m && ata) {
    const hashes: Buffer[] = [];
    for (let bump = 255; bump > 255 - BUMPS; bump--) {
      const h = createHash("sha256").update(o).update(prog).update(m).update(Uint8Array.of(bump)).update(ata).update(PDA_MARKER).digest();
      hashes.push(h);
      if (h.equals(target)) {
        out = !onCurve(h) && hashes.slice(0, -1).every(onCurve);
        break;
      }
    }
  }
  if (cache.size > 5000) cache.clear();
  cache.set(key, out);
  return out;
}

/** Wallet-like strings in the caller's context (keys and values, a few levels deep), at most `limit`. */
export function walletsInContext(ctx: unknown, limit = 64): string[] {
  const out = new Set<string>();
  const walk = (v: unknown, depth: number): void => {
    if (out.size >= limit || depth > 4) return;
    if (typeof v === "string") {
      if (BASE58.test(v)) out.add(v);
    } else if (Array.isArray(v)) for (const x of v.slice(0, 200)) walk(x, depth + 1);
    else if (typeof v === "object" && v !== null)
      for (const [k, x] of Object.entries(v).slice(0, 200)) {
        if (BASE58.test(k)) out.add(k);
        walk(x, depth + 1);
      }
  };
  walk(ctx, 0);
  return [...out].slice(0, limit);
}

/** The wallet among `candidates` whose associated account for `mint` is `tokenAccount`, else null. */
export function ownerOfAssociated(tokenAccount: string, mint: string, tokenProgram: string, candidates: readonly string[]): string | null {
  for (const c of candidates) if (c !== tokenAccount && isAssociatedAccount(tokenAccount, c, mint, tokenProgram)) return c;
  return null;
}
