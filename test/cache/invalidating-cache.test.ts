/**
 * The read cache's invariants (src/lib/invalidating-cache.ts) against a hand-driven change feed: what it
 * serves, when it must not store, and when it must not serve.
 */
import { describe, expect, it } from "vitest";
import type { ChangeFeed, ChangeSubscriber } from "../../src/db/change-feed";
import { InvalidatingCache } from "../../src/lib/invalidating-cache";

function feed() {
  const subs: ChangeSubscriber[] = [];
  const f = {
    live: true,
    subscribe: (s: ChangeSubscriber) => void subs.push(s),
    close: async () => {},
    change: (topic: string, key: string) => subs.forEach((s) => s.change(topic, key)),
    pending: (topic: string, key: string) => subs.forEach((s) => s.pending?.(topic, key)),
    reset: () => subs.forEach((s) => s.reset()),
  };
  return f satisfies ChangeFeed;
}

function source(initial: number) {
  let value = initial;
  let loads = 0;
  let gate: Promise<void> | null = null;
  return {
    set: (v: number) => void (value = v),
    get loads() {
      return loads;
    },
    hold() {
      let release!: () => void;
      gate = new Promise((r) => (release = r));
      return () => {
        gate = null;
        release();
      };
    },
    load: async () => {
      loads++;
      const v = value;
      if (gate) await gate;
      return v;
    },
  };
}

describe("InvalidatingCache", () => {
  it("serves a loaded value until that key changes; other keys and topics do not disturb it", async () => {
    const f = feed();
    const c = new InvalidatingCache<number>(f, "balance");
    const s = source(5);
    expect(await c.get("a", s.load)).toBe(5);
    s.set(4);
    expect(await c.get("a", s.load)).toBe(5);
    expect(s.loads).toBe(1);
    f.change("balance", "b");
    f.change("api_key", "a");
    expect(await c.get("a", s.load)).toBe(5);
    f.change("balance", "a");
    expect(await c.get("a", s.load)).toBe(4);
    expect(s.loads).toBe(2);
  });

  it("a load in flight when its key changes is returned but never stored", async () => {
    const f = feed();
    const c = new InvalidatingCache<number>(f, "balance");
    const s = source(5);
    const release = s.hold();
    const inflight = c.get("a", s.load);
    s.set(4);
    f.change("balance", "a");
    release();
    expect(await inflight).toBe(5);
    expect(await c.get("a", s.load)).toBe(4);
    expect(s.loads).toBe(2);
  });

  it("concurrent misses share one load, which is stored (single flight)", async () => {
    const f = feed();
    const c = new InvalidatingCache<number>(f, "balance");
    const s = source(5);
    const release = s.hold();
    const readers = Array.from({ length: 16 }, () => c.get("a", s.load));
    release();
    expect(await Promise.all(readers)).toEqual(Array(16).fill(5));
    expect(s.loads).toBe(1);
    expect(await c.get("a", s.load)).toBe(5);
    expect(s.loads).toBe(1);
    expect(c.reads).toEqual({ hit: 1, joined: 15, loaded: 1, readThrough: 0 });
  });

  it("under steady concurrency the cache fills (before, each miss's newer load voided the older ones' stores)", async () => {
    const f = feed();
    const c = new InvalidatingCache<number>(f, "balance");
    let loads = 0;
    // A database that answers one query at a time, each after a turn of the event loop (PGlite's worker).
    let queue = Promise.resolve();
    const load = () => {
      loads++;
      const answer = queue.then(() => new Promise<number>((r) => setImmediate(() => r(5))));
      queue = answer.then(() => undefined);
      return answer;
    };
    // 16 clients in a closed loop, each asking again as soon as it is answered.
    await Promise.all(Array.from({ length: 16 }, async () => { for (let i = 0; i < 20; i++) await c.get("a", load); }));
    expect(loads).toBe(1);
    expect(c.reads.hit).toBe(320 - 16);
  });

  it("a reader after an invalidation does not join the load from before it", async () => {
    const f = feed();
    const c = new InvalidatingCache<number>(f, "balance");
    const s = source(5);
    const release = s.hold();
    const before = c.get("a", s.load);
    s.set(4);
    f.change("balance", "a");
    const after = c.get("a", s.load);
    release();
    expect(await before).toBe(5);
    expect(await after).toBe(4);
    expect(await c.get("a", s.load)).toBe(4);
    expect(s.loads).toBe(2);
  });

  it("while a write is announced and not yet committed, the key is neither served nor stored", async () => {
    const f = feed();
    const c = new InvalidatingCache<number>(f, "balance", 100, 60_000);
    const s = source(5);
    await c.get("a", s.load);
    f.pending("balance", "a");
    await c.get("a", s.load);
    await c.get("a", s.load);
    expect(s.loads).toBe(3);
    s.set(4);
    f.change("balance", "a"); // the commit's notification
    expect(await c.get("a", s.load)).toBe(4);
    expect(await c.get("a", s.load)).toBe(4);
    expect(s.loads).toBe(4);
  });

  it("an announcement with no commit (rollback) stops blocking after its time-out", async () => {
    const f = feed();
    const c = new InvalidatingCache<number>(f, "balance", 100, 30);
    const s = source(5);
    f.pending("balance", "a");
    await c.get("a", s.load);
    await new Promise((r) => setTimeout(r, 60));
    await c.get("a", s.load);
    await c.get("a", s.load);
    expect(s.loads).toBe(2);
  });

  it("reads through while the feed is not live, and a reset forgets everything", async () => {
    const f = feed();
    const c = new InvalidatingCache<number>(f, "balance");
    const s = source(5);
    await c.get("a", s.load);
    f.live = false;
    s.set(3);
    expect(await c.get("a", s.load)).toBe(3);
    expect(await c.get("a", s.load)).toBe(3);
    f.reset();
    f.live = true;
    expect(c.size).toBe(0);
    expect(await c.get("a", s.load)).toBe(3);
    expect(s.loads).toBe(4);
  });

  it("does not cache absence, and stays within its size bound", async () => {
    const f = feed();
    const c = new InvalidatingCache<number>(f, "balance", 3);
    let misses = 0;
    const none = async () => {
      misses++;
      return undefined;
    };
    await c.get("x", none);
    await c.get("x", none);
    expect(misses).toBe(2);
    for (const k of ["a", "b", "c", "d", "e"]) await c.get(k, async () => 1);
    expect(c.size).toBe(3);
  });
});
