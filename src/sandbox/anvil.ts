/**
 * Anvil supervisor: runs the anvil binary from `@foundry-rs/anvil-linux-amd64` as a child process, waits
 * until it answers JSON-RPC, restarts it with backoff when it dies unexpectedly, and stops it cleanly.
 *
 * Persistence (measured with anvil 1.7.1): `--state <file>` loads the file at start and dumps the whole
 * chain (accounts, blocks, transactions) on SIGTERM/SIGINT; `--state-interval <s>` also dumps every s
 * seconds, so a SIGKILL loses at most that window. Anvil rewrites the file in place (open with O_TRUNC, no
 * rename), so a kill during a dump can leave truncated JSON, which anvil then refuses to start with
 * ("failed to parse json file", exit 2). Before every start we therefore validate the file, keep a copy of
 * the last good one (`<file>.bak`) and fall back to it, or to a fresh chain, when the file is damaged.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { dirname, join } from "node:path";

export interface AnvilLogger {
  info(obj: Record<string, unknown>, msg: string): void;
  warn(obj: Record<string, unknown>, msg: string): void;
  error(obj: Record<string, unknown>, msg: string): void;
}

export interface AnvilRestartInfo {
  /** How many times the supervisor has restarted anvil (1 for the first restart). */
  restarts: number;
  /** True when the chain came back without its previous state (no state file, or it was unusable). */
  stateLost: boolean;
  /** Exit code / signal of the process that died. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
}

/** What `setup` is told: it runs once after the first start and again after every restart. */
export interface AnvilSetupInfo {
  restart: boolean;
  stateLost: boolean;
}

export interface StartAnvilOptions {
  /** TCP port; 0 or omitted picks a free one. */
  port?: number;
  host?: string;
  /** Persist the chain here (`--state`); created on first start. */
  stateFile?: string;
  /** Seconds between periodic state dumps when `stateFile` is set (default 2). */
  stateIntervalSeconds?: number;
  chainId?: number;
  /** EVM hardfork; omitted = anvil's default ("latest", which includes Prague/EIP-7702). */
  hardfork?: string;
  logger?: AnvilLogger;
  /**
   * Idempotent set-up (e.g. ensureSandboxContracts). Runs after the first start and after each restart,
   * before restart listeners are told; startAnvil's promise resolves only after the first run.
   */
  setup?: (rpcUrl: string, info: AnvilSetupInfo) => Promise<void>;
  /** Restart anvil when it exits unexpectedly (default true). */
  supervise?: boolean;
  /** Backoff between restart attempts: starts at 200 ms, doubles, capped here (default 5000). */
  maxBackoffMs?: number;
  readyTimeoutMs?: number;
  /** Extra command-line arguments for anvil. */
  extraArgs?: string[];
}

export interface AnvilHandle {
  readonly rpcUrl: string;
  readonly host: string;
  readonly port: number;
  readonly chainId: number;
  /** Process id of the current anvil process (undefined while restarting). */
  readonly pid: number | undefined;
  readonly restarts: number;
  /** Called after each completed restart (after `setup` ran). Returns an unsubscribe function. */
  onRestart(listener: (info: AnvilRestartInfo) => void | Promise<void>): () => void;
  /** SIGTERM (anvil dumps its state), then SIGKILL after `graceMs` (default 5000). Idempotent. */
  stop(graceMs?: number): Promise<void>;
}

const noopLogger: AnvilLogger = { info: () => {}, warn: () => {}, error: () => {} };

/** Absolute path of the anvil binary shipped in the npm package. */
export function anvilBinaryPath(): string {
  const require = createRequire(import.meta.url);
  const pkgJson = require.resolve("@foundry-rs/anvil-linux-amd64/package.json");
  return join(dirname(pkgJson), "bin", "anvil");
}

/** A TCP port that was free a moment ago on `host` (the OS picks it). */
export function getFreePort(host = "127.0.0.1"): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, host, () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => (port ? resolve(port) : reject(new Error("could not determine a free port"))));
    });
  });
}

/** Whether nothing listens on host:port right now. */
function isPortFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.unref();
    srv.once("error", () => resolve(false));
    srv.listen(port, host, () => srv.close(() => resolve(true)));
  });
}

/** Another process already listens on the port anvil was told to use (the operator can pick another). */
export class AnvilPortInUseError extends Error {
  constructor(
    readonly host: string,
    readonly port: number,
  ) {
    super(`anvil cannot listen on ${host}:${port}: address already in use`);
    this.name = "AnvilPortInUseError";
  }
}

/** Children to kill synchronously if this Node process exits without stopping them. */
const liveChildren = new Set<ChildProcess>();
let exitHookInstalled = false;
function trackChild(child: ChildProcess): void {
  liveChildren.add(child);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once("exit", () => {
      for (const c of liveChildren) c.kill("SIGKILL");
    });
  }
}

/**
 * Make sure `file` is loadable before anvil reads it. Returns whether the previous chain state is gone.
 * A parsable file is copied to `<file>.bak`; a damaged one is moved aside and replaced by the backup.
 */
function prepareStateFile(file: string, logger: AnvilLogger): { stateLost: boolean } {
  mkdirSync(dirname(file), { recursive: true });
  if (!existsSync(file)) return { stateLost: true };
  const parses = (p: string): boolean => {
    try {
      JSON.parse(readFileSync(p, "utf8"));
      return true;
    } catch {
      return false;
    }
  };
  const backup = `${file}.bak`;
  if (parses(file)) {
    copyFileSync(file, backup);
    return { stateLost: false };
  }
  const aside = `${file}.corrupt-${Date.now()}`;
  renameSync(file, aside);
  if (existsSync(backup) && parses(backup)) {
    copyFileSync(backup, file);
    logger.warn({ stateFile: file, movedTo: aside }, "anvil state file was damaged; restored the last good copy");
    // The backup is older than the lost file: callers should re-run their (idempotent) set-up.
    return { stateLost: true };
  }
  logger.error({ stateFile: file, movedTo: aside }, "anvil state file was damaged and no backup exists; starting a fresh chain");
  return { stateLost: true };
}

async function waitUntilReady(rpcUrl: string, child: ChildProcess, timeoutMs: number, stderr: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  const onExit = () => (exited = true);
  child.once("exit", onExit);
  try {
    while (Date.now() < deadline) {
      if (exited || child.exitCode !== null) {
        throw new Error(`anvil exited during start-up (code ${child.exitCode}): ${stderr().trim() || "no output"}`);
      }
      try {
        const res = await fetch(rpcUrl, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
          signal: AbortSignal.timeout(1000),
        });
        if (res.ok) {
          const body = (await res.json()) as { result?: string };
          if (body.result) return;
        }
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`anvil did not answer eth_chainId within ${timeoutMs} ms: ${stderr().trim()}`);
  } finally {
    child.off("exit", onExit);
  }
}

/** Start (and by default supervise) an anvil process. */
export async function startAnvil(opts: StartAnvilOptions = {}): Promise<AnvilHandle> {
  const logger = opts.logger ?? noopLogger;
  const host = opts.host ?? "127.0.0.1";
  const chainId = opts.chainId ?? 8453;
  const autoPort = !opts.port;
  let port = opts.port || (await getFreePort(host));
  const supervise = opts.supervise ?? true;
  const maxBackoffMs = opts.maxBackoffMs ?? 5000;
  const readyTimeoutMs = opts.readyTimeoutMs ?? 10_000;
  const bin = anvilBinaryPath();
  const listeners = new Set<(info: AnvilRestartInfo) => void | Promise<void>>();

  let child: ChildProcess | undefined;
  let stopping = false;
  let restarts = 0;
  let failuresInARow = 0;
  let restartTimer: NodeJS.Timeout | undefined;
  let startedAt = 0;
  let stderrTail = "";

  const rpcUrlFor = (p: number) => `http://${host}:${p}`;

  const args = (p: number): string[] => {
    const a = ["--chain-id", String(chainId), "--host", host, "--port", String(p), "--silent"];
    if (opts.stateFile) a.push("--state", opts.stateFile, "--state-interval", String(opts.stateIntervalSeconds ?? 2));
    if (opts.hardfork) a.push("--hardfork", opts.hardfork);
    if (opts.extraArgs) a.push(...opts.extraArgs);
    return a;
  };

  /** Spawn one process and wait until it answers. Resolves with whether the old state is gone. */
  const spawnOnce = async (): Promise<{ stateLost: boolean }> => {
    // Otherwise the readiness probe could be answered by whatever already listens there.
    if (!(await isPortFree(host, port))) throw new AnvilPortInUseError(host, port);
    const { stateLost } = opts.stateFile ? prepareStateFile(opts.stateFile, logger) : { stateLost: true };
    stderrTail = "";
    const c = spawn(bin, args(port), { stdio: ["ignore", "ignore", "pipe"] });
    c.stderr?.setEncoding("utf8");
    c.stderr?.on("data", (d: string) => {
      stderrTail = (stderrTail + d).slice(-4000);
    });
    c.on("error", (err) => logger.error({ err: String(err) }, "anvil process error"));
    trackChild(c);
    child = c;
    c.once("exit", (code, signal) => {
      liveChildren.delete(c);
      if (child === c) child = undefined;
      if (!stopping && supervise && startedAt > 0) onUnexpectedExit(code, signal);
    });
    try {
      await waitUntilReady(rpcUrlFor(port), c, readyTimeoutMs, () => stderrTail);
    } catch (err) {
      c.kill("SIGKILL");
      throw err;
    }
    return { stateLost };
  };

  const onUnexpectedExit = (code: number | null, signal: NodeJS.Signals | null) => {
    const upMs = Date.now() - startedAt;
    if (upMs > 30_000) failuresInARow = 0;
    startedAt = 0;
    logger.warn({ code, signal, upMs, stderr: stderrTail.trim().slice(-500) }, "anvil exited unexpectedly; restarting");
    scheduleRestart(code, signal);
  };

  const scheduleRestart = (code: number | null, signal: NodeJS.Signals | null) => {
    if (stopping) return;
    const delay = Math.min(maxBackoffMs, 200 * 2 ** failuresInARow);
    failuresInARow++;
    restartTimer = setTimeout(() => {
      restartTimer = undefined;
      void restart(code, signal);
    }, delay);
  };

  const restart = async (code: number | null, signal: NodeJS.Signals | null) => {
    if (stopping) return;
    try {
      const { stateLost } = await spawnOnce();
      if (stopping) return;
      startedAt = Date.now();
      restarts++;
      if (opts.setup) await opts.setup(rpcUrlFor(port), { restart: true, stateLost });
      logger.info({ restarts, stateLost, rpcUrl: rpcUrlFor(port) }, "anvil restarted");
      const info: AnvilRestartInfo = { restarts, stateLost, exitCode: code, signal };
      for (const l of listeners) {
        try {
          await l(info);
        } catch (err) {
          logger.error({ err: String(err) }, "anvil restart listener failed");
        }
      }
    } catch (err) {
      if (stopping) return;
      logger.error({ err: String(err) }, "anvil restart failed; retrying");
      // A set-up failure after a good start leaves the process running: kill it so the loop retries cleanly.
      if (child) {
        startedAt = 0;
        child.kill("SIGKILL");
      }
      scheduleRestart(code, signal);
    }
  };

  // First start: with an automatically chosen port, retry on a fresh port if another process took it.
  for (let attempt = 0; ; attempt++) {
    try {
      const { stateLost } = await spawnOnce();
      startedAt = Date.now();
      if (opts.setup) await opts.setup(rpcUrlFor(port), { restart: false, stateLost });
      break;
    } catch (err) {
      if (child) {
        startedAt = 0;
        child.kill("SIGKILL");
      }
      const portTaken = /address already in use|os error 98/i.test(String(err));
      if (autoPort && portTaken && attempt < 3) {
        port = await getFreePort(host);
        continue;
      }
      throw err;
    }
  }
  logger.info({ rpcUrl: rpcUrlFor(port), pid: child?.pid, stateFile: opts.stateFile }, "anvil started");

  const handle: AnvilHandle = {
    get rpcUrl() {
      return rpcUrlFor(port);
    },
    host,
    get port() {
      return port;
    },
    chainId,
    get pid() {
      return child?.pid;
    },
    get restarts() {
      return restarts;
    },
    onRestart(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async stop(graceMs = 5000) {
      stopping = true;
      if (restartTimer) clearTimeout(restartTimer);
      const c = child;
      if (!c || c.exitCode !== null || c.signalCode !== null) return;
      await new Promise<void>((resolve) => {
        const killTimer = setTimeout(() => c.kill("SIGKILL"), graceMs);
        c.once("exit", () => {
          clearTimeout(killTimer);
          resolve();
        });
        c.kill("SIGTERM");
      });
      logger.info({ rpcUrl: rpcUrlFor(port) }, "anvil stopped");
    },
  };
  return handle;
}
