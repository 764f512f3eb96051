import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sampleProcess } from "./proc";

/** One request of a rotating set (each connection takes the next one): distinct bodies, keys or payments. */
export interface RequestTemplate {
  method?: "GET" | "POST";
  path?: string;
  headers?: Record<string, string>;
  body?: string;
}

/** The slice of autocannon's options the benches use. */
export interface LoadOptions {
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
  connections: number;
  /** Seconds; ignored when `amount` is set. */
  duration: number;
  /** A fixed number of requests instead of a duration (one-shot work such as pre-signed payments). */
  amount?: number;
  /** Requests per second over all connections (open loop); unset = as fast as answers come (closed loop). */
  overallRate?: number;
  /** Rotated in order, each used once per lap; overrides method/headers/body/path per request. */
  rotate?: RequestTemplate[];
  /** The server's pid: its RSS and CPU time are sampled during the run. */
  serverPid?: number;
}

export interface Measured {
  rps: number;
  p50: number;
  p99: number;
  total: number;
  failed: number;
  /** The server process's CPU time per completed request, in microseconds (0 without serverPid). */
  cpuUsPerRequest: number;
  /** Peak resident set size of the server process during the run, MiB (0 without serverPid). */
  peakRssMiB: number;
}

const ROOT = path.resolve(import.meta.dirname, "../..");

// autocannon runs in a child process: it must not share the server's event loop or the bench process's.
// Options travel in a file (pre-signed payment headers exceed the argv size limit). setupRequest cannot
// cross a process boundary, so the rotation is rebuilt here from plain templates.
const RUNNER = `
const opts = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const rotate = opts.rotate; delete opts.rotate;
if (rotate) {
  let i = 0;
  opts.requests = [{ setupRequest: (req) => {
    const t = rotate[i++ % rotate.length];
    return { ...req, method: t.method ?? req.method, path: t.path ?? req.path, headers: { ...req.headers, ...t.headers }, body: t.body ?? req.body };
  } }];
}
require("autocannon")(opts).then((r) => process.stdout.write(JSON.stringify(r)), (e) => { console.error(e); process.exit(1); });`;

export async function measure(opts: LoadOptions): Promise<Measured> {
  const dir = mkdtempSync(path.join(tmpdir(), "arbiter-load-"));
  const file = path.join(dir, "opts.json");
  const { serverPid, ...autocannon } = opts;
  writeFileSync(file, JSON.stringify({ ...autocannon, ...(opts.amount ? { duration: undefined } : {}) }));
  const sampler = serverPid ? sampleProcess(serverPid) : null;
  const started = performance.now();
  try {
    const out = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ["-e", RUNNER, file], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout))),
    );
    const elapsed = (performance.now() - started) / 1000;
    const usage = sampler?.stop();
    const r = JSON.parse(out) as { requests: { total: number }; latency: { p50: number; p99: number }; non2xx: number; errors: number; timeouts: number; duration: number };
    const total = r.requests.total;
    return {
      // A fixed amount finishes when it finishes: divide by autocannon's own measured duration.
      rps: total / (opts.amount ? r.duration || elapsed : opts.duration),
      p50: r.latency.p50,
      p99: r.latency.p99,
      total,
      failed: r.non2xx + r.errors + r.timeouts,
      cpuUsPerRequest: usage && total ? usage.cpuUs / total : 0,
      peakRssMiB: usage?.peakRssMiB ?? 0,
    };
  } finally {
    sampler?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Mean throughput and CPU, worst latency and RSS over repeated runs of one scenario. */
export function combine(runs: Measured[]): Measured {
  const total = runs.reduce((s, r) => s + r.total, 0);
  return {
    rps: runs.reduce((s, r) => s + r.rps, 0) / runs.length,
    p50: Math.max(...runs.map((r) => r.p50)),
    p99: Math.max(...runs.map((r) => r.p99)),
    total,
    failed: runs.reduce((s, r) => s + r.failed, 0),
    cpuUsPerRequest: runs.reduce((s, r) => s + r.cpuUsPerRequest * r.total, 0) / Math.max(total, 1),
    peakRssMiB: Math.max(...runs.map((r) => r.peakRssMiB)),
  };
}
