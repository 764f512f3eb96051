/**
 * The sandbox node's key-value state with copy-on-write layers: a transaction executes on a layer over
 * the committed state and commits it only when every call succeeded, so a multicall is atomic (one
 * revert discards all of its writes) while the fee and nonce are charged on the layer below.
 */
export interface Reader {
  get(key: string): bigint;
}

export class Layer implements Reader {
  private readonly writes = new Map<string, bigint>();
  constructor(private readonly parent: Reader & { set?(key: string, value: bigint): void }) {}

  get(key: string): bigint {
    const w = this.writes.get(key);
    return w === undefined ? this.parent.get(key) : w;
  }

  set(key: string, value: bigint): void {
    this.writes.set(key, value);
  }

  /** Number of distinct keys written: the sandbox's stand-in for a state diff's size. */
  get size(): number {
    return this.writes.size;
  }

  entries(): IterableIterator<[string, bigint]> {
    return this.writes.entries();
  }

  /** Applies this layer's writes to its parent (which must be writable). */
  commit(): void {
    const p = this.parent;
    if (!p.set) throw new Error("cannot commit onto a read-only layer");
    for (const [k, v] of this.writes) p.set(k, v);
    this.writes.clear();
  }
}

export class RootStorage implements Reader {
  /** Keys set since the last takeDiff(): the node journals just these (src/lib/journal.ts). */
  private readonly dirty = new Set<string>();
  constructor(private readonly map: Map<string, bigint>) {}
  get(key: string): bigint {
    return this.map.get(key) ?? 0n;
  }
  set(key: string, value: bigint): void {
    this.dirty.add(key);
    if (value === 0n) this.map.delete(key);
    else this.map.set(key, value);
  }
  /** The current value of every key set since the last call ("0x0": deleted), and forgets them. */
  takeDiff(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const k of this.dirty) out[k] = "0x" + this.get(k).toString(16);
    this.dirty.clear();
    return out;
  }
  /** Replays a diff from takeDiff() (not itself dirty: it is already on disk). */
  applyDiff(diff: Record<string, string>): void {
    for (const [k, v] of Object.entries(diff)) {
      const value = BigInt(v);
      if (value === 0n) this.map.delete(k);
      else this.map.set(k, value);
    }
  }
  toJSON(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of this.map) out[k] = "0x" + v.toString(16);
    return out;
  }
  static fromJSON(o: Record<string, string> | undefined): RootStorage {
    return new RootStorage(new Map(Object.entries(o ?? {}).map(([k, v]) => [k, BigInt(v)])));
  }
}
