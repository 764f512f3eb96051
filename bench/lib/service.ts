import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { buildService, startCommand } from "../../scripts/build.mjs";

const ROOT = path.resolve(import.meta.dirname, "../..");
export const ADMIN_TOKEN = "bench-admin-token-0123456789abcdef";

/** Where a run keeps its data: a fresh PGlite directory, or a fresh schema on a PostgreSQL server. */
export type DbTarget = { kind: "pglite"; worker?: boolean } | { kind: "postgres"; url: string };

export interface Proc {
  child: ChildProcess;
  pid: number;
  url: string;
  output(): string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export async function postgresReachable(url: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.query("select 1");
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => {});
  }
}

async function dropSchema(url: string, schema: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query(`drop schema if exists "${schema}" cascade`).finally(() => c.end());
}

/** Environment for a database target, and the clean-up that removes its data afterwards. */
function databaseEnv(db: DbTarget) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "arbiter-bench-"));
  const schema = `bench_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 7)}`;
  const env: Record<string, string> =
    db.kind === "postgres" ? { DATA_DIR: dataDir, DATABASE_URL: db.url, DATABASE_SCHEMA: schema } : { DATA_DIR: dataDir, ...(db.worker !== undefined ? { PGLITE_WORKER: String(db.worker) } : {}) };
  return {
    env,
    async cleanup() {
      rmSync(dataDir, { recursive: true, force: true });
      if (db.kind === "postgres") await dropSchema(db.url, schema);
    },
  };
}

/** Starts `command` ([node, ...args]); the service gets BENCH_CPU_PROF's flags. */
function spawnNode(command: string[], env: Record<string, string>, isService = false) {
  let out = "";
  // BENCH_CPU_PROF=<dir>: the service writes a V8 CPU profile there when it stops (summarise with bench/profile.ts).
  const prof = process.env.BENCH_CPU_PROF && isService ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const [node, ...args] = command;
  const child = spawn(node, [...prof, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  return { child, exited, output: () => out };
}

async function waitFor(what: string, output: () => string, exited: Promise<void>, ok: () => Promise<boolean>, timeoutMs = 90_000) {
  let dead = false;
  void exited.then(() => (dead = true));
  const deadline = Date.now() + timeoutMs;
  while (!(await ok().catch(() => false))) {
    if (dead) throw new Error(`${what} exited during start-up:\n${output()}`);
    if (Date.now() > deadline) throw new Error(`${what} did not start:\n${output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function stopper(child: ChildProcess, exited: Promise<void>, cleanup: () => Promise<void>) {
  return async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      const force = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(force);
    }
    await cleanup();
  };
}

let built: Promise<unknown> | null = null;

/**
 * The real service with the sandbox chain, rate limiting off: what `npm start` runs (package.json's start
 * command on src/ bundled by scripts/build.mjs, built once per bench run).
 */
export async function startService(db: DbTarget, extraEnv: Record<string, string> = {}): Promise<Proc> {
  const d = databaseEnv(db);
  const [port, rpcPort] = [await freePort(), await freePort()];
  const url = `http://127.0.0.1:${port}`;
  const env = {
    ...d.env,
    HOST: "127.0.0.1",
    PORT: String(port),
    SANDBOX: "true",
    SANDBOX_RPC_PORT: String(rpcPort),
    ADMIN_TOKEN,
    LOG_LEVEL: "warn",
    JUDGE_PROVIDER: "rules",
    RATE_LIMIT_PER_MINUTE: "0",
    ...(process.env.BENCH_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS } : {}),
    ...(process.env.BENCH_SERVICE_ENV ? (JSON.parse(process.env.BENCH_SERVICE_ENV) as Record<string, string>) : {}),
    ...extraEnv,
  };
  built ??= buildService({ quiet: true });
  await built;
  const p = spawnNode(startCommand(), env, true);
  await waitFor("the service", p.output, p.exited, async () => (await fetch(`${url}/healthz`)).ok);
  return { child: p.child, pid: p.child.pid!, url, output: p.output, stop: stopper(p.child, p.exited, d.cleanup) };
}

/** bench/baseline-server.ts on the same kind of database. */
export async function startBaseline(db: DbTarget): Promise<Proc> {
  const d = databaseEnv(db);
  const p = spawnNode([process.execPath, "--import", "tsx", "bench/baseline-server.ts"], d.env);
  await waitFor("the baseline server", p.output, p.exited, async () => /listening \d+/.test(p.output()));
  const port = /listening (\d+)/.exec(p.output())![1];
  return { child: p.child, pid: p.child.pid!, url: `http://127.0.0.1:${port}`, output: p.output, stop: stopper(p.child, p.exited, d.cleanup) };
}
