/**
 * A bounded in-memory read cache kept correct by invalidation (src/db/change-feed.ts).
 *
 * Invariants:
 * - A value is served only while the change feed is live; otherwise every read goes to the loader.
 * - `invalidate(key)` removes the entry AND voids any load of that key still in flight, so a load that
 *   read the row before a change committed can never store its stale result afterwards.
 * - Concurrent misses on one key share one load (single flight): a reader that arrives while a load that
 *   started after the key's last invalidation is in flight waits for it instead of starting its own. Before,
 *   each miss started its own load and only the newest might store: under steady concurrency (16 clients
 *   on one key) a newer load was always in flight, nothing was ever stored, and every read went to the
 *   database (issue 23: GET /api/v1/credits at 5% of constant JSON on PGlite). A reader arriving after an
 *   invalidation never joins a load from before it (the invalidation removed it).
 * - A feed reset clears everything and voids every load in flight.
 * - While a write to a key is pending in this process (announceWrite), the key is neither served nor
 *   stored: each announcement is cleared by one committed-change notification for the key, or after
 *   `pendingMs` (a rollback sends none).
 * Entries are evicted oldest-first past `maxEntries`; `undefined` (not found) is never cached.
 */
import type { ChangeFeed } from "../db/change-feed";

/** How reads were answered, since start (arbiter_cache_reads_total): plain counters, free on the hot path. */
export interface CacheReads {
  /** From memory. */
  hit: number;
  /** Waited for a load another reader started (single flight). */
  joined: number;
  /** Loaded from the database, to be stored. */
  loaded: number;
  /** Read through, never stored: the feed was not live, or a write to the key was pending. */
  readThrough: number;
}

export class InvalidatingCache<V> {
  readonly reads: CacheReads = { hit: 0, joined: 0, loaded: 0, readThrough: 0 };
  private readonly entries = new Map<string, V>();
  /** The load in flight per key (single flight); removed by invalidation, so it is never stored then. */
  private readonly loads = new Map<string, Promise<V | undefined>>();
  private readonly pending = new Map<string, { count: number; until: number }>();

  constructor(
    private readonly feed: ChangeFeed,
    topic: string,
    private readonly maxEntries = 10_000,
    private readonly pendingMs = 2_000,
  ) {
    feed.subscribe({
      change: (t, key) => {
        if (t !== topic) return;
        this.invalidate(key);
        const p = this.pending.get(key);
        if (p && --p.count <= 0) this.pending.delete(key);
      },
      pending: (t, key) => {
        if (t !== topic) return;
        this.invalidate(key);
        const p = this.pending.get(key);
        const until = Date.now() + this.pendingMs;
        this.pending.set(key, { count: (p?.count ?? 0) + 1, until });
        if (this.pending.size > this.maxEntries) for (const k of [...this.pending.keys()]) this.isPending(k);
      },
      reset: () => {
        this.entries.clear();
        this.loads.clear();
        this.pending.clear();
      },
    });
  }

  private isPending(key: string): boolean {
    const p = this.pending.get(key);
    if (!p) return false;
    if (p.until > Date.now()) return true;
    this.pending.delete(key);
    return false;
  }

  async get(key: string, load: () => Promise<V | undefined>): Promise<V | undefined> {
    if (!this.feed.live || this.isPending(key)) {
      this.reads.readThrough++;
      return load();
    }
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      this.reads.hit++;
      return hit;
    }
    const inflight = this.loads.get(key);
    if (inflight) {
      this.reads.joined++;
      return inflight;
    }
    this.reads.loaded++;
    const promise = load();
    this.loads.set(key, promise);
    let value: V | undefined;
    try {
      value = await promise;
    } finally {
      // Still ours (no invalidation, reset or newer load since): the result may be stored.
      if (this.loads.get(key) === promise) {
        this.loads.delete(key);
        if (value !== undefined && this.feed.live && !this.isPending(key)) {
          if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
          this.entries.set(key, value);
        }
      }
    }
    return value;
  }

  /** Replaces a cached value in place (no-op when absent): for fields that do not affect correctness. */
  touch(key: string, update: (v: V) => V): void {
    const v = this.entries.get(key);
    if (v !== undefined) this.entries.set(key, update(v));
  }

  invalidate(key: string): void {
    this.entries.delete(key);
    this.loads.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}
