/**
 * secp256k1 custody for EVM wallets: the local keystore over the envelope KeyVault (src/chains/custody.ts).
 * An external custodian (an HSM, an MPC provider) would implement the same EvmSigner; only the local
 * keystore exists today.
 *
 * Invariant: a private key is opened only inside signTransaction / signAuthorization / signTypedData,
 * used once, zeroed, and never logged, returned or stored in plain text. The envelope's AAD binds the
 * wallet id and the lower-cased address (the form every existing envelope was sealed with).
 */
import { randomBytes } from "node:crypto";
import { bytesToHex, type Address, type Hex, type SignedAuthorization, type TransactionSerializable, type TypedDataDefinition } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { CustodySigner, KeyHandle, KeyVault } from "../custody";

export type { KeyHandle };

export interface EvmSigner extends CustodySigner {
  readonly keyFamily: "secp256k1";
  createKey(walletId: string): Promise<{ address: Address; keyRef: string }>;
  signTransaction(h: KeyHandle, tx: TransactionSerializable): Promise<Hex>;
  /** EIP-7702 authorization (delegation of the wallet's account to `contractAddress`). */
  signAuthorization(h: KeyHandle, a: { contractAddress: Address; chainId: number; nonce: number }): Promise<SignedAuthorization>;
  /**
   * EIP-712 typed data (x402 payments: an EIP-3009 TransferWithAuthorization the service composed).
   * Optional: a custodian without it cannot make x402 payments (the proposal waits for the owner instead).
   */
  signTypedData?(h: KeyHandle, typedData: TypedDataDefinition): Promise<Hex>;
}

/** @deprecated name kept for the x402 and swap code: the EVM custody signer. */
export type WalletSigner = EvmSigner;

const aadFor = (walletId: string, address: string) => `arbiter.wallet-key.v1|${walletId}|${address.toLowerCase()}`;

export function createEvmKeystoreSigner(vault: KeyVault): EvmSigner {
  const withAccount = <T>(h: KeyHandle, fn: (account: ReturnType<typeof privateKeyToAccount>) => Promise<T>): Promise<T> =>
    vault.open(h.keyRef, aadFor(h.walletId, h.address), async (secret) => {
      const account = privateKeyToAccount(bytesToHex(secret));
      if (account.address.toLowerCase() !== h.address.toLowerCase()) throw new Error("stored key does not match the wallet address");
      return fn(account);
    });
  return {
    keyFamily: "secp256k1",
    provider: "arbiter-keystore",
    enforcesLimits: false,
    async createKey(walletId) {
      const secret = randomBytes(32);
      try {
        const address = privateKeyToAccount(bytesToHex(secret)).address;
        return { address, keyRef: vault.seal(secret, aadFor(walletId, address)) };
      } finally {
        secret.fill(0);
      }
    },
    canSign: (h) => vault.canOpen(h.keyRef),
    signTransaction: (h, tx) => withAccount(h, (a) => a.signTransaction(tx)),
    signAuthorization: (h, auth) => withAccount(h, (a) => a.signAuthorization({ address: auth.contractAddress, chainId: auth.chainId, nonce: auth.nonce })),
    signTypedData: (h, typedData) => withAccount(h, (a) => a.signTypedData(typedData)),
  };
}
