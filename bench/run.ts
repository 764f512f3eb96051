/**
 * `npm run bench [-- --quick] [--db=pglite|postgres|all] [--only=id,id] [--worker] [--out=file.json]`
 *
 * Starts the real service (`src/main.ts`: sandbox chain, rules judge, rate limiting off) on the embedded
 * database and on PostgreSQL (DATABASE_URL, default the local server; skipped when unreachable), and a
 * baseline server on the same kind of database; drives each scenario with autocannon in a separate
 * process after a warm-up; prints req/s, p50/p99, the server's CPU per request and peak RSS, and ratios
 * against the baselines measured in the same run. Loopback only. Everything here shares 2 cores with the
 * load generator (and, on these machines, with other people's work): read the ratios and CPU/request,
 * not the absolute figures. `--worker` adds the comparison of PGlite on the event loop with PGlite on a
 * worker thread (PGLITE_WORKER), alternating the two round by round (~3 more minutes).
 * BENCH_NODE_OPTIONS is passed to the service as NODE_OPTIONS (e.g. a V8 heap cap, docs/performance.md);
 * BENCH_SERVICE_ENV (a JSON object) adds environment variables to the service.
 */
import { writeFileSync } from "node:fs";
import { combine, measure, type LoadOptions, type Measured } from "./lib/load";
import { postgresReachable, startBaseline, startService, type DbTarget, type Proc } from "./lib/service";
import { judgeCost, JUDGE_CASES } from "./lib/judge-cost";
import { scenarios, setup, type Ctx, type Scenario } from "./scenarios";
import { printCosts, printTable, type Row } from "./report";

const argv = process.argv.slice(2);
const flag = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
const QUICK = argv.includes("--quick");
const SECONDS = Number(flag("seconds") ?? (QUICK ? 3 : 8));
const WARM = QUICK ? 1 : 2;
const CONNECTIONS = 16;
const ONLY = flag("only")?.split(",");
const DB = flag("db") ?? "all";
const PG_URL = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

const fmt = (m: Measured) =>
  `${m.rps.toFixed(0).padStart(6)} req/s  p50 ${String(m.p50).padStart(4)} ms  p99 ${String(m.p99).padStart(4)} ms  CPU ${(m.cpuUsPerRequest / 1000).toFixed(2)} ms/req  RSS ${m.peakRssMiB.toFixed(0)} MiB  (${m.total} req, ${m.failed} failed)`;

async function run(label: string, opts: LoadOptions, warm = true): Promise<Measured> {
  if (warm && !opts.amount) await measure({ ...opts, duration: WARM });
  const m = await measure(opts);
  console.log(`  ${label.padEnd(34)} ${fmt(m)}`);
  if (m.failed) console.log(`  ${"".padEnd(34)} warning: ${m.failed} requests failed`);
  return m;
}

async function baselines(base: Proc) {
  const common = { connections: CONNECTIONS, duration: SECONDS, serverPid: base.pid };
  const constant = await run("baseline: constant JSON", { ...common, url: `${base.url}/const`, method: "GET", headers: {} });
  const insert = await run("baseline: one INSERT", { ...common, url: `${base.url}/insert`, method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ n: 1, note: "bench" }) });
  return { constant, insert };
}

async function benchDatabase(db: DbTarget, label: string, only: Scenario[]): Promise<Row[]> {
  console.log(`\n== ${label}`);
  const base = await startBaseline(db);
  let svc: Proc | null = null;
  try {
    const before = await baselines(base);
    svc = await startService(db);
    const ctx = await setup(svc, { quick: QUICK });
    const rows: Row[] = [];
    const results = new Map<string, Measured>();
    for (const s of only) {
      const opts = await s.prepare(ctx);
      const m = await run(s.title, { connections: CONNECTIONS, duration: SECONDS, serverPid: svc.pid, ...opts }, !s.noWarmup);
      results.set(s.id, m);
      rows.push({ db: label, id: s.id, title: s.title, m, baseline: s.baseline, target: s.target });
    }
    // Latency at half of the measured peak (open loop): what a verification adds when not saturated. Four
    // connections: autocannon starts every connection's rate timer together, so with 16 the requests arrive
    // in bursts of 16 and the last of each burst queues behind the other 15.
    const peak = results.get("verify-small");
    if (peak) {
      const s = only.find((x) => x.id === "verify-small")!;
      const opts = await s.prepare(ctx);
      const rate = Math.max(1, Math.round(peak.rps / 2));
      const half = await run("POST /intent at half of peak", { connections: 4, duration: SECONDS, serverPid: svc.pid, ...opts, overallRate: rate }, false);
      const constHalf = await run("constant JSON at the same rate", { url: `${base.url}/const`, method: "GET", headers: {}, connections: 4, duration: SECONDS, serverPid: base.pid, overallRate: rate }, false);
      const alone = await run("POST /intent, one client", { connections: 1, duration: SECONDS, serverPid: svc.pid, ...opts });
      const constAlone = await run("constant JSON, one client", { url: `${base.url}/const`, method: "GET", headers: {}, connections: 1, duration: SECONDS, serverPid: base.pid });
      rows.push(
        { db: label, id: "verify-half-peak", title: `POST /api/v1/intent at ${rate} req/s (half of peak), 4 connections`, m: half, baseline: null },
        { db: label, id: "const-half-peak", title: `baseline: constant JSON at ${rate} req/s, 4 connections`, m: constHalf, baseline: null },
        { db: label, id: "verify-alone", title: "POST /api/v1/intent, one client (closed loop)", m: alone, baseline: null },
        { db: label, id: "const-alone", title: "baseline: constant JSON, one client", m: constAlone, baseline: null },
      );
    }
    const after = await baselines(base);
    const constant = combine([before.constant, after.constant]);
    const insert = combine([before.insert, after.insert]);
    rows.unshift(
      { db: label, id: "baseline-const", title: "baseline: bare Hono route, constant JSON", m: constant, baseline: null },
      { db: label, id: "baseline-insert", title: "baseline: bare route, one INSERT", m: insert, baseline: null },
    );
    for (const r of rows) if (r.baseline) r.ratio = r.m.rps / (r.baseline === "const" ? constant.rps : insert.rps);
    ctx.costs.db = label;
    costs.push(ctx.costs);
    return rows;
  } finally {
    await svc?.stop();
    await base.stop();
  }
}

const costs: Awaited<ReturnType<typeof setup>>["costs"][] = [];

/**
 * PGlite on the event loop vs on a worker thread (PGLITE_WORKER): both services up at once (the idle one
 * costs nothing), measured in alternating order round after round, so drift on a shared machine hits both.
 */
async function workerComparison(rounds: number) {
  console.log(`\n== PGlite on the event loop vs on a worker thread (${rounds} alternating rounds)`);
  const modes = [
    { name: "event loop", db: { kind: "pglite", worker: false } as DbTarget },
    { name: "worker", db: { kind: "pglite", worker: true } as DbTarget },
  ];
  const procs: Proc[] = [];
  try {
    const runs: { id: string; title: string; opts: ((i: number) => Promise<LoadOptions>) }[] = [];
    const ctxs: Ctx[] = [];
    const bases: Proc[] = [];
    for (const m of modes) {
      const svc = await startService(m.db);
      procs.push(svc);
      ctxs.push(await setup(svc, { quick: QUICK, minimal: true }));
      const base = await startBaseline(m.db);
      procs.push(base);
      bases.push(base);
    }
    runs.push({
      id: "baseline-insert",
      title: "baseline: one INSERT",
      opts: async (i) => ({ url: `${bases[i].url}/insert`, method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ n: 1 }), connections: CONNECTIONS, duration: SECONDS, serverPid: bases[i].pid }),
    });
    for (const id of ["verify-small", "verify-4k", "get-intent", "get-credits", "mcp-verify"]) {
      const s = scenarios.list.find((x) => x.id === id)!;
      runs.push({ id, title: s.title, opts: async (i) => ({ connections: CONNECTIONS, duration: SECONDS, serverPid: ctxs[i].svc.pid, ...(await s.prepare(ctxs[i])) }) });
    }
    const table: { title: string; m: Measured[] }[] = [];
    for (const r of runs) {
      const per: Measured[][] = [[], []];
      for (let round = 0; round < rounds; round++) {
        for (const i of round % 2 === 0 ? [0, 1] : [1, 0]) per[i].push(await run(`${r.title} [${modes[i].name}]`, await r.opts(i), round === 0));
      }
      table.push({ title: r.title, m: per.map(combine) });
    }
    console.log("\n### PGlite: event loop vs worker thread\n");
    console.log("| scenario | event loop req/s | worker req/s | worker / event loop | p99 ms (loop / worker) | process CPU ms/req (loop / worker) |");
    console.log("|---|---:|---:|---:|---:|---:|");
    for (const r of table) {
      const [a, b] = r.m;
      console.log(`| ${r.title} | ${a.rps.toFixed(0)} | ${b.rps.toFixed(0)} | ${((b.rps / a.rps) * 100).toFixed(0)}% | ${a.p99} / ${b.p99} | ${(a.cpuUsPerRequest / 1000).toFixed(2)} / ${(b.cpuUsPerRequest / 1000).toFixed(2)} |`);
    }
  } finally {
    for (const p of procs) await p.stop();
  }
}

const started = Date.now();
console.log(`Arbiter benchmarks${QUICK ? " (quick)" : ""}: ${CONNECTIONS} connections, ${WARM}s warm-up + ${SECONDS}s per measurement, Node ${process.version}, ${(await import("node:os")).cpus().length} cores`);

const judge = await judgeCost(QUICK ? 1 : 3, scenarios.verifyRequest);
console.log(`\nrules judge alone: ${judge.casesPerSecond.toFixed(0)} cases/s over ${judge.cases} cases of ${JUDGE_CASES}; one call on the bench request p50 ${judge.oneP50Ms.toFixed(3)} ms, p99 ${judge.oneP99Ms.toFixed(3)} ms`);

const selected = scenarios.list.filter((s) => !ONLY || ONLY.includes(s.id));
const targets: { db: DbTarget; label: string; list: Scenario[] }[] = [];
if (DB === "all" || DB === "pglite") targets.push({ db: { kind: "pglite" }, label: "PGlite (embedded, default settings)", list: selected });
if (DB === "all" || DB === "postgres") {
  if (await postgresReachable(PG_URL)) targets.push({ db: { kind: "postgres", url: PG_URL }, label: "PostgreSQL 15", list: selected });
  else console.log(`\nPostgreSQL at ${PG_URL.replace(/\/\/[^@]*@/, "//")} is not reachable: skipped`);
}

const rows: Row[] = [];
for (const t of targets) rows.push(...(await benchDatabase(t.db, t.label, t.list)));

if (argv.includes("--worker")) await workerComparison(QUICK ? 1 : 2);
printTable(rows, judge);
printCosts(costs);
console.log(`\nfinished in ${((Date.now() - started) / 1000).toFixed(0)} s`);
const out = flag("out");
if (out) writeFileSync(out, JSON.stringify({ when: new Date().toISOString(), quick: QUICK, judge, rows, costs }, (_k, v) => (typeof v === "bigint" ? v.toString() : v), 2));
