import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { getFreePort } from "../../src/sandbox/anvil";
import path from "node:path";
import { startCommand } from "../../scripts/build.mjs";

export const ROOT = path.resolve(import.meta.dirname, "../..");

/** A free loopback port (the sandbox's helper; one implementation for service, chain and test servers). */
export const freePort = (): Promise<number> => getFreePort("127.0.0.1");

export interface ServiceProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

/**
 * Starts the service as a real process, exactly as `npm start` does (package.json's start command on the
 * bundle that test/global-setup.ts built from src/), and waits for /healthz.
 */
export async function startService(env: Record<string, string>, opts: { waitHealthy?: boolean } = {}, attempt = 1): Promise<ServiceProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  let out = "";
  const [node, ...args] = startCommand();
  const child = spawn(node, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", LOG_LEVEL: "info", ...env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
  const url = `http://127.0.0.1:${port}`;
  if (opts.waitHealthy !== false) {
    const deadline = Date.now() + 120_000; // generous: three sandbox chains start with the service on two busy cores
    let done = false;
    void exited.then(() => (done = true));
    while (!done) {
      try {
        if ((await fetch(`${url}/healthz`)).ok) break;
      } catch {
        /* not listening yet */
      }
      if (Date.now() > deadline) throw new Error(`service did not become healthy:\n${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    // A restart on the same ports right after a kill -9 can find one still held for a moment (or taken by another
    // test's short-lived socket on this busy machine): that is the test's environment, not the service; try again.
    if (done && /EADDRINUSE/.test(out) && attempt < 5) {
      await new Promise((r) => setTimeout(r, 500 * attempt));
      return startService(env, opts, attempt + 1);
    }
    if (done) throw new Error(`service exited during start-up:\n${out}`);
  }
  return { child, url, output: () => out, exited };
}

/** Direct children of a process, from /proc (the service's anvil is one). */
export function childPids(pid: number): number[] {
  const out: number[] = [];
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    const f = `/proc/${pid}/task/${task}/children`;
    if (existsSync(f)) out.push(...readFileSync(f, "utf8").trim().split(/\s+/).filter(Boolean).map(Number));
  }
  return out;
}

export const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Polls `fn` every 100 ms until it returns a truthy value (errors count as not yet). */
export async function until<T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn().catch(() => null);
    if (v) return v as T;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
