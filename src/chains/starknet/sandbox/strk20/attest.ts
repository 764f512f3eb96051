/**
 * The sandbox's stand-in for a STARK proof: the local prover MACs the proof facts with a key the sandbox
 * node holds, and the node accepts a transaction carrying proof facts only with a proof whose MAC matches.
 * This binds a proof to its facts and refuses a made-up one, but it is NOT a proof of anything: the
 * sandbox cannot verify STARKs offline. The padding gives the proof a realistic size (kilobytes, base64).
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

const HEADER = "ARBITER-SANDBOX-PROOF (not a STARK: an HMAC of the proof facts by the sandbox prover)\n";

const macOf = (key: Buffer, facts: readonly bigint[]) => createHmac("sha256", key).update(facts.map((f) => f.toString(16)).join(",")).digest();

export function sandboxProof(key: Buffer, facts: readonly bigint[], padBytes = 2048): string {
  return Buffer.concat([Buffer.from(HEADER, "ascii"), macOf(key, facts), randomBytes(padBytes)]).toString("base64");
}

export function sandboxProofValid(key: Buffer, facts: readonly bigint[], proof: string): boolean {
  let bytes: Buffer;
  try {
    bytes = Buffer.from(proof, "base64");
  } catch {
    return false;
  }
  const head = Buffer.from(HEADER, "ascii");
  if (bytes.length < head.length + 32 || !bytes.subarray(0, head.length).equals(head)) return false;
  return timingSafeEqual(bytes.subarray(head.length, head.length + 32), macOf(key, facts));
}
