import { execFile } from "node:child_process";
import path from "node:path";

/** The slice of autocannon's options the benches use. */
export interface LoadOptions {
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
  connections: number;
  duration: number;
}

export interface Measured {
  rps: number;
  p50: number;
  p99: number;
  total: number;
  failed: number;
  /** This process's CPU time per completed request, in microseconds. */
  cpuUsPerRequest: number;
}

const ROOT = path.resolve(import.meta.dirname, "../..");
// autocannon runs in a child process: it must not share the server's event loop, and keeping it out of
// this process makes process.cpuUsage() the server's own CPU time. That figure is stable on a busy
// machine where req/s and latency are not (other processes compete for the same cores).
const RUNNER = `require("autocannon")(JSON.parse(process.argv[1])).then((r) => process.stdout.write(JSON.stringify(r)), (e) => { console.error(e); process.exit(1); })`;

export async function measure(opts: LoadOptions): Promise<Measured> {
  const cpu = process.cpuUsage();
  const out = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, ["-e", RUNNER, JSON.stringify(opts)], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 }, (err, stdout) => (err ? reject(err) : resolve(stdout))),
  );
  const used = process.cpuUsage(cpu);
  const r = JSON.parse(out) as { requests: { total: number }; latency: { p50: number; p99: number }; non2xx: number; errors: number; timeouts: number };
  const total = r.requests.total;
  return {
    rps: total / opts.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    total,
    failed: r.non2xx + r.errors + r.timeouts,
    cpuUsPerRequest: total ? (used.user + used.system) / total : 0,
  };
}
