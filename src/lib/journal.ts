/**
 * Snapshot + append-only journal persistence for the sandbox chain nodes (Solana ledger, Starknet node), so a
 * transaction's write cost is the size of what it changed, not the size of the whole state:
 * - each state change appends one line `{"seq":n,"entry":...}\n` to `<snapshot>.journal` and fsyncs it before
 *   the caller answers, so a change anyone was told about survives a kill -9;
 * - when the journal has grown past the snapshot (and past COMPACT_MIN_BYTES) the owner writes a full snapshot
 *   (temp file, fsync, rename) that records the last seq it includes, then the journal is emptied. Compaction
 *   writes S bytes only after at least S journal bytes, so its amortised cost per change is bounded by the
 *   change's own journal line, whatever the state size;
 * - on open, entries with seq <= the snapshot's are skipped (a crash between the snapshot's rename and the
 *   journal's truncation leaves them in both); a torn last line (the crash hit mid-append; that change was
 *   never acknowledged) is dropped and cut off; an unreadable line followed by readable ones is corruption and
 *   throws rather than silently losing changes.
 */
import { closeSync, existsSync, fsyncSync, ftruncateSync, mkdirSync, openSync, readFileSync, renameSync, statSync, writeSync } from "node:fs";
import { dirname } from "node:path";

/** Below this the journal is never compacted: small states would otherwise snapshot on every change. */
export const COMPACT_MIN_BYTES = 1 << 20;

export interface JournalRecord<E> {
  seq: number;
  entry: E;
}

export class Journal<E> {
  private fd: number | null = null;
  private size = 0;
  /** The seq of the last entry appended or replayed. */
  seq = 0;

  constructor(
    readonly file: string,
    private readonly compactMinBytes = COMPACT_MIN_BYTES,
  ) {}

  /**
   * The entries after `afterSeq` (the snapshot's), in order. Opens the journal for appending; a torn last
   * line is removed from the file first, so the next append starts on a line of its own.
   */
  open(afterSeq: number): JournalRecord<E>[] {
    this.seq = afterSeq;
    const out: JournalRecord<E>[] = [];
    let keep = 0;
    if (existsSync(this.file)) {
      const buf = readFileSync(this.file);
      let start = 0;
      while (start < buf.length) {
        const nl = buf.indexOf(0x0a, start);
        const line = buf.subarray(start, nl === -1 ? buf.length : nl);
        const rec = nl === -1 ? null : parse<E>(line);
        if (!rec) {
          const rest = buf.subarray(nl === -1 ? buf.length : nl + 1);
          if (rest.some((b) => b !== 0x0a && b !== 0x00)) throw new Error(`${this.file}: unreadable journal line at byte ${start} followed by more entries`);
          break; // torn tail: never acknowledged
        }
        if (rec.seq > this.seq) {
          if (rec.seq !== this.seq + 1) throw new Error(`${this.file}: journal jumps from seq ${this.seq} to ${rec.seq}`);
          out.push(rec);
          this.seq = rec.seq;
        }
        start = nl + 1;
        keep = start;
      }
    } else {
      mkdirSync(dirname(this.file), { recursive: true });
    }
    this.fd = openSync(this.file, existsSync(this.file) ? "r+" : "w+");
    if (statSync(this.file).size !== keep) {
      ftruncateSync(this.fd, keep);
      fsyncSync(this.fd);
    }
    this.size = keep;
    return out;
  }

  /** Appends one entry and makes it durable; returns its seq. */
  append(entry: E): number {
    if (this.fd === null) throw new Error("journal not open");
    const seq = this.seq + 1;
    const line = Buffer.from(JSON.stringify({ seq, entry }) + "\n");
    writeSync(this.fd, line, 0, line.length, this.size);
    fsyncSync(this.fd);
    this.size += line.length;
    this.seq = seq;
    return seq;
  }

  get bytes(): number {
    return this.size;
  }

  /** The owner should write a snapshot now: the journal outgrew it (see the module comment). */
  wantsCompaction(snapshotBytes: number): boolean {
    return this.size >= Math.max(this.compactMinBytes, snapshotBytes);
  }

  /** After a durable snapshot that includes every entry up to `this.seq`: empties the journal. */
  truncate(): void {
    if (this.fd === null) return;
    ftruncateSync(this.fd, 0);
    fsyncSync(this.fd);
    this.size = 0;
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

function parse<E>(line: Buffer): JournalRecord<E> | null {
  try {
    const rec = JSON.parse(line.toString("utf8")) as JournalRecord<E>;
    return rec && typeof rec === "object" && Number.isSafeInteger(rec.seq) && "entry" in rec ? rec : null;
  } catch {
    return null;
  }
}

/** Replaces `file` with `data` atomically and durably (temp file, fsync, rename); returns the bytes written. */
export function writeFileDurably(file: string, data: Buffer | string): number {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = openSync(tmp, "w");
  let n: number;
  try {
    n = typeof data === "string" ? writeSync(fd, data) : writeSync(fd, data, 0, data.length);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
  return n;
}
