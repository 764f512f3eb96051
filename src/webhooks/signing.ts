import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import type { Envelope, MasterKey } from "../wallets/custody/envelope";

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): `webhook-id`, `webhook-timestamp` (unix
 * seconds) and `webhook-signature` = space-separated `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, one per
 * live secret (the new one, and the old one for a day after a rotation). Secrets are `whsec_` + base64 of 32
 * random bytes, sealed at rest with the master key and bound to their endpoint id.
 */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

const aad = (endpointId: string) => `webhook-secret:${endpointId}`;

export function sealSecret(master: MasterKey, endpointId: string, secret: string): Envelope {
  return master.wrap(Buffer.from(secret, "utf8"), aad(endpointId));
}

export function openSecret(master: MasterKey, endpointId: string, env: Envelope): string {
  return master.unwrap(env, aad(endpointId)).toString("utf8");
}

export function signatureHeaders(msgId: string, at: Date, body: string, secrets: readonly string[]): Record<string, string> {
  return {
    "webhook-id": msgId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": secrets.map((s) => new Webhook(s).sign(msgId, at, body)).join(" "),
  };
}
