import { secretToken } from "../lib/ids";
import { sha256Hex } from "../lib/hashing";

/** `svc_sk_live_` + 256 random bits. Only the SHA-256 hash is stored; the secret is shown once. */
export const API_KEY_PREFIX = "svc_sk_live_";
export const API_KEY_RE = /^svc_sk_live_[A-Za-z0-9_-]{43}$/;

export function generateApiKey(): { apiKey: string; hash: string; prefix: string } {
  const apiKey = `${API_KEY_PREFIX}${secretToken(256)}`;
  return { apiKey, hash: hashSecret(apiKey), prefix: apiKey.slice(0, API_KEY_PREFIX.length + 6) };
}

/**
 * Secrets with 256 bits of entropy need no slow hash: SHA-256 is preimage-resistant at that size, and a
 * fast hash keeps per-request authentication cheap. Lookup is by hash, so no secret is ever compared.
 */
export const hashSecret = (secret: string): string => sha256Hex(secret);
