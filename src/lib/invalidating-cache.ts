/**
 * A bounded in-memory read cache kept correct by invalidation (src/db/change-feed.ts).
 *
 * Invariants:
 * - A value is served only while the change feed is live; otherwise every read goes to the loader.
 * - `invalidate(key)` removes the entry AND voids any load of that key still in flight, so a load that
 *   read the row before a change committed can never store its stale result afterwards.
 * - A feed reset clears everything and voids every load in flight.
 * - While a write to a key is pending in this process (announceWrite), the key is neither served nor
 *   stored: each announcement is cleared by one committed-change notification for the key, or after
 *   `pendingMs` (a rollback sends none).
 * Entries are evicted oldest-first past `maxEntries`; `undefined` (not found) is never cached.
 */
import type { ChangeFeed } from "../db/change-feed";

export class InvalidatingCache<V> {
  private readonly entries = new Map<string, V>();
  private readonly loads = new Map<string, object>();
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
    if (!this.feed.live || this.isPending(key)) return load();
    const hit = this.entries.get(key);
    if (hit !== undefined) return hit;
    const token = {};
    this.loads.set(key, token);
    const value = await load();
    if (this.loads.get(key) === token) {
      this.loads.delete(key);
      if (value !== undefined && this.feed.live && !this.isPending(key)) {
        if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
        this.entries.set(key, value);
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
