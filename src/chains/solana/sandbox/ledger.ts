/**
 * The sandbox Solana ledger: one litesvm instance plus what a real cluster adds around it and litesvm
 * does not model, so clients see realistic behaviour:
 * - blockhash expiry: litesvm knows exactly one blockhash and never expires it on its own. Here every
 *   landed transaction advances the slot and issues a new blockhash; a blockhash is valid for 150 slots
 *   after the slot it was issued in (Agave's MAX_PROCESSING_AGE), durable-nonce transactions are checked
 *   against the nonce account instead;
 * - signature statuses with the slot a transaction landed in (litesvm's history has no slot);
 * - preflight: a transaction that fails simulation is refused without landing (unless skipPreflight),
 *   pre-execution failures (unknown blockhash, duplicate, unfunded fee payer) never land;
 * - persistence (./persistence.ts, src/lib/journal.ts): after every state change what it changed (the
 *   accounts it could write, its record, the new slot) is appended to a journal and fsynced before the
 *   caller hears the result, so a transaction whose signature anyone saw survives a kill -9 of the process;
 *   the whole state (litesvm snapshot + this file's tables) is rewritten only when the journal outgrows it.
 *
 * Invariant: everything that changes state goes through `send`, `airdrop` or `writeAccounts`, each of which
 * persists before returning.
 */
import { existsSync, rmSync } from "node:fs";
import { Journal, writeFileDurably } from "../../../lib/journal";
import { FailedTransactionMetadata, LiteSVM, TransactionMetadata, Clock } from "litesvm";
import { lamports, type Address, type Blockhash, type EncodedAccount, type MaybeEncodedAccount, type Transaction } from "@solana/kit";
import { failureToJson, type TxErrorJson } from "./errors";
import { emptyResult, metaResult, SendRefused, type SimulationResult } from "./simulation";
import { accountKeysOf, base58FromBytes as b58enc, compiledMessage, decodeWire, estimateFee, firstSignature } from "./wire";
import { accountFromJson, accountToJson, encodeSnapshot, landedFromJson, landedToJson, readSnapshot, writableAccounts, type LedgerEntry, type PersistedTables } from "./persistence";

export const MAX_PROCESSING_AGE = 150n;
const SYSTEM_PROGRAM = "11111111111111111111111111111111";
const HISTORY_LIMIT = 5_000;

export interface LandedTx {
  signature: string;
  slot: bigint;
  blockTime: number;
  err: TxErrorJson | null;
  fee: bigint;
  /** The wire transaction, base64 (the explorer and getTransaction read it back). */
  wire: string;
  logs: string[];
  accounts: string[];
  preBalances: bigint[];
  postBalances: bigint[];
  unitsConsumed: bigint;
}

export type HoldMode = "land" | "drop" | null;

export interface OpenLedgerOptions {
  /** Snapshot file; absent = in memory only. */
  file?: string;
  genesisHash: string;
  /** Runs on a fresh ledger (not on a restored one): mints, faucet balances. */
  init?: (ledger: SvmLedger) => void;
  /** Journal size below which it is never compacted (default src/lib/journal.ts COMPACT_MIN_BYTES; tests use less). */
  compactMinBytes?: number;
}

export class SvmLedger {
  readonly genesisHash: string;
  private svm: LiteSVM;
  private readonly file: string | undefined;
  private readonly journal: Journal<LedgerEntry> | undefined;
  private snapshotBytes = 0;
  /** blockhash -> slot it was issued in. */
  private readonly blockhashes = new Map<string, bigint>();
  private readonly statuses = new Map<string, { slot: bigint; err: TxErrorJson | null }>();
  private readonly history: LandedTx[] = [];
  private readonly listeners = new Set<(tx: LandedTx) => void>();
  private readonly slotListeners = new Set<(slot: bigint) => void>();
  hold: HoldMode = null;
  heldSends = 0;

  private constructor(svm: LiteSVM, o: OpenLedgerOptions, tables: PersistedTables | null) {
    this.svm = configure(svm);
    this.file = o.file;
    this.genesisHash = tables?.genesisHash ?? o.genesisHash;
    if (tables) {
      for (const [h, s] of tables.blockhashes) this.blockhashes.set(h, BigInt(s));
      for (const [sig, s, err] of tables.statuses) this.statuses.set(sig, { slot: BigInt(s), err });
      for (const h of tables.history) this.history.push(landedFromJson(h));
    }
    if (!this.blockhashes.has(this.svm.latestBlockhash())) this.blockhashes.set(this.svm.latestBlockhash(), this.slot());
    this.journal = o.file ? new Journal<LedgerEntry>(`${o.file}.journal`, o.compactMinBytes) : undefined;
    for (const { seq, entry } of this.journal?.open(tables?.journalSeq ?? 0) ?? []) this.replay(entry, seq);
  }

  static open(o: OpenLedgerOptions): SvmLedger {
    if (o.file && existsSync(o.file)) {
      const { tables, snapshot, bytes } = readSnapshot(o.file);
      const ledger = new SvmLedger(LiteSVM.fromBytes(snapshot), o, tables);
      ledger.snapshotBytes = bytes;
      return ledger;
    }
    if (o.file) rmSync(`${o.file}.journal`, { force: true }); // a journal without its snapshot belongs to no state
    const ledger = new SvmLedger(new LiteSVM(), o, null);
    ledger.syncClock();
    o.init?.(ledger);
    ledger.compact();
    return ledger;
  }

  /** Closes the journal file (the state is already durable). */
  close(): void {
    this.journal?.close();
  }

  // ---------------------------------------------------------------- reads

  slot(): bigint {
    return this.svm.getClock().slot;
  }

  latestBlockhash(): { blockhash: Blockhash; lastValidBlockHeight: bigint; slot: bigint } {
    const blockhash = this.svm.latestBlockhash();
    const issued = this.blockhashes.get(blockhash) ?? this.slot();
    return { blockhash, lastValidBlockHeight: issued + MAX_PROCESSING_AGE, slot: this.slot() };
  }

  isBlockhashValid(blockhash: string): boolean {
    const issued = this.blockhashes.get(blockhash);
    return issued !== undefined && this.slot() <= issued + MAX_PROCESSING_AGE;
  }

  getAccount(address: Address): MaybeEncodedAccount {
    return this.svm.getAccount(address);
  }

  getBalance(address: Address): bigint {
    return this.svm.getBalance(address) ?? 0n;
  }

  minimumBalanceForRentExemption(space: bigint): bigint {
    return this.svm.minimumBalanceForRentExemption(space);
  }

  /** Accounts owned by `program` (getProgramAccounts / getTokenAccountsByOwner). */
  programAccounts(program: Address): EncodedAccount[] {
    return this.svm.getProgramAccounts(program);
  }

  status(signature: string): { slot: bigint; err: TxErrorJson | null } | null {
    return this.statuses.get(signature) ?? null;
  }

  transaction(signature: string): LandedTx | null {
    return this.history.find((t) => t.signature === signature) ?? null;
  }

  /** Newest first. */
  recent(limit: number, address?: string): LandedTx[] {
    const out: LandedTx[] = [];
    for (let i = this.history.length - 1; i >= 0 && out.length < limit; i--) {
      const t = this.history[i]!;
      if (!address || t.accounts.includes(address)) out.push(t);
    }
    return out;
  }

  onLanded(fn: (tx: LandedTx) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  onSlot(fn: (slot: bigint) => void): () => void {
    this.slotListeners.add(fn);
    return () => this.slotListeners.delete(fn);
  }

  // ---------------------------------------------------------------- simulate / send

  /** Never changes state. `sigVerify: false` simulates unsigned (dApp-built) transactions. */
  simulate(tx: Transaction, o: { sigVerify: boolean; checkLifetime: boolean }): SimulationResult {
    if (o.checkLifetime) {
      const lifetimeErr = this.checkLifetime(tx);
      if (lifetimeErr) return emptyResult(lifetimeErr);
    }
    this.syncClock();
    this.svm.withSigverify(o.sigVerify);
    let res;
    try {
      res = this.svm.simulateTransaction(tx);
    } catch (err) {
      // litesvm throws (rather than returning an error) for a transaction missing signatures.
      return emptyResult((err as Error).message?.includes("signature") ? "SignatureFailure" : "SanitizeFailure");
    } finally {
      this.svm.withSigverify(true);
    }
    if (res instanceof FailedTransactionMetadata) return { ...metaResult(res.meta()), err: failureToJson(res) };
    const post = new Map<string, EncodedAccount>();
    for (const a of res.postAccounts()) post.set(a.address, a);
    return { ...metaResult(res.meta()), err: null, postAccounts: post };
  }

  /**
   * Lands `wire` or throws SendRefused. With preflight the transaction must simulate cleanly first (as on
   * a real RPC node); without it an execution failure lands (fee charged, status recorded with its error).
   */
  async send(wire: Uint8Array, o: { skipPreflight: boolean }): Promise<string> {
    const tx = decodeWire(wire);
    const signature = firstSignature(tx);
    if (this.hold === "drop") {
      this.heldSends++;
      return new Promise<string>(() => {}); // sandbox fault injection: the node "loses" it
    }
    const lifetimeErr = this.checkLifetime(tx);
    if (lifetimeErr) throw new SendRefused(lifetimeErr, null);
    if (this.statuses.has(signature)) throw new SendRefused("AlreadyProcessed", null);
    if (!o.skipPreflight) {
      const sim = this.simulate(tx, { sigVerify: true, checkLifetime: false });
      if (sim.err) throw new SendRefused(sim.err, sim);
    }
    this.syncClock();
    const accounts = accountKeysOf(tx);
    const preBalances = accounts.map((a) => this.getBalance(a as Address));
    let res;
    try {
      res = this.svm.sendTransaction(tx);
    } catch (err) {
      throw new SendRefused((err as Error).message?.includes("signature") ? "SignatureFailure" : "SanitizeFailure", null);
    }
    const failed = res instanceof FailedTransactionMetadata ? res : null;
    const err = failed ? failureToJson(failed) : null;
    // Errors that stop a transaction before execution never land on a real cluster (no fee, no status).
    if (typeof err === "string" && PRE_EXECUTION.has(err)) throw new SendRefused(err, null);
    const meta = failed ? failed.meta() : (res as TransactionMetadata);
    const postBalances = accounts.map((a) => this.getBalance(a as Address));
    const feePayerDelta = (preBalances[0] ?? 0n) - (postBalances[0] ?? 0n);
    this.land(writableAccounts(tx, (a) => this.svm.getAccount(a)), {
      signature,
      err,
      wire: Buffer.from(wire).toString("base64"),
      logs: meta.logs(),
      accounts,
      preBalances,
      postBalances,
      unitsConsumed: meta.computeUnitsConsumed(),
      fee: err ? feePayerDelta : estimateFee(tx),
    });
    if (this.hold === "land") {
      this.heldSends++;
      return new Promise<string>(() => {}); // sandbox fault injection: landed, the answer never comes
    }
    return signature;
  }

  /** Sandbox faucet: lamports from nowhere (litesvm's airdrop is a real transfer from its own keypair). */
  airdrop(address: Address, amount: bigint): string {
    this.syncClock();
    const res = this.svm.airdrop(address, lamports(amount));
    if (!res || res instanceof FailedTransactionMetadata) throw new Error(`airdrop failed: ${res ? JSON.stringify(failureToJson(res)) : "no result"}`);
    const signature = b58enc.decode(res.signature());
    this.land([address], { signature, err: null, wire: "", logs: res.logs(), accounts: [address], preBalances: [], postBalances: [], unitsConsumed: 0n, fee: 0n });
    return signature;
  }

  /** Set-up only (mints, price accounts): writes raw accounts and persists. */
  writeAccounts(accounts: EncodedAccount[]): void {
    for (const a of accounts) this.svm.setAccount(a);
    this.persist(accounts.map((a) => a.address));
  }

  /** Sandbox set-up only: a system account holding `amount` lamports (the faucet's float). */
  setLamports(address: Address, amount: bigint): void {
    this.writeAccounts([{ address, programAddress: SYSTEM_PROGRAM as Address, executable: false, lamports: lamports(amount), data: new Uint8Array(), space: 0n } as unknown as EncodedAccount]);
  }

  /** Sandbox only: move the slot forward (blockhashes older than 150 slots expire). */
  warpSlots(n: bigint): bigint {
    this.advance(n);
    this.persist([]);
    return this.slot();
  }

  // ---------------------------------------------------------------- internals

  private land(written: string[], t: Omit<LandedTx, "slot" | "blockTime">): void {
    const slot = this.slot();
    const landed: LandedTx = { ...t, slot, blockTime: Math.floor(Date.now() / 1000) };
    this.record(landed);
    this.advance(1n);
    this.persist(written, landed);
    for (const fn of this.listeners) fn(landed);
  }

  private record(landed: LandedTx): void {
    this.statuses.set(landed.signature, { slot: landed.slot, err: landed.err });
    this.history.push(landed);
    if (this.history.length > HISTORY_LIMIT) this.history.splice(0, this.history.length - HISTORY_LIMIT);
  }

  /** Re-applies a journal entry on open: the same accounts, record and slot advance as when it was written. */
  private replay(e: LedgerEntry, seq: number): void {
    for (const a of e.accounts) this.svm.setAccount(accountFromJson(a));
    if (e.landed) this.record(landedFromJson(e.landed));
    if (BigInt(e.slot) > this.slot()) this.advance(BigInt(e.slot) - this.slot());
    const c = this.svm.getClock();
    this.svm.setClock(new Clock(c.slot, c.epochStartTimestamp, c.epoch, c.leaderScheduleEpoch, BigInt(e.unixTimestamp)));
    if (this.svm.latestBlockhash() !== e.blockhash) throw new Error(`${this.file}.journal: entry ${seq} leads to blockhash ${this.svm.latestBlockhash()}, recorded ${e.blockhash}; the journal does not match the snapshot`);
  }

  /** New slot(s), new blockhash; the old blockhash stays valid for its 150 slots. */
  private advance(n: bigint): void {
    this.svm.expireBlockhash();
    this.svm.warpToSlot(this.slot() + n);
    this.syncClock();
    const now = this.slot();
    this.blockhashes.set(this.svm.latestBlockhash(), now);
    for (const [h, s] of this.blockhashes) if (s + MAX_PROCESSING_AGE < now) this.blockhashes.delete(h);
    for (const fn of this.slotListeners) fn(now);
  }

  /** Clock time follows the wall clock (programs and oracle readers check it). */
  private syncClock(): void {
    const c = this.svm.getClock();
    const now = BigInt(Math.floor(Date.now() / 1000));
    if (c.unixTimestamp !== now) this.svm.setClock(new Clock(c.slot, c.epochStartTimestamp, c.epoch, c.leaderScheduleEpoch, now));
  }

  private checkLifetime(tx: Transaction): TxErrorJson | null {
    const msg = compiledMessage(tx);
    const token = String(msg.lifetimeToken);
    if (this.isBlockhashValid(token)) return null;
    // Durable nonce: the first instruction is System AdvanceNonceAccount (u32 LE 4) and the nonce account
    // holds `token` (bytes 40..72 of its data).
    const ix = msg.instructions[0];
    if (ix && msg.staticAccounts[ix.programAddressIndex] === SYSTEM_PROGRAM && ix.data && ix.data.length >= 4 && ix.data[0] === 4 && ix.data[1] === 0) {
      const nonceIndex = ix.accountIndices?.[0];
      const nonceAddress = nonceIndex !== undefined ? msg.staticAccounts[nonceIndex] : undefined;
      const acct = nonceAddress ? this.svm.getAccount(nonceAddress as Address) : null;
      if (acct?.exists && acct.data.length >= 72 && b58enc.decode(acct.data.slice(40, 72)) === token) return null;
    }
    return "BlockhashNotFound";
  }

  /** Journals the accounts `written` (as they are now) and `landed`, durably; compacts when the journal outgrew the snapshot. */
  private persist(written: string[], landed?: LandedTx): void {
    if (!this.journal) return;
    const c = this.svm.getClock();
    this.journal.append({
      accounts: written.map((a) => accountToJson(a, this.svm.getAccount(a as Address))),
      ...(landed ? { landed: landedToJson(landed) } : {}),
      slot: c.slot.toString(),
      unixTimestamp: c.unixTimestamp.toString(),
      blockhash: this.svm.latestBlockhash(),
    });
    if (this.journal.wantsCompaction(this.snapshotBytes)) this.compact();
  }

  /** Writes the whole state as the new snapshot (atomically, durably), then empties the journal it now includes. */
  compact(): void {
    if (!this.file || !this.journal) return;
    const tables: PersistedTables = {
      v: 1,
      genesisHash: this.genesisHash,
      blockhashes: [...this.blockhashes].map(([h, s]) => [h, s.toString()]),
      statuses: [...this.statuses].slice(-50_000).map(([sig, s]) => [sig, s.slot.toString(), s.err]),
      history: this.history.map(landedToJson),
      journalSeq: this.journal.seq,
    };
    this.snapshotBytes = writeFileDurably(this.file, encodeSnapshot(tables, this.svm.toBytes()));
    this.journal.truncate();
  }
}

const PRE_EXECUTION = new Set(["AccountNotFound", "InsufficientFundsForFee", "InvalidAccountForFee", "AlreadyProcessed", "BlockhashNotFound", "MissingSignatureForFee", "SignatureFailure", "SanitizeFailure", "UnsupportedVersion", "AddressLookupTableNotFound", "InvalidAddressLookupTableOwner", "InvalidAddressLookupTableData", "InvalidAddressLookupTableIndex", "AccountLoadedTwice", "TooManyAccountLocks"]);

function configure(svm: LiteSVM): LiteSVM {
  // Blockhash validity is this ledger's job (see the file comment); history keeps AlreadyProcessed working.
  return svm.withBlockhashCheck(false).withSigverify(true);
}
