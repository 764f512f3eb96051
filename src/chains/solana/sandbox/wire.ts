/** Reading a wire transaction: decoding, its signature, compiled message, static keys and fee; base58. */
import { getBase58Decoder, getBase58Encoder, getCompiledTransactionMessageDecoder, getTransactionDecoder, type Transaction } from "@solana/kit";
import { estimateFeeOfMessage } from "../fees";

const b58enc = getBase58Decoder(); // bytes -> string
const b58dec = getBase58Encoder(); // string -> bytes
const txDecoder = getTransactionDecoder();
const messageDecoder = getCompiledTransactionMessageDecoder();

export interface CompiledMessageLike {
  header: { numSignerAccounts: number; numReadonlySignerAccounts: number; numReadonlyNonSignerAccounts: number };
  staticAccounts: string[];
  lifetimeToken: string;
  instructions: { programAddressIndex: number; accountIndices?: number[]; data?: Uint8Array }[];
  addressTableLookups?: { lookupTableAddress: string; writableIndexes: number[]; readonlyIndexes: number[] }[];
}

export function decodeWire(wire: Uint8Array): Transaction {
  return txDecoder.decode(wire) as Transaction;
}

export function firstSignature(tx: Transaction): string {
  const first = Object.values(tx.signatures)[0];
  return first ? b58enc.decode(first) : "1111111111111111111111111111111111111111111111111111111111111111";
}

export function compiledMessage(tx: Transaction): CompiledMessageLike {
  return messageDecoder.decode(tx.messageBytes) as unknown as CompiledMessageLike;
}

/** Static account keys (lookup-table keys are not part of the history's key list here). */
export function accountKeysOf(tx: Transaction): string[] {
  return compiledMessage(tx).staticAccounts.map(String);
}

/** 5000 lamports per signature plus the priority fee (see ../fees.ts). */
export function estimateFee(tx: Transaction): bigint {
  return estimateFeeOfMessage(tx.messageBytes as unknown as Uint8Array);
}

export { b58enc as base58FromBytes, b58dec as base58ToBytes };
