import { getHeapStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { watchMemoryPressure } from "../../src/observability/memory-pressure";

// A real full collection on demand: V8's gc(), exposed for this test only.
setFlagsFromString("--expose-gc");
const fullGc = runInNewContext("gc") as () => void;
const settle = () => new Promise((r) => setTimeout(r, 50)); // GC entries reach observers asynchronously
const MiB = 1024 * 1024;

/**
 * A watch whose limit is 40 MiB above what is live now, then 30 MiB retained and a full collection: live
 * data at >= 75% of the limit, so it sheds. `release()` drops the retained data (without collecting).
 */
async function shedding(opts: { recheckMs?: number } = {}) {
  fullGc();
  const base = getHeapStatistics().used_heap_size;
  const changes: boolean[] = [];
  const p = watchMemoryPressure({ shedAt: 0.7, resumeAt: 0.5, limitBytes: base + 40 * MiB, onChange: (s) => changes.push(s), ...opts });
  try {
    fullGc();
    await settle();
    expect(p.shedding).toBe(false);
    expect(p.liveBytes).toBeGreaterThan(0);
    let retained: number[][] | null = Array.from({ length: 30 }, () => new Array(MiB / 8).fill(1.5));
    fullGc();
    await settle();
    expect(p.shedding).toBe(true);
    expect(p.liveBytes).toBeGreaterThanOrEqual(base + 25 * MiB);
    expect(retained.length).toBe(30);
    return { p, changes, release: () => (retained = null) };
  } catch (err) {
    p.stop();
    throw err;
  }
}

describe("memory pressure, judged after full garbage collections", () => {
  it("starts shedding when live data passes shedAt of the limit and stops once a collection frees it", async () => {
    const { p, changes, release } = await shedding();
    try {
      release();
      fullGc();
      await settle();
      expect(p.shedding).toBe(false);
      expect(changes).toEqual([true, false]);
    } finally {
      p.stop();
    }
  });

  it("while shedding, it runs a full collection itself, so memory freed by finished work is seen without waiting for V8", async () => {
    const { p, changes, release } = await shedding({ recheckMs: 100 });
    try {
      release(); // no gc() from here on: the watch must collect on its own
      const deadline = Date.now() + 5000;
      while (p.shedding && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(p.shedding).toBe(false);
      expect(changes).toEqual([true, false]);
    } finally {
      p.stop();
    }
  });

  it("garbage does not count: a heap full of unreachable objects is not pressure", async () => {
    fullGc();
    const p = watchMemoryPressure({ shedAt: 0.7, limitBytes: getHeapStatistics().used_heap_size + 40 * MiB });
    try {
      for (let i = 0; i < 60; i++) new Array(MiB / 8).fill(i); // 60 MiB allocated, none of it kept
      fullGc();
      await settle();
      expect(p.shedding).toBe(false);
    } finally {
      p.stop();
    }
  });

  it("shedAt 0 turns the watch off", async () => {
    const p = watchMemoryPressure({ shedAt: 0, limitBytes: 1 });
    fullGc();
    await settle();
    expect(p.shedding).toBe(false);
    expect(p.liveBytes).toBe(0);
    p.stop();
  });
});
