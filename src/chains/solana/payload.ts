/**
 * Solana payloads: the canonical intent a wallet signs, stored on the proposal, hashed into its
 * requestHash. No blockhash, no signature: those are chosen at signing (a held proposal re-signed an
 * hour later keeps its requestHash; an edited payload does not).
 *
 * - `transfer`: a named asset (SOL or a known mint), amount in base units, recipient owner. At signing it
 *   becomes a System transfer, or CreateAssociatedTokenIdempotent (the recipient's ATA, paid by the
 *   wallet when missing) + TransferChecked.
 * - `solana_transaction`: the decoded instructions of a caller's transaction (program, account metas with
 *   roles, data), its version and the lookup-table entries it used, pinned (table, index, address). At
 *   signing the message is rebuilt with the wallet as fee payer and a fresh blockhash; the pinned entries
 *   must still be what the tables hold, or the transaction is refused.
 */
import {
  AccountRole,
  appendTransactionMessageInstructions,
  compileTransaction,
  compressTransactionMessageUsingAddressLookupTables,
  createNoopSigner,
  createTransactionMessage,
  getTransactionEncoder,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Address,
  type Blockhash,
  type Instruction,
  type Transaction,
} from "@solana/kit";
import { getTransferSolInstruction } from "@solana-program/system";
import { findAssociatedTokenPda, getCreateAssociatedTokenIdempotentInstruction, getTransferCheckedInstruction, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { keccakCanonical } from "../../lib/hashing";
import { NATIVE, type ChainPayload } from "../types";
import { MEMO_PROGRAM } from "./spl";

export interface SolanaTransferPayload extends ChainPayload {
  v: 1;
  kind: "transfer";
  from: string;
  /** NATIVE or the mint. */
  asset: string;
  decimals: number;
  /** Base units. */
  amount: string;
  /** Recipient owner (for SPL, the owner of the destination ATA). */
  to: string;
}

export interface PayloadInstruction {
  programAddress: string;
  accounts: { address: string; role: 0 | 1 | 2 | 3 }[];
  /** base64 */
  data: string;
}

export interface PinnedLookup {
  table: string;
  /** Every index the transaction used, with the address the table held at planning. */
  entries: { index: number; address: string }[];
}

export interface SolanaTxPayload extends ChainPayload {
  v: 1;
  kind: "solana_transaction";
  from: string;
  version: "legacy" | 0;
  instructions: PayloadInstruction[];
  lookups: PinnedLookup[];
}

export type SolanaPayload = SolanaTransferPayload | SolanaTxPayload;

export const requestHashOf = (p: SolanaPayload): string => keccakCanonical(p);

const encoder = getTransactionEncoder();

/** The instructions a payload executes (the transfer's are derived from its intent). */
export async function instructionsOf(p: SolanaPayload): Promise<Instruction[]> {
  if (p.kind === "solana_transaction") {
    return p.instructions.map((i) => ({
      programAddress: i.programAddress as Address,
      accounts: i.accounts.map((a) => ({ address: a.address as Address, role: a.role as unknown as AccountRole })),
      data: new Uint8Array(Buffer.from(i.data, "base64")),
    }));
  }
  const wallet = createNoopSigner(p.from as Address);
  const amount = BigInt(p.amount);
  if (p.asset === NATIVE) return [getTransferSolInstruction({ source: wallet, destination: p.to as Address, amount })];
  const mint = p.asset as Address;
  const [source] = await findAssociatedTokenPda({ owner: p.from as Address, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  const [destination] = await findAssociatedTokenPda({ owner: p.to as Address, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  return [
    getCreateAssociatedTokenIdempotentInstruction({ payer: wallet, ata: destination, owner: p.to as Address, mint }),
    getTransferCheckedInstruction({ source, mint, destination, authority: wallet, amount, decimals: p.decimals }),
  ];
}

export interface BuiltMessage {
  /** Unsigned transaction (the wallet's signature slot empty). */
  tx: Transaction;
  /** Wire form with a zero signature, base64 (for simulateTransaction with sigVerify false). */
  unsignedWire: string;
  /** Every account the transaction may write, the wallet first. */
  writable: string[];
  blockhash: string;
  lastValidBlockHeight: bigint;
}

/**
 * Compiles the payload into a message with the wallet as fee payer and the given blockhash. For v0
 * transactions with lookups, `tables` are the tables' current address lists (checked against the pins by
 * the caller).
 */
export async function buildMessage(p: SolanaPayload, lifetime: { blockhash: string; lastValidBlockHeight: bigint }, tables: Record<string, string[]> = {}, memo?: string): Promise<BuiltMessage> {
  const ixs = await instructionsOf(p);
  if (memo !== undefined) ixs.push({ programAddress: MEMO_PROGRAM as Address, accounts: [], data: new TextEncoder().encode(memo) });
  const version = p.kind === "solana_transaction" ? p.version : 0;
  let msg = pipe(
    createTransactionMessage({ version }),
    (m) => setTransactionMessageFeePayer(p.from as Address, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: lifetime.blockhash as Blockhash, lastValidBlockHeight: lifetime.lastValidBlockHeight }, m),
    (m) => appendTransactionMessageInstructions(ixs, m),
  );
  if (version === 0 && Object.keys(tables).length) {
    msg = compressTransactionMessageUsingAddressLookupTables(msg as never, tables as never) as typeof msg;
  }
  const tx = compileTransaction(msg as never) as Transaction;
  const writable = new Set<string>([p.from]);
  for (const ix of ixs) for (const a of ix.accounts ?? []) if ((a.role as number) & 1) writable.add(a.address);
  return { tx, unsignedWire: Buffer.from(encoder.encode(tx)).toString("base64"), writable: [...writable], blockhash: lifetime.blockhash, lastValidBlockHeight: lifetime.lastValidBlockHeight };
}

/** Wire bytes with the wallet's signature in place (the only signer this service ever provides). */
export function withSignature(tx: Transaction, signer: string, signature: Uint8Array): Uint8Array {
  return new Uint8Array(encoder.encode({ ...tx, signatures: { ...tx.signatures, [signer]: signature } } as Transaction));
}
