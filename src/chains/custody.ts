/**
 * Custody, split per key family. One envelope encryption (src/wallets/custody/envelope.ts: AES-256-GCM,
 * a DEK per key, wrapped by the master key) holds every family's secret; a family signer
 * (src/chains/<family>) turns the secret into a key only for the length of one signature.
 *
 *   KeyVault (wallets/custody, envelope)  seals and opens secrets, knows nothing of curves
 *   CustodySigner (chains/<family>)       secp256k1 (EVM), ed25519 (Solana), Stark (Starknet)
 *
 * Invariants every family signer keeps:
 * - A secret is opened only inside a signing call, used once, zeroed after, and never logged, returned
 *   or stored in plain text.
 * - The envelope's additional authenticated data binds the wallet id and the address (the family builds
 *   it, see `aad`), so an envelope copied onto another wallet row fails to open.
 * - The signer signs only what the service built or decoded itself (a transaction, an EIP-7702
 *   authorization, the typed data of a payment it composed), never caller-chosen bytes or hashes.
 * - Opening checks the key against the wallet's address and refuses a mismatch.
 */
import type { KeyFamily } from "./types";

/** What a custodian needs to find a wallet's key: the wallet id and address plus its stored reference. */
export interface KeyHandle {
  walletId: string;
  address: string;
  /** Opaque to the core: for the local keystore, the JSON envelope. */
  keyRef: string;
}

/**
 * Secret storage behind the envelope encryption, shared by all key families. Implemented over the
 * master key in src/wallets/custody/vault.ts.
 */
export interface KeyVault {
  /** Fingerprint of the master key envelopes are sealed with now. */
  readonly kid: string;
  /** Seals a secret (the caller zeroes its copy); returns the keyRef stored on the wallet row. */
  seal(secret: Uint8Array, aad: string): string;
  /** Opens a keyRef for the duration of `use`, zeroing the secret afterwards. Throws on a wrong master key or AAD. */
  open<T>(keyRef: string, aad: string, use: (secret: Uint8Array) => Promise<T>): Promise<T>;
  /** Whether this vault's master key sealed the keyRef (a cheap check; no decryption). */
  canOpen(keyRef: string): boolean;
}

/**
 * The neutral face of a family's custody signer: what wallet creation and the pipeline's "can the service
 * sign now" decision need. Each family extends it with its own signing methods (used only inside that
 * family's adapter), so the core never sees a curve, a transaction format or a private key.
 */
export interface CustodySigner {
  readonly keyFamily: KeyFamily;
  /** Shown as the wallet's `provider`. */
  readonly provider: string;
  /** Whether the custodian itself refuses limit violations (SPEC 2.5 `enforcement`: signer vs service). */
  readonly enforcesLimits: boolean;
  /** New key for a wallet; returns the canonical address it controls and the keyRef to store. */
  createKey(walletId: string): Promise<{ address: string; keyRef: string }>;
  /** Whether this signer can sign for the wallet right now (key present and openable). No decryption. */
  canSign(h: KeyHandle): boolean;
}
