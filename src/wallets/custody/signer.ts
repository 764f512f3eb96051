/**
 * The custody port: who holds a wallet's key and signs for it. The services only ever see this
 * interface, so an external custodian (an HSM, an MPC provider) can replace the local keystore without
 * touching the pipeline. Only the local keystore exists today; nothing here pretends otherwise.
 *
 * Invariant: a private key is decrypted only inside `signTransaction` / `signAuthorization` /
 * `signTypedData`, used once,
 * and never logged, returned or stored in plain text.
 */
import { randomBytes } from "node:crypto";
import { bytesToHex, type Address, type Hex, type SignedAuthorization, type TransactionSerializable, type TypedDataDefinition } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { MasterKey, type Envelope } from "./envelope";
import type { KeyHandle } from "../../chains/custody";

export type { KeyHandle };

export interface WalletSigner {
  /** Shown as the wallet's `provider`. */
  readonly provider: string;
  /** Who refuses a limit violation when this signer holds the key: the service (local keystore) or the custodian. */
  readonly enforcesLimits: boolean;
  createKey(walletId: string): Promise<{ address: Address; keyRef: string }>;
  /** Whether this signer can sign for the wallet right now (key present and openable). */
  canSign(h: KeyHandle): boolean;
  signTransaction(h: KeyHandle, tx: TransactionSerializable): Promise<Hex>;
  /** EIP-7702 authorization (delegation of the wallet's account to `contractAddress`). */
  signAuthorization(h: KeyHandle, a: { contractAddress: Address; chainId: number; nonce: number }): Promise<SignedAuthorization>;
  /**
   * EIP-712 typed data (x402 payments: an EIP-3009 TransferWithAuthorization). Optional: a custodian
   * without it cannot make x402 payments (the proposal waits for the owner instead).
   */
  signTypedData?(h: KeyHandle, typedData: TypedDataDefinition): Promise<Hex>;
}

const aadFor = (walletId: string, address: string) => `arbiter.wallet-key.v1|${walletId}|${address.toLowerCase()}`;

export function createLocalKeystoreSigner(masterKey: MasterKey): WalletSigner {
  const withAccount = async <T>(h: KeyHandle, fn: (account: ReturnType<typeof privateKeyToAccount>) => Promise<T>): Promise<T> => {
    const secret = masterKey.unwrap(JSON.parse(h.keyRef) as Envelope, aadFor(h.walletId, h.address));
    try {
      const account = privateKeyToAccount(bytesToHex(secret));
      if (account.address.toLowerCase() !== h.address.toLowerCase()) throw new Error("stored key does not match the wallet address");
      return await fn(account);
    } finally {
      secret.fill(0);
    }
  };
  return {
    provider: "arbiter-keystore",
    enforcesLimits: false,
    async createKey(walletId) {
      const secret = randomBytes(32);
      try {
        const address = privateKeyToAccount(bytesToHex(secret)).address;
        const envelope = masterKey.wrap(secret, aadFor(walletId, address));
        return { address, keyRef: JSON.stringify(envelope) };
      } finally {
        secret.fill(0);
      }
    },
    canSign(h) {
      try {
        return (JSON.parse(h.keyRef) as Envelope).kid === masterKey.kid;
      } catch {
        return false;
      }
    },
    signTransaction: (h, tx) => withAccount(h, (a) => a.signTransaction(tx)),
    signAuthorization: (h, auth) => withAccount(h, (a) => a.signAuthorization({ address: auth.contractAddress, chainId: auth.chainId, nonce: auth.nonce })),
    signTypedData: (h, typedData) => withAccount(h, (a) => a.signTypedData(typedData)),
  };
}
