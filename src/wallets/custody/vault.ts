/**
 * The envelope encryption as the key families see it (src/chains/custody.ts `KeyVault`): one master key
 * seals every family's secret (secp256k1, ed25519 and Stark keys alike) in a JSON envelope stored as the
 * wallet's key_ref. The family builds the additional authenticated data (wallet id and address).
 */
import type { KeyVault } from "../../chains/custody";
import type { Envelope, MasterKey } from "./envelope";

export function envelopeVault(masterKey: MasterKey): KeyVault {
  return {
    kid: masterKey.kid,
    seal: (secret, aad) => JSON.stringify(masterKey.wrap(secret, aad)),
    async open(keyRef, aad, use) {
      const secret = masterKey.unwrap(JSON.parse(keyRef) as Envelope, aad);
      try {
        return await use(secret);
      } finally {
        secret.fill(0);
      }
    },
    canOpen(keyRef) {
      try {
        return (JSON.parse(keyRef) as Envelope).kid === masterKey.kid;
      } catch {
        return false;
      }
    },
  };
}
