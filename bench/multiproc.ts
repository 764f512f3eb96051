/**
 * `npm run bench:multiproc [-- --quick] [--seconds=N]`: several processes on one PostgreSQL (issue 23).
 *
 * Verification (`POST /api/v1/intent`, rules judge) with one account and with 64 accounts (each connection
 * rotates through 64 API keys), measured three ways in one run: one process reached directly, one process
 * behind the round-robin proxy (test/helpers/http-proxy.ts, running in this bench process), and three
 * processes behind it. Same-run baselines: bench/baseline-server.ts's constant JSON and one INSERT on the same
 * PostgreSQL. CPU per request sums every service process and the proxy (this process; autocannon runs in its
 * own). The processes run without a chain (SANDBOX=false, no BASE_RPC_URL) and without anchoring: these
 * rows are about the API and the database.
 *
 * Then the rate limiter's cost per check, in process: `take` on each store (memory, postgres on the same
 * database, redis at REDIS_URL or the local server if it answers), one caller at a time and 16 at once.
 */
import pg from "pg";
import { combine, measure, type LoadOptions, type Measured } from "./lib/load";
import { cpuUs } from "./lib/proc";
import { postgresReachable, startBaseline, startService, type Proc } from "./lib/service";
import { createAccount, VERIFY_SMALL } from "./lib/fixtures";
import { startRoundRobinProxy, type RoundRobinProxy } from "../test/helpers/http-proxy";
import { openDatabase } from "../src/db/client";
import { memoryRateLimiter } from "../src/rate-limits/memory";
import { postgresRateLimiter } from "../src/rate-limits/postgres";
import { redisRateLimiter } from "../src/rate-limits/redis";
import type { RateLimiter } from "../src/rate-limits";

const argv = process.argv.slice(2);
const flag = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
const QUICK = argv.includes("--quick");
const SECONDS = Number(flag("seconds") ?? (QUICK ? 3 : 8));
const WARM = QUICK ? 1 : 2;
const CONNECTIONS = 16;
const PG_URL = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

if (!(await postgresReachable(PG_URL))) {
  console.log(`PostgreSQL at ${PG_URL.replace(/\/\/[^@]*@/, "//")} is not reachable: nothing to measure`);
  process.exit(0);
}

const fmt = (m: Measured) =>
  `${m.rps.toFixed(0).padStart(6)} req/s  p50 ${String(m.p50).padStart(4)} ms  p99 ${String(m.p99).padStart(4)} ms  CPU ${(m.cpuUsPerRequest / 1000).toFixed(2)} ms/req  (${m.total} req, ${m.failed} failed)`;

/** One measurement after a warm-up; CPU summed over `pids` and this process (the proxy). */
async function run(label: string, opts: Omit<LoadOptions, "connections" | "duration">, pids: number[]): Promise<Measured> {
  await measure({ ...opts, connections: CONNECTIONS, duration: WARM });
  const before = pids.reduce((s, p) => s + cpuUs(p), 0);
  const self = process.cpuUsage();
  const m = await measure({ ...opts, connections: CONNECTIONS, duration: SECONDS });
  const used = pids.reduce((s, p) => s + cpuUs(p), 0) - before;
  const own = process.cpuUsage(self);
  const m2 = { ...m, cpuUsPerRequest: m.total ? (used + own.user + own.system) / m.total : 0 };
  console.log(`  ${label.padEnd(44)} ${fmt(m2)}`);
  if (m.failed) console.log(`  ${"".padEnd(44)} warning: ${m.failed} requests failed`);
  return m2;
}

const schema = `bench_mp_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 7)}`;
const shared = {
  DATABASE_URL: PG_URL,
  DATABASE_SCHEMA: schema,
  SANDBOX: "false",
  ANCHORING: "false",
  MASTER_KEY: "ab".repeat(32),
  JUDGE_SIGNING_KEY: `0x${"cd".repeat(32)}`,
};
const started = Date.now();
console.log(`Arbiter multi-process bench${QUICK ? " (quick)" : ""}: ${CONNECTIONS} connections, ${WARM}s warm-up + ${SECONDS}s per measurement, Node ${process.version}, ${(await import("node:os")).cpus().length} cores`);

const base = await startBaseline({ kind: "postgres", url: PG_URL });
const procs: Proc[] = [];
let proxy: RoundRobinProxy | null = null;
const rows: { title: string; m: Measured; vs?: string }[] = [];
try {
  const baseOpts = (route: string) => ({ url: `${base.url}${route}`, method: "GET" as const, headers: {} });
  const before = await run("baseline: constant JSON", baseOpts("/const"), [base.pid]);
  const insertOpts = { url: `${base.url}/insert`, method: "POST" as const, headers: { "content-type": "application/json" }, body: JSON.stringify({ n: 1, note: "bench" }) };
  const insBefore = await run("baseline: one INSERT", insertOpts, [base.pid]);

  // The first process migrates the schema; the other two start on it.
  procs.push(await startService({ kind: "postgres", url: PG_URL }, shared));
  procs.push(...(await Promise.all([1, 2].map(() => startService({ kind: "postgres", url: PG_URL }, shared)))));
  const keys: string[] = [];
  for (let i = 0; i < 64; i++) keys.push((await createAccount(procs[0].url)).apiKey);
  const body = JSON.stringify(VERIFY_SMALL);
  const verify = (url: string, many: boolean): Omit<LoadOptions, "connections" | "duration"> => ({
    url: `${url}/api/v1/intent`,
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": keys[0] },
    body,
    ...(many ? { rotate: keys.map((k) => ({ headers: { "x-api-key": k } })) } : {}),
  });

  const one = procs[0];
  const oneDirect = await run("1 process, direct: verification", verify(one.url, false), [one.pid]);
  const oneDirect64 = await run("1 process, direct: 64 accounts", verify(one.url, true), [one.pid]);
  proxy = await startRoundRobinProxy([one.url]);
  const oneProxy = await run("1 process behind the proxy: verification", verify(proxy.url, false), [one.pid]);
  const oneProxy64 = await run("1 process behind the proxy: 64 accounts", verify(proxy.url, true), [one.pid]);
  await proxy.close();
  proxy = await startRoundRobinProxy(procs.map((p) => p.url));
  const pids = procs.map((p) => p.pid);
  const three = await run("3 processes behind the proxy: verification", verify(proxy.url, false), pids);
  const three64 = await run("3 processes behind the proxy: 64 accounts", verify(proxy.url, true), pids);

  const after = await run("baseline: constant JSON", baseOpts("/const"), [base.pid]);
  const insAfter = await run("baseline: one INSERT", insertOpts, [base.pid]);
  const constant = combine([before, after]);
  const insert = combine([insBefore, insAfter]);
  const pct = (a: Measured, b: Measured) => `${((a.rps / b.rps) * 100).toFixed(0)}%`;
  rows.push(
    { title: "baseline: bare Hono route, constant JSON", m: constant },
    { title: "baseline: bare route, one INSERT", m: insert },
    { title: "verification, 1 process (direct)", m: oneDirect, vs: `${pct(oneDirect, insert)} of INSERT` },
    { title: "verification, 1 process behind the proxy", m: oneProxy, vs: `${pct(oneProxy, oneDirect)} of 1 process direct` },
    { title: "verification, 3 processes behind a proxy", m: three, vs: `${pct(three, oneDirect)} of 1 process direct, ${pct(three, oneProxy)} of 1 behind the proxy` },
    { title: "64 accounts, 1 process (direct)", m: oneDirect64, vs: `${pct(oneDirect64, oneDirect)} of one account` },
    { title: "64 accounts, 1 process behind the proxy", m: oneProxy64, vs: `${pct(oneProxy64, oneDirect64)} of 1 process direct` },
    { title: "64 accounts, 3 processes behind a proxy", m: three64, vs: `${pct(three64, oneDirect64)} of 1 process direct, ${pct(three64, oneProxy64)} of 1 behind the proxy` },
  );
} finally {
  await proxy?.close();
  for (const p of procs) await p.stop();
  await base.stop();
}

console.log("\n### Several processes on one PostgreSQL (verification, rules judge)\n");
console.log("| scenario | req/s | p50 ms | p99 ms | CPU ms/req (all processes + proxy) | vs |");
console.log("|---|---:|---:|---:|---:|---|");
for (const r of rows) console.log(`| ${r.title} | ${r.m.rps.toFixed(0)} | ${r.m.p50} | ${r.m.p99} | ${(r.m.cpuUsPerRequest / 1000).toFixed(2)} | ${r.vs ?? ""} |`);

// The rate limiter's cost per check.
async function perCheck(limiter: RateLimiter, n: number, width: number): Promise<number> {
  const keys = Array.from({ length: 64 }, (_, i) => `bench-${limiter.store}-${i}`);
  let next = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < n) await limiter.take(keys[next++ % keys.length]);
  }));
  return ((performance.now() - t0) * 1000) / n;
}
const db = await openDatabase({ url: PG_URL, schema });
const limiters: RateLimiter[] = [memoryRateLimiter({ perMinute: 1e9 }), postgresRateLimiter({ perMinute: 1e9, db: db.db, pipelined: db.pipelined })];
const redisUp = await (async () => {
  const r = redisRateLimiter({ perMinute: 1e9, url: REDIS_URL });
  const ok = await Promise.race([r.take("probe").then(() => true, () => false), new Promise<boolean>((res) => setTimeout(() => res(false), 2_000))]);
  if (ok) limiters.push(r);
  else await r.close();
  return ok;
})();
const n = QUICK ? 2_000 : 10_000;
console.log(`\n### Rate limiter: cost per check (${n} takes over 64 keys, in process)\n`);
console.log("| store | one caller: µs per check | 16 callers: µs per check (wall) |");
console.log("|---|---:|---:|");
for (const l of limiters) {
  await perCheck(l, Math.min(500, n), 1); // warm-up
  const seq = await perCheck(l, n, 1);
  const par = await perCheck(l, n, 16);
  console.log(`| ${l.store} | ${seq.toFixed(1)} | ${par.toFixed(1)} |`);
  await l.close();
}
if (!redisUp) console.log(`| redis | not reachable at ${REDIS_URL} | |`);
await db.close();
const c = new pg.Client({ connectionString: PG_URL });
await c.connect();
await c.query(`drop schema if exists "${schema}" cascade`).finally(() => c.end());
console.log(`\nfinished in ${((Date.now() - started) / 1000).toFixed(0)} s`);
