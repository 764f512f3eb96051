/**
 * PostgreSQL really restarts under load (its own private cluster: initdb into a temp dir, a free loopback
 * port; the machine's shared server and DATABASE_URL are never used), while the service keeps running as
 * a real process (src/main.ts):
 * - `pg_ctl restart -m fast` (in-flight statements are cancelled, every connection dies), then a full
 *   outage: `pg_ctl stop -m fast`, 2 s with nothing listening, `pg_ctl start`;
 * - meanwhile only clean answers: 201/200, or 503 database_unavailable with Retry-After; never a 500;
 * - the same process survives (same pid, never exits) and, within a bounded time after the server is
 *   back, every request succeeds again on fresh connections, without restarting the service;
 * - read caches are not stale afterwards: the change feed LISTENs again, and a balance changed by SQL
 *   behind the service's back shows in GET /credits within 2 s;
 * - the books hold: every ledger sums to its balance, no negative balance, one debit per COMPLETED run,
 *   nothing PENDING, and every 201 the client saw is a stored COMPLETED run.
 * test/resilience/faults.test.ts covers the lighter fault (pg_terminate_backend on a shared server).
 */
import { execFile } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { appendFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ledgerMismatches } from "../../src/credits/ledger";
import { openDatabase } from "../../src/db/client";
import { freePort } from "../helpers/process";
import { ADMIN, call, startService, stop, until, type ServiceProcess } from "./helpers";

const BIN = "/usr/lib/postgresql/15/bin";
const HAVE_PG = existsSync(`${BIN}/initdb`);
const AS_ROOT = process.getuid?.() === 0;
const VERIFY = { intent: "Trade only BTC and ETH perpetuals on Hyperliquid. Max notional $2,000 per order.", action: "buy 0.01 BTC perpetual on Hyperliquid at market" };
const CREDITS = 100_000;
/** Credits an operator adds by SQL behind the service's back, after the restarts. */
const GRANT = 7;
/** After the server accepts connections again, every request started this much later must succeed. */
const RECOVERY_BOUND_MS = 2_000;
const run = promisify(execFile);

/** A private PostgreSQL 15 cluster in a temp dir; as root, its binaries run as the `postgres` user. */
class Cluster {
  readonly dir: string;
  readonly data: string;
  readonly log: string;
  port = 0;
  constructor() {
    this.dir = mkdtempSync(path.join(tmpdir(), "arbiter-pgrestart-"));
    this.data = path.join(this.dir, "data");
    this.log = path.join(this.dir, "postgres.log");
  }
  get url() {
    return `postgresql://postgres@127.0.0.1:${this.port}/postgres`;
  }

  private async pg(bin: string, args: string[]) {
    const cmd = AS_ROOT ? "runuser" : `${BIN}/${bin}`;
    const argv = AS_ROOT ? ["-u", "postgres", "--", `${BIN}/${bin}`, ...args] : args;
    // No PG* variables from the caller's environment: this cluster is addressed only by -D, -p and -k.
    return run(cmd, argv, { env: { PATH: process.env.PATH ?? "/usr/bin:/bin", LANG: "C", LC_ALL: "C" }, timeout: 60_000 });
  }

  async init() {
    if (AS_ROOT) {
      const { stdout } = await run("id", ["-u", "postgres"]);
      const { stdout: gid } = await run("id", ["-g", "postgres"]);
      chownSync(this.dir, Number(stdout.trim()), Number(gid.trim()));
    }
    this.port = await freePort();
    await this.pg("initdb", ["-D", this.data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"]);
    const conf = [
      "listen_addresses = '127.0.0.1'",
      `port = ${this.port}`,
      `unix_socket_directories = '${this.dir}'`,
      "fsync = off",
      "synchronous_commit = off",
      "full_page_writes = off",
      "max_connections = 40",
      "shared_buffers = 32MB",
    ];
    await appendFile(path.join(this.data, "postgresql.conf"), `\n${conf.join("\n")}\n`);
    if (AS_ROOT) await run("chown", ["-R", "postgres:", this.dir]);
  }

  start = () => this.pg("pg_ctl", ["-D", this.data, "-l", this.log, "-o", `-p ${this.port} -k ${this.dir}`, "start", "-w", "-t", "30"]);
  restart = () => this.pg("pg_ctl", ["-D", this.data, "-l", this.log, "-o", `-p ${this.port} -k ${this.dir}`, "restart", "-m", "fast", "-w", "-t", "30"]);
  stop = (mode: "fast" | "immediate" = "fast") => this.pg("pg_ctl", ["-D", this.data, "stop", "-m", mode, "-w", "-t", "30"]);

  /** One statement on a connection of its own (not the service's). */
  async query<R extends pg.QueryResultRow>(text: string, params: unknown[] = []): Promise<R[]> {
    const c = new pg.Client({ connectionString: this.url });
    await c.connect();
    try {
      return (await c.query<R>(text, params)).rows;
    } finally {
      await c.end();
    }
  }

  /** When the postmaster started: changes on every real restart. */
  startedAt = async () => (await this.query<{ t: string }>("select pg_postmaster_start_time()::text as t"))[0].t;

  /** Sessions LISTENing for change notifications (the service's cache feed, src/db/change-feed.ts, if any). */
  listeners = async () => (await this.query<{ n: number }>("select count(*)::int as n from pg_stat_activity where backend_type = 'client backend' and query ilike 'listen %'"))[0].n;

  async destroy() {
    if (existsSync(path.join(this.data, "postmaster.pid"))) await this.stop("immediate").catch(() => {});
    rmSync(this.dir, { recursive: true, force: true });
  }
}

interface Sample {
  kind: "intent" | "credits";
  startedAt: number;
  endedAt: number;
  status: number; // 0: the request itself failed (the service was unreachable)
  body: Record<string, unknown>;
  retryAfter: string | null;
  id?: string;
}

const ok = (s: Sample) => (s.kind === "intent" ? s.status === 201 : s.status === 200);

describe.skipIf(!HAVE_PG)(`PostgreSQL restarts under load (needs ${BIN}/initdb: PostgreSQL 15 server binaries)`, () => {
  let cluster: Cluster;
  let serviceDir: string | null = null;
  let svc: ServiceProcess | null = null;

  beforeAll(async () => {
    cluster = new Cluster();
    serviceDir = mkdtempSync(path.join(tmpdir(), "arbiter-pgrestart-svc-"));
    await cluster.init();
    await cluster.start();
    svc = await startService({
      DATA_DIR: serviceDir!,
      ADMIN_TOKEN: ADMIN,
      DATABASE_URL: cluster.url,
      SANDBOX: "false",
      JUDGE_PROVIDER: "rules",
      RATE_LIMIT_PER_MINUTE: "0",
      LOG_LEVEL: "warn",
    });
  });
  afterAll(async () => {
    try {
      await stop(svc, "SIGKILL");
    } finally {
      await cluster?.destroy();
      if (serviceDir) rmSync(serviceDir, { recursive: true, force: true });
    }
  });

  it("answers 201/200 or 503 during the outage, recovers without a restart, and the books hold", { timeout: 90_000 }, async () => {
    const service = svc!;
    const pid = service.child.pid;
    let exited: string | null = null;
    service.child.on("exit", (code, signal) => (exited = `code ${code}, signal ${signal}`));

    const account = (await call(service, "POST", "/admin/v1/accounts", { admin: true, body: { name: "pg-restart", credits: CREDITS } })).body;
    const key = account.apiKey as string;
    const firstStart = await cluster.startedAt();

    const samples: Sample[] = [];
    let stopped = false;
    const worker = (kind: Sample["kind"]) => async () => {
      while (!stopped) {
        const startedAt = Date.now();
        try {
          const r = kind === "intent" ? await call(service, "POST", "/api/v1/intent", { key, body: VERIFY }) : await call(service, "GET", "/api/v1/credits", { key });
          samples.push({ kind, startedAt, endedAt: Date.now(), status: r.status, body: r.body, retryAfter: r.headers.get("retry-after"), id: r.body.id as string | undefined });
          if (r.status === 503) await new Promise((res) => setTimeout(res, 50)); // a client honouring Retry-After, impatiently
        } catch (err) {
          samples.push({ kind, startedAt, endedAt: Date.now(), status: 0, body: { error: String(err) }, retryAfter: null });
          await new Promise((res) => setTimeout(res, 50));
        }
      }
    };
    const workers = [...Array.from({ length: 6 }, () => worker("intent")()), ...Array.from({ length: 2 }, () => worker("credits")())];
    const sleep = (ms: number) => new Promise((res) => setTimeout(res, ms));

    await until("load to be served", async () => samples.filter(ok).length >= 50, 20_000);
    const listening = await cluster.listeners();

    // 1. A fast restart: active statements are cancelled, every backend exits, the server comes back.
    const restartBegan = Date.now();
    await cluster.restart();
    const up1 = Date.now();
    await sleep(RECOVERY_BOUND_MS + 2_000);

    // 2. A real outage: stopped, nothing listening for 2 s, started again.
    const stopBegan = Date.now();
    await cluster.stop();
    await sleep(2_000);
    await cluster.start();
    const up2 = Date.now();
    await sleep(RECOVERY_BOUND_MS + 2_000);
    stopped = true;
    await Promise.all(workers);
    const failures = samples.filter((s) => !ok(s));
    /** From the server being back until the last failed answer (before `end`, the next outage). */
    const recovery = (up: number, end: number) => failures.filter((s) => s.endedAt >= up && s.endedAt < end).reduce((m, s) => Math.max(m, s.endedAt), up) - up;
    const tally = (from: number, to: number) => {
      const counts: Record<string, number> = {};
      for (const s of samples.filter((x) => x.endedAt >= from && x.startedAt <= to)) counts[`${s.kind} ${s.status}`] = (counts[`${s.kind} ${s.status}`] ?? 0) + 1;
      return counts;
    };
    console.log(
      JSON.stringify({
        requests: samples.length,
        failures: failures.length,
        listeningSessions: listening,
        restart: { pgCtlMs: up1 - restartBegan, statuses: tally(restartBegan, up1), recoveredAfterUpMs: recovery(up1, stopBegan) },
        outage: { downToUpMs: up2 - stopBegan, statuses: tally(stopBegan, up2), recoveredAfterUpMs: recovery(up2, Infinity) },
      }),
    );


    // The server really restarted (twice), the service did not.
    expect(await cluster.startedAt()).not.toBe(firstStart);
    expect(exited).toBeNull();
    expect(service.child.exitCode).toBeNull();
    expect(service.child.pid).toBe(pid);

    // Every answer was clean: success, or 503 database_unavailable with Retry-After. Never a 500.
    const unexpected = samples.filter((s) => !ok(s) && !(s.status === 503 && s.body.error === "database_unavailable" && s.retryAfter));
    expect(unexpected.map((s) => ({ kind: s.kind, status: s.status, body: s.body }))).toEqual([]);
    expect(service.output()).not.toMatch(/unhandled error/);
    // The outage was seen: the 2 s with nothing listening cannot have gone unnoticed under load.
    expect(failures.filter((s) => s.endedAt >= stopBegan && s.startedAt <= up2).length).toBeGreaterThan(0);
    // Failures happen only around the two outages, and not later than RECOVERY_BOUND_MS after each ended.
    const late = failures.filter((s) => (s.startedAt > up1 + RECOVERY_BOUND_MS && s.endedAt < stopBegan) || s.startedAt > up2 + RECOVERY_BOUND_MS);
    expect(late.map((s) => ({ kind: s.kind, status: s.status, startedAfterUp: s.startedAt - (s.startedAt > up2 ? up2 : up1) }))).toEqual([]);
    expect(failures.filter((s) => s.endedAt < restartBegan)).toEqual([]);
    // Load was served between and after the outages.
    expect(samples.filter((s) => ok(s) && s.startedAt > up1 + RECOVERY_BOUND_MS && s.endedAt < stopBegan).length).toBeGreaterThan(0);
    expect(samples.filter((s) => ok(s) && s.startedAt > up2 + RECOVERY_BOUND_MS).length).toBeGreaterThan(0);

    // Recovered: sequential requests all succeed, still on the same process.
    for (let i = 0; i < 10; i++) expect((await call(service, "POST", "/api/v1/intent", { key, body: VERIFY })).status).toBe(201);
    const credits = await call(service, "GET", "/api/v1/credits", { key });
    expect(credits.status).toBe(200);
    expect(service.child.pid).toBe(pid);

    // Read caches are correct again: a change committed by someone else (an operator's SQL, which the
    // service learns of only through PostgreSQL) is seen promptly, so nothing cached is served stale after
    // the restarts. A service that LISTENed for changes before does so again on a new connection.
    await until("the change feed to listen again", async () => (await cluster.listeners()) >= listening, 10_000);
    const before = (await call(service, "GET", "/api/v1/credits", { key })).body.creditsRemaining as number;
    expect((await call(service, "GET", "/api/v1/credits", { key })).body.creditsRemaining).toBe(before);
    await cluster.query(
      `with a as (update accounts set credits_remaining = credits_remaining + $2 where id = $1 returning credits_remaining)
       insert into credit_entries (account_id, delta, balance_after, reason, ref) select $1, $2, credits_remaining, 'grant:operator', null from a`,
      [account.accountId, GRANT],
    );
    await until("GET /credits to show the operator's grant", async () => (await call(service, "GET", "/api/v1/credits", { key })).body.creditsRemaining === before + GRANT, 2_000);

    // The books, read directly from the cluster.
    const h = await openDatabase({ url: cluster.url });
    try {
      expect(await ledgerMismatches(h.db)).toEqual([]);
      expect(await h.db.selectFrom("accounts").select("id").where("credits_remaining", "<", 0).execute()).toEqual([]);
      const runs = await h.db.selectFrom("verifications").select(["id", "status"]).where("account_id", "=", account.accountId).execute();
      // The rules judge writes debit, ledger entry and COMPLETED run in one statement: nothing is PENDING.
      expect(runs.filter((r) => r.status !== "COMPLETED")).toEqual([]);
      const completed = new Set(runs.map((r) => r.id));
      const entries = await sql<{ reason: string; n: number }>`
        select reason, count(*)::int as n from credit_entries where account_id = ${account.accountId} group by reason`.execute(h.db);
      const byReason = Object.fromEntries(entries.rows.map((e) => [e.reason, e.n]));
      const debits = byReason.verification ?? 0;
      const refunds = entries.rows.filter((e) => e.reason.startsWith("refund:")).reduce((n, e) => n + e.n, 0);
      expect(completed.size).toBe(debits - refunds);
      const debitRefs = await sql<{ ref: string; n: number }>`
        select ref, count(*)::int as n from credit_entries where account_id = ${account.accountId} and reason = 'verification' group by ref`.execute(h.db);
      expect(debitRefs.rows.every((d) => d.n === 1 && completed.has(d.ref))).toBe(true);
      const balance = await h.db.selectFrom("accounts").select("credits_remaining").where("id", "=", account.accountId).executeTakeFirstOrThrow();
      expect(CREDITS + GRANT - balance.credits_remaining).toBe(completed.size);
      // No 201 is lost: each one the client saw is a stored COMPLETED run (a 503 whose commit reached the
      // server before the connection died may add runs the client never saw, never the reverse).
      const seen = samples.filter((s) => s.kind === "intent" && s.status === 201).map((s) => s.id!);
      expect(seen.length + 10).toBeLessThanOrEqual(completed.size);
      expect(seen.filter((id) => !completed.has(id))).toEqual([]);
    } finally {
      await h.close();
    }
  });
});
