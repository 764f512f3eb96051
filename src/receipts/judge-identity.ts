/**
 * The judge's published identity: `GET /.well-known/arbiter-judge.json` (docs/receipts.md).
 *
 *   { "version": 1, "keys": [ { "address", "validFrom", "validUntil", "rotation"? } ] }
 *
 * Keys are listed oldest first; `validFrom` / `validUntil` are ISO-8601 UTC timestamps in whole seconds
 * (`validUntil` null for the current key). Every key after the first carries `rotation`:
 * `{ previous, signature }`, the EIP-712 signature by the PREVIOUS key over
 *
 *   domain      = { name: "Arbiter Judge", version: "1" }          (the receipt domain)
 *   KeyRotation = { address previous; address next; uint64 validFrom }   (validFrom in Unix seconds)
 *
 * so a verifier that pinned an older key (or an older copy of this document) can accept the new key without
 * trusting the server that serves the document: trust flows only along signed links. A link that is missing
 * or does not verify ends the chain; keys after it are not trusted (a key replaced without a signed rotation
 * must be pinned afresh, out of band).
 */
import { isAddressEqual, recoverTypedDataAddress, type Hex, type LocalAccount } from "viem";
import { z } from "zod";
import { RECEIPT_DOMAIN } from "./sign";

export const KEY_ROTATION_TYPES = {
  KeyRotation: [
    { name: "previous", type: "address" },
    { name: "next", type: "address" },
    { name: "validFrom", type: "uint64" },
  ],
} as const;

const ADDRESS = z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x address");
const ISO = z.string().refine((s) => !Number.isNaN(Date.parse(s)), "must be an ISO-8601 timestamp");

export const JudgeKeyEntry = z.object({
  address: ADDRESS,
  validFrom: ISO,
  validUntil: ISO.nullable(),
  rotation: z.object({ previous: ADDRESS, signature: z.string().regex(/^0x[0-9a-fA-F]{130}$/, "must be a 65-byte signature") }).nullable().optional(),
});
export type JudgeKeyEntry = z.infer<typeof JudgeKeyEntry>;

export const JudgeDocument = z.object({
  version: z.literal(1).optional(),
  keys: z.array(JudgeKeyEntry).min(1, "keys must not be empty"),
});
export type JudgeDocument = z.infer<typeof JudgeDocument>;

/** Whole seconds, so the ISO form and the signed Unix seconds say the same instant. */
export const isoSeconds = (d: Date): string => new Date(Math.floor(d.getTime() / 1000) * 1000).toISOString();
const unixSeconds = (iso: string): bigint => BigInt(Math.floor(Date.parse(iso) / 1000));

export function rotationTypedData(previous: Hex, next: Hex, validFrom: string) {
  return {
    domain: RECEIPT_DOMAIN,
    types: KEY_ROTATION_TYPES,
    primaryType: "KeyRotation" as const,
    message: { previous, next, validFrom: unixSeconds(validFrom) },
  };
}

/**
 * The entry of `next`, signed by the previous key, and the previous entry closed at the same instant.
 * The caller replaces the last entry of the document with `closedPrevious` and appends `entry`.
 */
export async function signRotation(previous: LocalAccount, previousEntry: JudgeKeyEntry, next: Hex, at: Date): Promise<{ closedPrevious: JudgeKeyEntry; entry: JudgeKeyEntry }> {
  if (!isAddressEqual(previous.address, previousEntry.address as Hex)) throw new Error("the previous key is not the document's current key");
  const validFrom = isoSeconds(at);
  if (Date.parse(validFrom) <= Date.parse(previousEntry.validFrom)) throw new Error("a rotation must start after the previous key's validFrom");
  const signature = await previous.signTypedData(rotationTypedData(previous.address, next, validFrom));
  return {
    closedPrevious: { ...previousEntry, validUntil: validFrom },
    entry: { address: next, validFrom, validUntil: null, rotation: { previous: previous.address, signature } },
  };
}

export interface TrustedKey {
  address: Hex;
  validFrom: string;
  validUntil: string | null;
}

/**
 * The keys of `doc` a verifier may trust, given what it pinned: `pinned` addresses (the first of which must
 * appear in the document) or, when none is given, the document's first key. Trust starts at the earliest
 * pinned key present and extends to each following key whose rotation is signed by its predecessor.
 * `problems` explains where the chain stopped, if it did.
 */
export async function trustedKeys(doc: JudgeDocument, pinned: string[] = []): Promise<{ keys: TrustedKey[]; problems: string[] }> {
  const problems: string[] = [];
  const keys = doc.keys;
  let start = 0;
  if (pinned.length > 0) {
    start = keys.findIndex((k) => pinned.some((p) => p.toLowerCase() === k.address.toLowerCase()));
    if (start < 0) return { keys: [], problems: ["none of the pinned judge addresses is in the document"] };
  }
  const trusted: TrustedKey[] = [{ address: keys[start].address as Hex, validFrom: keys[start].validFrom, validUntil: keys[start].validUntil }];
  for (let i = start + 1; i < keys.length; i++) {
    const prev = keys[i - 1];
    const k = keys[i];
    const link = await rotationProblem(prev, k);
    if (link) {
      problems.push(`key ${k.address} is not trusted: ${link}`);
      break;
    }
    trusted.push({ address: k.address as Hex, validFrom: k.validFrom, validUntil: k.validUntil });
  }
  return { keys: trusted, problems };
}

async function rotationProblem(prev: JudgeKeyEntry, k: JudgeKeyEntry): Promise<string | null> {
  if (!k.rotation) return "its rotation is not signed by the previous key";
  if (k.rotation.previous.toLowerCase() !== prev.address.toLowerCase()) return "its rotation names another previous key";
  if (prev.validUntil === null || Date.parse(prev.validUntil) !== Date.parse(k.validFrom)) return "the previous key's validUntil is not this key's validFrom";
  try {
    const signer = await recoverTypedDataAddress({ ...rotationTypedData(prev.address as Hex, k.address as Hex, k.validFrom), signature: k.rotation.signature as Hex });
    if (!isAddressEqual(signer, prev.address as Hex)) return "its rotation signature was not made by the previous key";
  } catch {
    return "its rotation signature cannot be recovered";
  }
  return null;
}

/** Whether `at` falls in the key's validity period [validFrom, validUntil). */
export function withinValidity(key: TrustedKey, at: Date): boolean {
  const t = at.getTime();
  return t >= Date.parse(key.validFrom) && (key.validUntil === null || t < Date.parse(key.validUntil));
}
