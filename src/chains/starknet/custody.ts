/**
 * Stark-key custody over the shared envelope vault. A wallet's key is a random scalar of the Stark
 * curve; its address is the counterfactual OpenZeppelin account address for that key. The stored keyRef
 * holds the sealed secret and, in clear, the public key (public by definition: it is the account's
 * constructor argument), so the service can deploy or simulate the account without opening the secret.
 *
 * The signer signs only transaction hashes the adapter computed itself from a payload it built; there
 * is no method that signs caller-chosen bytes.
 */
import { randomBytes } from "node:crypto";
import { ec } from "starknet";
import type { CustodySigner, KeyHandle, KeyVault } from "../custody";
import { OZ_ACCOUNT_CLASS_HASH } from "./constants";
import { normaliseAddress, toAddress } from "./felt";
import { contractAddress } from "./tx-hash";
import { viewingKeyMessageHash } from "./strk20/viewing-key";

const CURVE_ORDER = ec.starkCurve.CURVE.n;

interface StarkKeyRef {
  family: "stark";
  v: 1;
  publicKey: string;
  sealed: string;
}

export interface StarkCustodySigner extends CustodySigner {
  readonly keyFamily: "stark";
  /** The account's public key, read from the keyRef without decryption. */
  publicKeyOf(keyRef: string): string;
  /** Signs a transaction hash the adapter computed; returns [r, s] as 0x-hex. Checks the key against the address. */
  signTxHash(h: KeyHandle, txHash: bigint): Promise<[string, string]>;
  /**
   * Signs the one fixed STRK20 viewing-key derivation message of this chain and pool (strk20/viewing-key.ts);
   * the message is computed here from those two values, never taken from a caller.
   */
  signViewingKeyDerivation(h: KeyHandle, chainId: bigint, pool: string): Promise<[string, string]>;
}

export const starkAad = (walletId: string, address: string) => `arbiter.wallet-key.v1|stark|${walletId}|${normaliseAddress(address)}`;

export function accountAddressFor(publicKey: bigint): string {
  return toAddress(contractAddress(publicKey, BigInt(OZ_ACCOUNT_CLASS_HASH), [publicKey]));
}

function parseRef(keyRef: string): StarkKeyRef {
  const r = JSON.parse(keyRef) as StarkKeyRef;
  if (r.family !== "stark" || r.v !== 1 || typeof r.publicKey !== "string" || typeof r.sealed !== "string") throw new Error("not a Stark key reference");
  return r;
}

function randomScalar(): Uint8Array {
  for (;;) {
    const b = randomBytes(32);
    const x = BigInt("0x" + b.toString("hex"));
    if (x > 0n && x < CURVE_ORDER) return b;
    b.fill(0);
  }
}

const hexOf = (secret: Uint8Array) => "0x" + Buffer.from(secret).toString("hex");

export function createStarkSigner(vault: KeyVault, provider = "arbiter-keystore"): StarkCustodySigner {
  return {
    keyFamily: "stark",
    provider,
    enforcesLimits: false,
    async createKey(walletId) {
      const secret = randomScalar();
      try {
        const publicKey = ec.starkCurve.getStarkKey(hexOf(secret));
        const address = accountAddressFor(BigInt(publicKey));
        const sealed = vault.seal(secret, starkAad(walletId, address));
        const ref: StarkKeyRef = { family: "stark", v: 1, publicKey: "0x" + BigInt(publicKey).toString(16), sealed };
        return { address, keyRef: JSON.stringify(ref) };
      } finally {
        secret.fill(0);
      }
    },
    canSign(h) {
      try {
        return vault.canOpen(parseRef(h.keyRef).sealed);
      } catch {
        return false;
      }
    },
    publicKeyOf(keyRef) {
      return parseRef(keyRef).publicKey;
    },
    signViewingKeyDerivation(h, chainId, pool) {
      return this.signTxHash(h, viewingKeyMessageHash(chainId, pool));
    },
    async signTxHash(h, txHash) {
      const ref = parseRef(h.keyRef);
      return vault.open(ref.sealed, starkAad(h.walletId, h.address), async (secret) => {
        const pk = hexOf(secret);
        const pub = BigInt(ec.starkCurve.getStarkKey(pk));
        if (pub !== BigInt(ref.publicKey) || accountAddressFor(pub) !== normaliseAddress(h.address)) {
          throw new Error("stored Stark key does not match the wallet address");
        }
        const sig = ec.starkCurve.sign("0x" + txHash.toString(16), pk);
        return ["0x" + sig.r.toString(16), "0x" + sig.s.toString(16)];
      });
    },
  };
}
