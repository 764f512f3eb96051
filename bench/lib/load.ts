import { createRequire } from "node:module";

/** The slice of autocannon's programmatic API the benches use (the package ships no types). */
export interface LoadOptions {
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
  connections: number;
  duration: number;
  /** Load runs in worker threads so it does not share the server's event loop. */
  workers?: number;
}
interface Histogram {
  average: number;
  p50: number;
  p99: number;
}
export interface LoadResult {
  requests: Histogram & { total: number };
  latency: Histogram;
  non2xx: number;
  errors: number;
  timeouts: number;
}

const autocannon = createRequire(import.meta.url)("autocannon") as (opts: LoadOptions) => Promise<LoadResult>;

export interface Measured {
  rps: number;
  p50: number;
  p99: number;
  total: number;
  failed: number;
}

export async function measure(opts: LoadOptions): Promise<Measured> {
  const r = await autocannon(opts);
  return { rps: r.requests.total / opts.duration, p50: r.latency.p50, p99: r.latency.p99, total: r.requests.total, failed: r.non2xx + r.errors + r.timeouts };
}
