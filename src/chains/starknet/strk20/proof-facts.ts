/**
 * STRK20 proof facts (research/starknet.md §1.6; starknet-privacy sdk/src/utils/proof-facts.ts): nine felts
 * a proof exposes to the pool through the transaction. The service reads only the base block (for expiry)
 * and validates the shape SPEC 8 sets (1 to 64 hex felts, base64 proof under 4 MB); the pool checks the rest.
 */
import { ec } from "starknet";
import { shortString } from "../felt";
import { pedersenArray } from "../tx-hash";

export const PROOF0 = shortString("PROOF0");
export const VIRTUAL_SNOS = shortString("VIRTUAL_SNOS");
export const VIRTUAL_SNOS0 = shortString("VIRTUAL_SNOS0");
export const MAX_FACTS = 64;
/** SPEC 8: the base64 proof is under 4 MB (its text length, as sent). */
export const MAX_PROOF_BYTES = 4 * 1024 * 1024;
/** SPEC 8: a proof from signing expires in about five minutes. */
export const PROOF_TTL_MS = 5 * 60_000;
const HEX_FELT = /^0x[0-9a-fA-F]{1,64}$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export interface ProofFactsFields {
  programHash: bigint;
  baseBlockNumber: bigint;
  baseBlockHash: bigint;
  configHash: bigint;
  messageHash: bigint;
}

/** The OS config hash the facts commit to: Pedersen chain of ('StarknetOsConfig3', chain id, STRK). */
export const osConfigHash = (chainId: bigint, strk: bigint): bigint => pedersenArray([shortString("StarknetOsConfig3"), chainId, strk]);

/** The pool's message hash: poseidon(pool, 0, payload_len, ...payload), payload = [pool class hash, ...server actions]. */
export function messageHash(pool: bigint, poolClassHash: bigint, serverActions: bigint[]): bigint {
  const payload = [poolClassHash, ...serverActions];
  return ec.starkCurve.poseidonHashMany([pool, 0n, BigInt(payload.length), ...payload]);
}

export function buildProofFacts(f: ProofFactsFields): bigint[] {
  return [PROOF0, VIRTUAL_SNOS, f.programHash, VIRTUAL_SNOS0, f.baseBlockNumber, f.baseBlockHash, f.configHash, 1n, f.messageHash];
}

/** Parses the nine-felt layout; null when the facts are not of that shape. */
export function parseProofFacts(facts: readonly bigint[]): ProofFactsFields | null {
  if (facts.length !== 9 || facts[0] !== PROOF0 || facts[1] !== VIRTUAL_SNOS || facts[3] !== VIRTUAL_SNOS0 || facts[7] !== 1n) return null;
  return { programHash: facts[2]!, baseBlockNumber: facts[4]!, baseBlockHash: facts[5]!, configHash: facts[6]!, messageHash: facts[8]! };
}

export class ProofShapeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProofShapeError";
  }
}

/** SPEC 8 limits on a proof a caller sends: 1 to 64 hex felts and a base64 proof under 4 MB. */
export function checkProofShape(p: { facts: unknown; data: unknown }, field = "proof"): { facts: bigint[]; data: string } {
  if (!Array.isArray(p.facts) || p.facts.length < 1 || p.facts.length > MAX_FACTS) throw new ProofShapeError(`${field}.facts must be 1 to ${MAX_FACTS} hex felts`);
  const facts = p.facts.map((x, i) => {
    if (typeof x !== "string" || !HEX_FELT.test(x)) throw new ProofShapeError(`${field}.facts[${i}] must be a 0x-hex felt`);
    const v = BigInt(x);
    if (v >= 2n ** 251n + 17n * 2n ** 192n + 1n) throw new ProofShapeError(`${field}.facts[${i}] is out of the felt range`);
    return v;
  });
  if (typeof p.data !== "string" || p.data.length === 0) throw new ProofShapeError(`${field}.data must be a base64 string`);
  if (p.data.length >= MAX_PROOF_BYTES) throw new ProofShapeError(`${field}.data must be under 4 MB of base64`);
  if (p.data.length % 4 !== 0 || !BASE64.test(p.data)) throw new ProofShapeError(`${field}.data must be base64 (standard alphabet, padded)`);
  return { facts, data: p.data };
}
