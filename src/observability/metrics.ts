import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { CacheReads } from "../lib/invalidating-cache";

/** One registry per service instance (tests build several apps in one process). */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // Read caches report plain counters (src/lib/invalidating-cache.ts); they are turned into the metric at scrape.
  const caches = new Map<string, { reads: CacheReads; seen: CacheReads }>();
  const outcomes = ["hit", "joined", "loaded", "readThrough"] as const;
  return {
    registry,
    /** Reports a read cache's counters as arbiter_cache_reads_total{cache=name}. */
    observeCache(name: string, reads: CacheReads) {
      caches.set(name, { reads, seen: { hit: 0, joined: 0, loaded: 0, readThrough: 0 } });
    },
    cacheReads: new Counter({
      name: "arbiter_cache_reads_total",
      help: "Reads of the in-memory caches (API keys, balances) by outcome: hit (memory), joined (waited for a load in flight), loaded (database, then stored), readThrough (database, not stored: the change feed was not live or a write was pending)",
      labelNames: ["cache", "outcome"],
      registers: [registry],
      collect() {
        for (const [cache, c] of caches) {
          for (const outcome of outcomes) {
            const d = c.reads[outcome] - c.seen[outcome];
            if (d > 0) this.inc({ cache, outcome }, d);
            c.seen[outcome] = c.reads[outcome];
          }
        }
      },
    }),
    httpRequests: new Counter({ name: "arbiter_http_requests_total", help: "HTTP requests by route and status", labelNames: ["method", "route", "status"], registers: [registry] }),
    httpDuration: new Histogram({
      name: "arbiter_http_request_duration_seconds",
      help: "HTTP request latency by route and status",
      labelNames: ["method", "route", "status"],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
      registers: [registry],
    }),
    verifications: new Counter({ name: "arbiter_verifications_total", help: "Completed verifications by verdict", labelNames: ["verdict", "source"], registers: [registry] }),
    creditsDebited: new Counter({ name: "arbiter_credits_debited_total", help: "Credits debited", registers: [registry] }),
    creditsRefunded: new Counter({ name: "arbiter_credits_refunded_total", help: "Credits refunded after failed runs", registers: [registry] }),
    verificationBatchSize: new Histogram({
      name: "arbiter_verification_write_batch_runs",
      help: "Completed verification runs written per statement (group commit, src/verification/batch-writer.ts)",
      buckets: [1, 2, 4, 8, 16, 32, 64],
      registers: [registry],
    }),
    verificationWriteDuration: new Histogram({
      name: "arbiter_verification_write_seconds",
      help: "Time to write one batch of completed verification runs",
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registers: [registry],
    }),
    requestsShed: new Counter({ name: "arbiter_requests_shed_total", help: "API requests refused with 503 overloaded (src/http/admission.ts), by reason", labelNames: ["reason"], registers: [registry] }),
    memoryShedding: new Gauge({ name: "arbiter_memory_shedding", help: "1 while live heap data is above SHED_HEAP_PERCENT of the heap limit", registers: [registry] }),
    heapLimit: new Gauge({ name: "arbiter_heap_limit_bytes", help: "V8's heap size limit (--max-old-space-size plus the young generation)", registers: [registry] }),
    rateLimitStoreErrors: new Counter({ name: "arbiter_rate_limit_store_errors_total", help: "Rate-limit checks let through because the shared store (RATE_LIMIT_STORE) did not answer", registers: [registry] }),
    changeFeedLive: new Gauge({ name: "arbiter_change_feed_live", help: "1 while the change feed is known live (caches serve from memory); 0 while caches read through to the database", registers: [registry] }),
    changeFeedOutages: new Counter({ name: "arbiter_change_feed_outages_total", help: "Times the change feed stopped being live (connection ended, or its heartbeat did not come back)", registers: [registry] }),
    creditsToppedUp: new Counter({ name: "arbiter_credits_topped_up_total", help: "Credits bought over x402", registers: [registry] }),
  };
}
export type Metrics = ReturnType<typeof createMetrics>;
