/**
 * ed25519 custody for Solana wallets over the shared KeyVault (envelope encryption). The stored secret is
 * the 32-byte ed25519 seed; the address is the base58 public key. The seed is opened only inside `sign`,
 * turned into a non-extractable WebCrypto key, used for one signature and zeroed (the vault does that).
 * The signer signs only message bytes the adapter compiled itself (src/chains/solana/send.ts).
 */
import { randomBytes } from "node:crypto";
import { createKeyPairFromPrivateKeyBytes, getAddressFromPublicKey, signBytes } from "@solana/kit";
import type { CustodySigner, KeyHandle, KeyVault } from "../custody";

export interface Ed25519CustodySigner extends CustodySigner {
  /** Signs compiled transaction message bytes for the wallet; refuses when the key is not the wallet's. */
  signMessage(h: KeyHandle, message: Uint8Array): Promise<Uint8Array>;
}

/** Case-sensitive: base58 addresses are bound exactly. */
const aadFor = (walletId: string, address: string) => `arbiter.wallet-key.v1|ed25519|${walletId}|${address}`;

async function addressOf(seed: Uint8Array): Promise<{ address: string; keys: CryptoKeyPair }> {
  const keys = await createKeyPairFromPrivateKeyBytes(seed);
  return { address: await getAddressFromPublicKey(keys.publicKey), keys };
}

export function createEd25519Custody(vault: KeyVault): Ed25519CustodySigner {
  return {
    keyFamily: "ed25519",
    provider: "arbiter-keystore",
    enforcesLimits: false,
    async createKey(walletId) {
      const seed = new Uint8Array(randomBytes(32));
      try {
        const { address } = await addressOf(seed);
        return { address, keyRef: vault.seal(seed, aadFor(walletId, address)) };
      } finally {
        seed.fill(0);
      }
    },
    canSign: (h) => vault.canOpen(h.keyRef),
    signMessage(h, message) {
      return vault.open(h.keyRef, aadFor(h.walletId, h.address), async (seed) => {
        const { address, keys } = await addressOf(seed);
        if (address !== h.address) throw new Error("stored key does not match the wallet address");
        return new Uint8Array(await signBytes(keys.privateKey, message));
      });
    },
  };
}
