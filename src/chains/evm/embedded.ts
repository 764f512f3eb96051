/**
 * The EVM side of self-custodial (embedded) wallets: Sign-In with Ethereum (EIP-4361) to prove the owner
 * controls an address, and checking that the transaction the owner's browser wallet sent is exactly the
 * recorded proposal. The orchestration (challenges, locks, state changes) lives in
 * src/wallets/custody/embedded-*.ts, which never touch viem themselves (docs/architecture.md).
 */
import { getAddress, isAddress, toHex, type Address, type Hex, type Transaction } from "viem";
import { createSiweMessage, parseSiweMessage, verifySiweMessage } from "viem/siwe";
import type { EvmChain } from "./chain";
import type { EvmPayload } from "./plan";

export type { Address, Hex, Transaction };

/** The checksummed form of an account address a browser wallet returned, or null when it is not one. */
export const walletAccountAddress = (raw: unknown): Address | null => (typeof raw === "string" && isAddress(raw, { strict: false }) ? getAddress(raw.toLowerCase()) : null);

export interface SiweFields {
  domain: string;
  scheme: string;
  address: Address;
  statement: string;
  uri: string;
  chainId: number;
  nonce: string;
  issuedAt: Date;
  expirationTime: Date;
}

export const siweMessage = (f: SiweFields): string => createSiweMessage({ ...f, version: "1" });

export type ParsedSiwe = ReturnType<typeof parseSiweMessage>;
export const parseSiwe = (message: string): ParsedSiwe => parseSiweMessage(message);

/** The signature verifies for `address` (EOA, and also ERC-1271/6492 as viem checks them); false on any error. */
export async function verifySiwe(chain: EvmChain, o: { message: string; signature: string; domain: string; nonce: string; address: Address; scheme: string; time: Date }): Promise<boolean> {
  return verifySiweMessage(chain.client, { ...o, signature: o.signature as Hex }).catch(() => false);
}

/** An externally owned account: no code, or only an EIP-7702 delegation designator (0xef0100...). */
export async function isExternallyOwned(chain: EvmChain, address: Address): Promise<boolean> {
  const code = ((await chain.client.getCode({ address })) ?? "0x").toLowerCase();
  return code === "0x" || code.startsWith("0xef0100");
}

export interface WalletTransaction {
  from: Address;
  to: Address;
  /** 0x hex, as EIP-1193 eth_sendTransaction takes it. */
  value: Hex;
  data: Hex;
  chainId: Hex;
}

/** The exact transaction the owner's wallet is asked to send for a recorded payload. */
export const walletTransactionOf = (payload: EvmPayload): WalletTransaction => ({ from: payload.from, to: payload.to, value: toHex(BigInt(payload.value)), data: payload.data, chainId: toHex(payload.chainId) });

/** The account's next nonce counting pending transactions: no older transaction can be the confirmation. */
export const pendingNonce = (chain: EvmChain, address: Address): Promise<number> => chain.client.getTransactionCount({ address, blockTag: "pending" });

/** Why `tx` is not the recorded payload sent from the wallet, or null when it is. */
export function mismatch(tx: Transaction, payload: EvmPayload, wallet: string, minNonce: number): string | null {
  if (tx.from.toLowerCase() !== wallet.toLowerCase()) return `it was sent from ${tx.from}, not from this wallet`;
  if (!tx.to || tx.to.toLowerCase() !== payload.to.toLowerCase()) return `it goes to ${tx.to ?? "a new contract"}, not ${payload.to}`;
  if (tx.value !== BigInt(payload.value)) return `its value is ${tx.value} wei, not ${payload.value}`;
  if (tx.input.toLowerCase() !== payload.data.toLowerCase()) return "its data differs from the proposal's";
  if (tx.chainId !== payload.chainId) return `it is for chain ${tx.chainId ?? "unknown"}, not ${payload.chainId}`;
  if ("authorizationList" in tx && tx.authorizationList && tx.authorizationList.length > 0) return "it carries an EIP-7702 authorization";
  if (tx.nonce < minNonce) return "it was sent before this confirmation";
  return null;
}

/** The transaction by hash, polling until `timeoutMs` (a wallet may report the hash before the node has it). */
export async function fetchTransaction(chain: EvmChain, hash: Hex, timeoutMs: number): Promise<Transaction | null> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const tx = await chain.client.getTransaction({ hash }).catch(() => null);
    if (tx) return tx;
    if (Date.now() >= deadline) return null;
    await new Promise((r) => setTimeout(r, chain.sandbox ? 100 : 1000));
  }
}
