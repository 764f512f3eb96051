import { PerformanceObserver, constants } from "node:perf_hooks";
import { getHeapStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/**
 * Whether the V8 heap is close to its limit, judged after each full garbage collection: the only moment the
 * used size is the live size and not live plus garbage. Shedding starts when live data fills `shedAt` of
 * the limit and stops once a later collection finds it at or below `resumeAt` (hysteresis, so one request
 * more or less does not flip it).
 *
 * Why: the service starts with a heap cap (package.json, docs/performance.md), and a capped heap that keeps
 * admitting work under pressure ends in an out-of-memory exit that drops every request in flight. Refusing
 * new work for a moment (503 + Retry-After, src/http/admission.ts) lets the work in flight finish.
 *
 * While shedding, little is allocated, so V8 may not run another full collection for a long time and the
 * memory the finished requests left behind would never be seen as free: every `recheckMs` the watch either
 * finds the whole heap (live plus garbage) below the resume line, or runs a full collection itself.
 */
export interface MemoryPressure {
  readonly shedding: boolean;
  /** The heap's limit in bytes (`--max-old-space-size` plus the young generation). */
  readonly limitBytes: number;
  /** Live bytes found by the last full collection (0 before the first). */
  readonly liveBytes: number;
  stop(): void;
}

export interface MemoryPressureOptions {
  /** Fraction of the limit (0-1) at which shedding starts; 0 turns the watch off. */
  shedAt: number;
  /** Fraction at or below which it stops (default: 15 points below shedAt). */
  resumeAt?: number;
  /** Defaults to V8's heap_size_limit; tests set a small one. */
  limitBytes?: number;
  /** While shedding, how often to look again (default 1 s). */
  recheckMs?: number;
  onChange?: (shedding: boolean, liveBytes: number, limitBytes: number) => void;
}

/** V8's gc(), reached without starting node with --expose-gc; made only once something sheds. */
let fullCollection: (() => void) | null = null;
function collectNow() {
  if (!fullCollection) {
    setFlagsFromString("--expose-gc");
    fullCollection = runInNewContext("gc") as () => void;
  }
  fullCollection();
}

export function watchMemoryPressure(opts: MemoryPressureOptions): MemoryPressure {
  const limitBytes = opts.limitBytes ?? getHeapStatistics().heap_size_limit;
  const resumeAt = opts.resumeAt ?? Math.max(0, opts.shedAt - 0.15);
  const state = { shedding: false, liveBytes: 0 };
  let recheck: NodeJS.Timeout | null = null;
  const set = (shedding: boolean) => {
    if (shedding === state.shedding) return;
    state.shedding = shedding;
    if (shedding) {
      recheck = setInterval(() => {
        if (getHeapStatistics().used_heap_size / limitBytes <= resumeAt) set(false);
        else collectNow(); // the observer judges its result
      }, opts.recheckMs ?? 1000);
      recheck.unref();
    } else if (recheck) {
      clearInterval(recheck);
      recheck = null;
    }
    opts.onChange?.(shedding, state.liveBytes, limitBytes);
  };
  const observer = new PerformanceObserver((list) => {
    const full = list.getEntries().some((e) => ((e as { detail?: { kind?: number } }).detail?.kind ?? 0) & constants.NODE_PERFORMANCE_GC_MAJOR);
    if (!full) return;
    state.liveBytes = getHeapStatistics().used_heap_size;
    const share = state.liveBytes / limitBytes;
    set(state.shedding ? share > resumeAt : share >= opts.shedAt);
  });
  if (opts.shedAt > 0) observer.observe({ entryTypes: ["gc"] });
  return {
    get shedding() {
      return state.shedding;
    },
    get liveBytes() {
      return state.liveBytes;
    },
    limitBytes,
    stop() {
      observer.disconnect();
      if (recheck) clearInterval(recheck);
    },
  };
}
