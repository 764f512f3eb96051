/**
 * The one viewing-key derivation message this service signs (docs/decisions.md, "STRK20 viewing key"):
 * starknetKeccak of `${chainId}:${poolAddress}` (the starknet-privacy demo's scheme), both values fixed by
 * the deployment. No caller bytes reach the signer. The signature discloses the viewing key: anyone holding
 * it derives k = canonical(poseidon(r, s) mod n) and reads every note of the wallet.
 */
import { ec, hash } from "starknet";
import { CURVE_ORDER } from "./actions";

export const viewingKeyMessage = (chainId: bigint, pool: string): string => `0x${chainId.toString(16)}:0x${BigInt(pool).toString(16).padStart(64, "0")}`;

export const viewingKeyMessageHash = (chainId: bigint, pool: string): bigint => BigInt(hash.starknetKeccak(viewingKeyMessage(chainId, pool)));

/** The viewing key a derivation signature yields (what a holder of the signature can compute). */
export function viewingKeyFromSignature(r: bigint, s: bigint): bigint {
  let k = ec.starkCurve.poseidonHashMany([r, s]) % CURVE_ORDER;
  if (k > CURVE_ORDER / 2n) k = CURVE_ORDER - k;
  return k === 0n ? 1n : k;
}
