/**
 * The sandbox Starknet node's state machine: committed storage, blocks (one per accepted transaction),
 * transactions with their receipts and traces, and the genesis faucet account. State persists in the data
 * directory as a JSON snapshot plus an append-only journal (src/lib/journal.ts): each accepted or held
 * transaction appends what it changed (storage diff, block, transaction, mempool) and fsyncs before the
 * submission is answered, so a process killed after `starknet_addInvokeTransaction` answered still has the
 * transaction after a restart, and the write cost of a transaction does not grow with the state.
 *
 * The mempool: an INVOKE with a nonce ahead of its (deployed) account's is held, as a real sequencer holds
 * it (hash and signature checked on arrival), and runs as soon as the nonces before it have run. An account
 * that signs several transactions in a row may therefore send them in any order. A held transaction that
 * fails when its turn comes (its fee no longer covered) is dropped, as a sequencer rejects it.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { ec } from "starknet";
import { Journal, writeFileDurably } from "../../../lib/journal";
import { toFeltHex } from "../felt";
import { OZ_ACCOUNT_CLASS_HASH, SN_MAIN, STARKNET_TOKENS } from "../constants";
import { contractAddress } from "../tx-hash";
import { accountRecord, balanceKey, classHashAt, invoke, nonceKey, Panic, signatureValid, supplyKey, writeAccount } from "./contracts";
import { errors, RpcError } from "./errors";
import { executeTx, GAS_PRICES, GAS_PRICES_WEI, txHash, type BlockEnv, type ExecOutcome } from "./execute";
import { sandboxProofValid } from "./strk20/attest";
import { installStrk20 } from "./strk20/genesis";
import { SANDBOX_VALIDITY_BLOCKS } from "./strk20/model";
import { Layer, RootStorage } from "./storage";
import { parseTx, QUERY_V3, type ParsedTx } from "./transactions";

/** How far ahead of its account's nonce a held transaction may be. */
export const MEMPOOL_MAX_NONCE_GAP = 32n;

const hex = toFeltHex;
const poseidon = (xs: bigint[]) => ec.starkCurve.poseidonHashMany(xs);

export interface BlockRecord {
  number: number;
  hash: string;
  parentHash: string;
  timestamp: number;
  txHashes: string[];
}

export interface TxRecord {
  hash: string;
  blockNumber: number;
  index: number;
  tx: Record<string, unknown>;
  receipt: Record<string, unknown>;
  trace: Record<string, unknown>;
}

interface Persisted {
  format: "arbiter-starknet-sandbox/1";
  chainId: string;
  faucet: { address: string; privateKey: string };
  storage: Record<string, string>;
  blocks: BlockRecord[];
  txs: TxRecord[];
  /** Held INVOKE transactions (their JSON-RPC form), waiting for their nonce. */
  pending?: Record<string, unknown>[];
  /** The STRK20 pool's sandbox secrets: the proof-attestation key and the paymaster's relayer account. Absent in files from before the pool. */
  strk20?: Strk20Genesis;
  /** The last journal entry this snapshot includes (absent in files from before the journal: 0). */
  journalSeq?: number;
}

/** One journal line: what a submission changed. */
interface JournalEntry {
  storage: Record<string, string>;
  blocks: BlockRecord[];
  txs: TxRecord[];
  /** The whole mempool (held JSON-RPC transactions) when it changed; it is small (32 per account at most). */
  pending?: Record<string, unknown>[];
}

export interface Strk20Genesis {
  attestKey: string;
  relayer: { address: string; privateKey: string };
}

export interface NodeOptions {
  /** The pool's `proof_validity_blocks` when the pool is installed (default 450; tests use a few). */
  proofValidityBlocks?: bigint;
  /** Directory for the state files; omitted = in memory only. */
  dataDir?: string;
  /** Journal size below which it is never compacted (default src/lib/journal.ts COMPACT_MIN_BYTES; tests use less). */
  compactMinBytes?: number;
  chainId?: string;
  now?: () => number;
}

/** Genesis balances of the faucet account (whole units), from which the sandbox funds wallets. */
const FAUCET_GENESIS: Record<string, bigint> = { STRK: 1_000_000_000n, ETH: 1_000_000n, USDC: 1_000_000_000n, USDT: 1_000_000_000n };

export class SandboxNode {
  readonly chainId: bigint;
  readonly faucet: { address: string; privateKey: string };
  readonly strk20: Strk20Genesis;
  private readonly storage: RootStorage;
  private readonly blocks: BlockRecord[];
  private readonly txs = new Map<bigint, TxRecord>();
  /** The mempool: held transactions by hash, with their sender. */
  private readonly pending = new Map<bigint, { tx: ParsedTx; sender: bigint }>();
  private readonly file: string | undefined;
  private readonly journal: Journal<JournalEntry> | undefined;
  private snapshotBytes = 0;
  /** What changed since the last journal entry, besides storage (which tracks its own diff). */
  private persistedBlocks: number;
  private readonly newTxs: TxRecord[] = [];
  private pendingChanged = false;
  private readonly now: () => number;

  private constructor(p: Persisted, file: string | undefined, now: () => number, validityBlocks = SANDBOX_VALIDITY_BLOCKS, compactMinBytes?: number) {
    this.chainId = BigInt(p.chainId);
    this.faucet = p.faucet;
    this.storage = RootStorage.fromJSON(p.storage);
    this.blocks = p.blocks;
    for (const t of p.txs) this.txs.set(BigInt(t.hash), t);
    for (const raw of p.pending ?? []) {
      const tx = parseTx(raw);
      const { hash, sender } = txHash(tx, this.chainId);
      this.pending.set(hash, { tx, sender });
    }
    this.file = file;
    this.now = now;
    this.strk20 = p.strk20 ?? installStrk20(this.storage, validityBlocks);
    p.strk20 = this.strk20;
    this.journal = file ? new Journal<JournalEntry>(`${file}.journal`, compactMinBytes) : undefined;
    for (const { entry } of this.journal?.open(p.journalSeq ?? 0) ?? []) this.replay(entry);
    this.persistedBlocks = this.blocks.length;
  }

  private replay(e: JournalEntry): void {
    this.storage.applyDiff(e.storage);
    this.blocks.push(...e.blocks);
    for (const t of e.txs) this.txs.set(BigInt(t.hash), t);
    if (e.pending) {
      this.pending.clear();
      for (const raw of e.pending) {
        const tx = parseTx(raw);
        this.pending.set(txHash(tx, this.chainId).hash, { tx, sender: txHash(tx, this.chainId).sender });
      }
    }
  }

  static open(opts: NodeOptions = {}): SandboxNode {
    const now = opts.now ?? (() => Math.floor(Date.now() / 1000));
    const file = opts.dataDir ? join(opts.dataDir, "starknet-sandbox.json") : undefined;
    if (file && !existsSync(file)) rmSync(`${file}.journal`, { force: true }); // a journal without its snapshot belongs to no state
    if (file && existsSync(file)) {
      const p = JSON.parse(readFileSync(file, "utf8")) as Persisted;
      if (p.format !== "arbiter-starknet-sandbox/1") throw new Error(`${file}: unknown sandbox state format`);
      const node = new SandboxNode(p, file, now, opts.proofValidityBlocks, opts.compactMinBytes);
      node.snapshotBytes = statSync(file).size;
      if (!p.strk20) node.compact();
      return node;
    }
    if (opts.dataDir) mkdirSync(opts.dataDir, { recursive: true });
    const node = new SandboxNode(genesis(opts.chainId ?? SN_MAIN, now()), file, now, opts.proofValidityBlocks, opts.compactMinBytes);
    node.compact();
    return node;
  }

  get latest(): BlockRecord {
    return this.blocks[this.blocks.length - 1]!;
  }

  block(id: unknown): BlockRecord {
    if (id === "latest" || id === "l1_accepted" || id === undefined) return this.latest;
    if (id && typeof id === "object") {
      const o = id as Record<string, unknown>;
      if (typeof o.block_number === "number") {
        const b = this.blocks[o.block_number];
        if (b) return b;
      } else if (typeof o.block_hash === "string") {
        const b = this.blocks.find((x) => BigInt(x.hash) === BigInt(o.block_hash as string));
        if (b) return b;
      }
    }
    throw errors.blockNotFound();
  }

  blockByNumber(n: number): BlockRecord | undefined {
    return this.blocks[n];
  }

  get height(): number {
    return this.blocks.length - 1;
  }

  gasPrices() {
    const price = (k: keyof typeof GAS_PRICES) => ({ price_in_fri: hex(GAS_PRICES[k]), price_in_wei: hex(GAS_PRICES_WEI[k]) });
    return { l1_gas_price: price("l1_gas"), l2_gas_price: price("l2_gas"), l1_data_gas_price: price("l1_data_gas") };
  }

  tx(hash: bigint): TxRecord | undefined {
    return this.txs.get(hash);
  }

  /** A transaction held in the mempool (its JSON-RPC form), if any. */
  pendingTx(hash: bigint): Record<string, unknown> | undefined {
    const p = this.pending.get(hash);
    return p && { ...p.tx.raw, transaction_hash: hex(hash) };
  }

  txsInBlock(b: BlockRecord): TxRecord[] {
    return b.txHashes.map((h) => this.txs.get(BigInt(h))!);
  }

  read(key: string): bigint {
    return this.storage.get(key);
  }

  classHashAt(address: bigint): string | undefined {
    return classHashAt(this.storage, address);
  }

  /** A read-only call (starknet_call): runs on a throwaway layer; a panic is CONTRACT_ERROR (40). */
  call(to: bigint, selector: bigint, calldata: bigint[]): string[] {
    if (!this.classHashAt(to)) throw errors.contractNotFound();
    try {
      const inv = invoke({ storage: new Layer(this.storage), txHash: 0n, nextOrder: () => 0, callCount: 0, env: { ...this.blockEnv(), chainId: this.chainId, proofFacts: [] } }, 0n, to, selector, calldata);
      return inv.result;
    } catch (e) {
      if (!(e instanceof Panic)) throw e;
      if (e.reason.startsWith("Entry point") && e.frames.length === 1) throw errors.entrypointNotFound();
      throw errors.contractError(e.format());
    }
  }

  /** Executes a sequence without committing (estimateFee / simulateTransactions): each sees the previous. */
  dryRun(txs: ParsedTx[], flags: { skipValidate: boolean; skipFeeCharge: boolean }): ExecOutcome[] {
    const layer = new Layer(this.storage);
    return txs.map((tx, i) => {
      const out = executeTx(layer, tx, this.chainId, { ...flags, submit: false }, i, this.blockEnv());
      out.layer.commit();
      return out;
    });
  }

  /**
   * Accepts a transaction: executes, commits, mines a block, persists, then runs what the mempool held for
   * the same account; or holds an INVOKE whose nonce is ahead of its account's. Returns its hash (and the
   * deployed address for DEPLOY_ACCOUNT).
   */
  submit(tx: ParsedTx): { hash: bigint; contractAddress?: bigint } {
    // A STRK20 transaction carries its proof beside the facts; the sandbox checks only the prover's MAC (not a STARK).
    if (tx.type === "INVOKE" && tx.proofFacts.length > 0 && !(tx.proof && sandboxProofValid(Buffer.from(this.strk20.attestKey, "hex"), tx.proofFacts, tx.proof))) {
      throw errors.invalidProof();
    }
    if (tx.type === "INVOKE" && tx.version !== QUERY_V3) {
      const { hash, sender } = txHash(tx, this.chainId);
      const account = accountRecord(this.storage, sender);
      const current = this.storage.get(nonceKey(sender));
      if (account && tx.nonce > current) {
        if (this.txs.has(hash) || this.pending.has(hash)) throw errors.duplicateTx();
        const detail = `Invalid transaction nonce of contract at address ${hex(sender)}. Account nonce: ${hex(current)}; got: ${hex(tx.nonce)}.`;
        if (tx.nonce - current > MEMPOOL_MAX_NONCE_GAP) throw errors.invalidNonce(`${detail} (at most ${MEMPOOL_MAX_NONCE_GAP} ahead)`);
        if ([...this.pending.values()].some((p) => p.sender === sender && p.tx.nonce === tx.nonce)) throw errors.invalidNonce(`${detail} (another transaction with this nonce is waiting)`);
        if (!signatureValid(account, hash, tx.signature)) {
          throw errors.validationFailure(`Error in the called contract (contract address: ${hex(sender)}, selector: __validate__):\nExecution failed. Failure reason: 'Account: invalid signature'.`);
        }
        this.pending.set(hash, { tx, sender });
        this.pendingChanged = true;
        this.persist();
        return { hash };
      }
    }
    const out = this.commit(tx);
    this.drain(txHash(tx, this.chainId).sender);
    return out;
  }

  /** Runs the held transactions of `sender` whose turn has come (each in its own block). */
  private drain(sender: bigint): void {
    for (;;) {
      const current = this.storage.get(nonceKey(sender));
      const next = [...this.pending].find(([, p]) => p.sender === sender && p.tx.nonce === current);
      if (!next) return;
      this.pending.delete(next[0]);
      this.pendingChanged = true;
      try {
        this.commit(next[1].tx);
      } catch (e) {
        if (!(e instanceof RpcError)) throw e;
        this.persist(); // dropped, as a sequencer rejects it
        return;
      }
    }
  }

  private commit(tx: ParsedTx): ExecOutcome {
    const out = executeTx(this.storage, tx, this.chainId, { skipValidate: false, skipFeeCharge: false, submit: true }, 0, this.blockEnv());
    if (this.txs.has(out.hash)) throw errors.duplicateTx();
    out.layer.commit();
    const parent = this.latest;
    const number = parent.number + 1;
    const timestamp = Math.max(this.now(), parent.timestamp + 1);
    const txHash = hex(out.hash);
    const block: BlockRecord = { number, parentHash: parent.hash, timestamp, txHashes: [txHash], hash: hex(poseidon([BigInt(number), BigInt(parent.hash), BigInt(timestamp), out.hash])) };
    this.blocks.push(block);
    const receipt: Record<string, unknown> = {
      type: out.type,
      transaction_hash: txHash,
      actual_fee: { amount: hex(out.fee), unit: "FRI" },
      finality_status: "ACCEPTED_ON_L2",
      messages_sent: [],
      events: out.events,
      execution_resources: { l1_gas: Number(out.gas.l1_gas), l1_data_gas: Number(out.gas.l1_data_gas), l2_gas: Number(out.gas.l2_gas) },
      execution_status: out.revertReason ? "REVERTED" : "SUCCEEDED",
      ...(out.revertReason ? { revert_reason: out.revertReason } : {}),
      ...(out.contractAddress !== undefined ? { contract_address: hex(out.contractAddress) } : {}),
      block_hash: block.hash,
      block_number: number,
    };
    const { proof: _proof, ...stored } = tx.raw;
    const record: TxRecord = { hash: txHash, blockNumber: number, index: 0, tx: { ...stored, transaction_hash: txHash }, receipt, trace: out.trace };
    this.txs.set(out.hash, record);
    this.newTxs.push(record);
    this.persist();
    return out;
  }

  /** The context of the next block: its number, and the hashes of those before it. */
  private blockEnv(): BlockEnv {
    return { blockNumber: BigInt(this.height + 1), blockHash: (n) => (n >= 0n && n <= BigInt(this.height) ? BigInt(this.blocks[Number(n)]!.hash) : undefined) };
  }

  /** Journals what changed since the last call (durably), and compacts when the journal outgrew the snapshot. */
  private persist(): void {
    if (!this.journal) return this.compact(); // in memory: only forgets the diff
    const entry: JournalEntry = { storage: this.storage.takeDiff(), blocks: this.blocks.slice(this.persistedBlocks), txs: this.newTxs.splice(0) };
    if (this.pendingChanged) entry.pending = this.pendingRaw();
    this.persistedBlocks = this.blocks.length;
    this.pendingChanged = false;
    this.journal.append(entry);
    if (this.journal.wantsCompaction(this.snapshotBytes)) this.compact();
  }

  /** Writes the whole state as the new snapshot (atomically, durably), then empties the journal it now includes. */
  compact(): void {
    this.storage.takeDiff();
    this.newTxs.length = 0;
    this.persistedBlocks = this.blocks.length;
    this.pendingChanged = false;
    if (!this.file || !this.journal) return;
    const p: Persisted = {
      format: "arbiter-starknet-sandbox/1",
      chainId: hex(this.chainId),
      faucet: this.faucet,
      storage: this.storage.toJSON(),
      blocks: this.blocks,
      txs: [...this.txs.values()],
      pending: this.pendingRaw(),
      strk20: this.strk20,
      journalSeq: this.journal.seq,
    };
    this.snapshotBytes = writeFileDurably(this.file, JSON.stringify(p));
    this.journal.truncate();
  }

  private pendingRaw(): Record<string, unknown>[] {
    return [...this.pending.values()].map((p) => p.tx.raw);
  }

  /** Closes the journal file (the state is already durable). */
  close(): void {
    this.journal?.close();
  }
}

function genesis(chainId: string, timestamp: number): Persisted {
  const privateKey = "0x" + (BigInt("0x" + randomBytes(31).toString("hex")) + 1n).toString(16);
  const pub = BigInt(ec.starkCurve.getStarkKey(privateKey));
  const address = contractAddress(pub, BigInt(OZ_ACCOUNT_CLASS_HASH), [pub]);
  const root = new RootStorage(new Map());
  const layer = new Layer(root);
  writeAccount(layer, address, { classHash: BigInt(OZ_ACCOUNT_CLASS_HASH), publicKey: pub });
  for (const t of STARKNET_TOKENS) {
    const amount = FAUCET_GENESIS[t.symbol]! * 10n ** BigInt(t.decimals);
    layer.set(balanceKey(BigInt(t.address), address), amount);
    layer.set(supplyKey(BigInt(t.address)), amount);
  }
  layer.commit();
  const hash = hex(poseidon([0n, BigInt(timestamp), BigInt(chainId)]));
  return {
    format: "arbiter-starknet-sandbox/1",
    chainId,
    faucet: { address: "0x" + address.toString(16).padStart(64, "0"), privateKey },
    storage: root.toJSON(),
    blocks: [{ number: 0, hash, parentHash: "0x0", timestamp, txHashes: [] }],
    txs: [],
  };
}
