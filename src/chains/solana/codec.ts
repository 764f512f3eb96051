/**
 * The Solana address codec of the chain port: base58 of exactly 32 bytes, canonical form is the input as
 * sent (base58 has one encoding per key), equality is exact: base58 is case-sensitive, so
 * "7xKX..." and "7xkx..." are different keys and never compared loosely.
 */
import { getBase58Encoder } from "@solana/kit";
import type { AddressCodec } from "../port";
import { inputError } from "./errors";

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const toBytes = getBase58Encoder();

export const SOLANA_ADDRESS_DESCRIBE = "a base58 Solana address (32 bytes)";

export const looksLikeSolanaAddress = (s: string): boolean => BASE58.test(s);

function problem(input: string): string | null {
  if (!BASE58.test(input)) return `must be ${SOLANA_ADDRESS_DESCRIBE}`;
  try {
    if (toBytes.encode(input).length !== 32) return `must be ${SOLANA_ADDRESS_DESCRIBE}; this one decodes to another length`;
  } catch {
    return `must be ${SOLANA_ADDRESS_DESCRIBE}`;
  }
  return null;
}

export const solanaAddressCodec: AddressCodec = {
  describe: SOLANA_ADDRESS_DESCRIBE,
  parse(input, field) {
    const a = input.trim();
    const p = problem(a);
    if (p) throw inputError(field ? `${field} ${p}` : `address ${p}`, field);
    return a;
  },
  validate: (input) => problem(input.trim()),
  normalise(address) {
    const a = address.trim();
    const p = problem(a);
    if (p) throw inputError(`address ${p}`);
    return a;
  },
  equals: (a, b) => problem(a.trim()) === null && a.trim() === b.trim(),
  display: (address) => (address.length > 12 ? `${address.slice(0, 4)}...${address.slice(-4)}` : address),
};
