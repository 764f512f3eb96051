/**
 * How the sandbox ledger is kept on disk (src/lib/journal.ts): a snapshot file (`ARBSOL01`, the length of
 * the tables' JSON, the tables, then litesvm's own snapshot bytes) plus a journal of one line per state
 * change holding what it changed: the post-state of the accounts the transaction could write, the landed
 * transaction's record, and the slot, clock and blockhash after it. Replaying a line sets those accounts
 * and advances the slot exactly as the live ledger did; the blockhash litesvm derives from the previous one
 * must then equal the recorded one, else the journal does not belong to this snapshot and opening fails.
 */
import { readFileSync } from "node:fs";
import { lamports, type Address, type EncodedAccount, type MaybeEncodedAccount, type Transaction } from "@solana/kit";
import { decodeLookupTable } from "../spl";
import type { TxErrorJson } from "./errors";
import type { LandedTx } from "./ledger";
import { base58FromBytes, compiledMessage } from "./wire";

const MAGIC = Buffer.from("ARBSOL01");
const SYSTEM_PROGRAM = "11111111111111111111111111111111";

type LandedTxJson = Omit<LandedTx, "slot" | "fee" | "preBalances" | "postBalances" | "unitsConsumed"> & { slot: string; fee: string; preBalances: string[]; postBalances: string[]; unitsConsumed: string };

export interface PersistedTables {
  v: 1;
  genesisHash: string;
  blockhashes: [string, string][];
  statuses: [string, string, TxErrorJson | null][];
  history: LandedTxJson[];
  /** The last journal entry the snapshot includes (absent in files from before the journal: 0). */
  journalSeq?: number;
}

export interface AccountJson {
  address: string;
  owner: string;
  lamports: string;
  executable: boolean;
  /** base64 */
  data: string;
}

export interface LedgerEntry {
  accounts: AccountJson[];
  landed?: LandedTxJson;
  slot: string;
  unixTimestamp: string;
  blockhash: string;
}

export function encodeSnapshot(tables: PersistedTables, svmBytes: Uint8Array): Buffer {
  const json = Buffer.from(JSON.stringify(tables));
  const len = Buffer.alloc(4);
  len.writeUInt32LE(json.length);
  return Buffer.concat([MAGIC, len, json, svmBytes]);
}

export function readSnapshot(file: string): { tables: PersistedTables; snapshot: Uint8Array; bytes: number } {
  const buf = readFileSync(file);
  if (!buf.subarray(0, MAGIC.length).equals(MAGIC)) throw new Error(`${file} is not an Arbiter Solana sandbox snapshot`);
  const len = buf.readUInt32LE(MAGIC.length);
  const start = MAGIC.length + 4;
  const tables = JSON.parse(buf.subarray(start, start + len).toString("utf8")) as PersistedTables;
  return { tables, snapshot: new Uint8Array(buf.subarray(start + len)), bytes: buf.length };
}

export function landedToJson(h: LandedTx): LandedTxJson {
  return { ...h, slot: h.slot.toString(), fee: h.fee.toString(), preBalances: h.preBalances.map(String), postBalances: h.postBalances.map(String), unitsConsumed: h.unitsConsumed.toString() };
}

export function landedFromJson(h: LandedTxJson): LandedTx {
  return { ...h, slot: BigInt(h.slot), fee: BigInt(h.fee), preBalances: h.preBalances.map(BigInt), postBalances: h.postBalances.map(BigInt), unitsConsumed: BigInt(h.unitsConsumed) };
}

/** An account as it is now; a missing one is written back as an empty system account holding nothing. */
export function accountToJson(address: string, a: MaybeEncodedAccount): AccountJson {
  if (!a.exists) return { address, owner: SYSTEM_PROGRAM, lamports: "0", executable: false, data: "" };
  return { address, owner: String(a.programAddress), lamports: BigInt(a.lamports).toString(), executable: a.executable, data: Buffer.from(a.data).toString("base64") };
}

export function accountFromJson(j: AccountJson): EncodedAccount {
  const data = new Uint8Array(Buffer.from(j.data, "base64"));
  return { address: j.address as Address, programAddress: j.owner as Address, executable: j.executable, lamports: lamports(BigInt(j.lamports)), data, space: BigInt(data.length) } as unknown as EncodedAccount;
}

/**
 * Every account `tx` may write: its writable static keys and the writable entries of its address lookup
 * tables (read from the tables as they are now: a transaction cannot change a table it loads from).
 * Read-only accounts (programs among them, whose data can be large) are unchanged by definition.
 */
export function writableAccounts(tx: Transaction, getAccount: (a: Address) => MaybeEncodedAccount): string[] {
  const m = compiledMessage(tx);
  const { numSignerAccounts: signers, numReadonlySignerAccounts: roSigners, numReadonlyNonSignerAccounts: roOthers } = m.header;
  const n = m.staticAccounts.length;
  const out = m.staticAccounts.filter((_, i) => (i < signers ? i < signers - roSigners : i < n - roOthers)).map(String);
  for (const l of m.addressTableLookups ?? []) {
    const table = getAccount(l.lookupTableAddress as Address);
    const state = table.exists ? decodeLookupTable(String(table.programAddress), table.data as Uint8Array, (b) => base58FromBytes.decode(b)) : null;
    for (const i of l.writableIndexes) {
      const a = state?.addresses[i];
      if (a) out.push(a);
    }
  }
  return out;
}
