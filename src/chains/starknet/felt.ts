/**
 * Felt codec: the one place Starknet field elements and addresses are parsed from text.
 *
 * A felt is an integer 0 <= x < P (P = 2^251 + 17·2^192 + 1). Input may be 0x-hex or a plain decimal
 * string; anything else (signs, exponents, whitespace, empty hex, out of range) is refused with a
 * message naming the field. Addresses are felts below 2^251 - 256 (the contract-address bound) and are
 * always written as 0x + 64 lowercase hex, so allowlists and comparisons work on one spelling.
 */
export const FELT_PRIME = 2n ** 251n + 17n * 2n ** 192n + 1n;
export const ADDRESS_BOUND = 2n ** 251n - 256n;

export class FeltError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FeltError";
  }
}

const HEX = /^0x[0-9a-fA-F]{1,64}$/;
const DEC = /^(0|[1-9][0-9]{0,76})$/;

/** Parses a felt from hex or decimal text (or a bigint/safe integer); throws FeltError naming `field`. */
export function parseFelt(value: unknown, field = "felt"): bigint {
  let x: bigint;
  if (typeof value === "bigint") x = value;
  else if (typeof value === "number" && Number.isSafeInteger(value)) x = BigInt(value);
  else if (typeof value === "string" && HEX.test(value)) x = BigInt(value);
  else if (typeof value === "string" && DEC.test(value)) x = BigInt(value);
  else throw new FeltError(`${field} must be a felt: 0x-hex or a decimal integer string`);
  if (x < 0n || x >= FELT_PRIME) throw new FeltError(`${field} is out of the felt range (0 <= x < 2^251 + 17*2^192 + 1)`);
  return x;
}

/** Parses and range-checks a Starknet contract address; returns 0x + 64 lowercase hex. */
export function normaliseAddress(value: unknown, field = "address"): string {
  const x = parseFelt(value, field);
  if (x >= ADDRESS_BOUND) throw new FeltError(`${field} is out of the contract address range (below 2^251 - 256)`);
  if (x === 0n) throw new FeltError(`${field} must not be zero`);
  return toAddress(x);
}

export const toAddress = (x: bigint): string => "0x" + x.toString(16).padStart(64, "0");

/** The JSON-RPC FELT spelling: 0x without leading zeros. */
export const toFeltHex = (x: bigint): string => "0x" + x.toString(16);

export function isAddress(value: unknown): boolean {
  try {
    normaliseAddress(value);
    return true;
  } catch {
    return false;
  }
}

/** Splits an unsigned 256-bit value into Cairo's u256 (low, high) felt pair. */
export function toU256(x: bigint): [bigint, bigint] {
  if (x < 0n || x >= 2n ** 256n) throw new FeltError("amount is out of the u256 range");
  return [x & (2n ** 128n - 1n), x >> 128n];
}

export function fromU256(low: bigint, high: bigint): bigint {
  if (low >= 2n ** 128n || high >= 2n ** 128n) throw new FeltError("u256 halves must each be below 2^128");
  return low + (high << 128n);
}

/** Cairo short string (<= 31 ASCII characters) as a felt. */
export function shortString(s: string): bigint {
  if (s.length > 31 || !/^[\x20-\x7e]*$/.test(s)) throw new FeltError("short strings are at most 31 ASCII characters");
  return s.length === 0 ? 0n : BigInt("0x" + Buffer.from(s, "ascii").toString("hex"));
}

export function decodeShortString(x: bigint): string {
  if (x === 0n) return "";
  let hex = x.toString(16);
  if (hex.length % 2) hex = "0" + hex;
  return Buffer.from(hex, "hex").toString("latin1");
}
