/**
 * The README's shell blocks, run as a reader pastes them: extracted from README.md (every ```sh block from
 * "First verification" to "What is inside"), fed to bash against the real service process started on a new
 * data directory, twice in a row. Only `localhost:8080` / `127.0.0.1:8080` are rewritten to the test's port, and
 * the service's own anvil gets a free port. Not run: the `npm ci && npm start` block (this is that service).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, startService, type ServiceProcess } from "../helpers/process";

export function readmeBlocks(readme: string): string[] {
  const start = readme.indexOf("## First verification");
  const end = readme.indexOf("## What is inside");
  const section = readme.slice(start, end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
}

function runBash(script: string, env: Record<string, string>, cwd: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn("bash", ["-s"], { cwd, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env }, stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("exit", (code) => resolve({ code, out }));
    child.stdin.end(script);
  });
}

describe("README.md, pasted as written", () => {
  let svc: ServiceProcess;
  let dataDir: string;
  let work: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "arbiter-readme-data-"));
    work = mkdtempSync(path.join(tmpdir(), "arbiter-readme-cwd-"));
    svc = await startService({ DATA_DIR: dataDir, SANDBOX_RPC_PORT: "0", LOG_LEVEL: "warn" });
  }, 120_000);
  afterAll(async () => {
    svc?.child.kill("SIGTERM");
    await svc?.exited;
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  });

  it("finds the blocks (verification, escrow wallet, claim link) with no placeholders left to fill", () => {
    const blocks = readmeBlocks(readFileSync(path.join(ROOT, "README.md"), "utf8"));
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    for (const b of blocks) expect(b).not.toMatch(/<[a-z][^>]*>/i);
  });

  it("runs every block top to bottom, twice, and each step does what the README says", async () => {
    const hostPort = new URL(svc.url).host;
    const blocks = readmeBlocks(readFileSync(path.join(ROOT, "README.md"), "utf8"));
    const escrow = blocks.find((b) => b.includes("/api/v1/wallets/ops/propose"))!;
    // The whole walkthrough, with the escrow block pasted a second time in the same shell (same key: "ops" exists).
    const script = [...blocks, escrow]
      .join("\n")
      .replace(/(localhost|127\.0\.0\.1):8080/g, hostPort)
      // `npm run` from the reader's checkout: here the repository root, while files the README writes land in `work`.
      .replace(/npm run -s cli --/g, `npm run -s --prefix ${JSON.stringify(ROOT)} cli --`);
    const port = hostPort.split(":")[1];
    for (const run of [1, 2]) {
      const { code, out } = await runBash(script, { PORT: port, DATA_DIR: dataDir }, work);
      const where = `run ${run}:\n${out}`;
      expect(code, where).toBe(0);
      expect(out, where).not.toMatch(/undefined|command not found|syntax error|No such file|Error:/);
      expect(out, where).toMatch(/^account acct_/m);
      expect(out, where).toContain('"verdict":"ALLOW"');
      expect(out, where).toContain('"verdict":"BLOCK"');
      expect(out, where).toMatch(/"ok": true,\s*"errors": \[\]/);
      expect(out, where).toMatch(/^wallet ops at 0x[0-9a-fA-F]{40}$/m);
      expect(out, where).toMatch(/already|taken|exists/i);
      expect(out.match(/^wallet ops at 0x/gm)?.length, where).toBe(2);
      expect(out.match(/"status":"executed"/g)?.length, where).toBe(2);
      expect(out.match(/"status":"blocked"/g)?.length, where).toBe(4);
      expect(out, where).toMatch(/\/dashboard\/claim\//);
      // Solana: the wallet, funded, its named transfer held for the owner (SPEC 3), the balances read back.
      expect(out, where).toMatch(/^wallet sol-ops at [1-9A-HJ-NP-Za-km-z]{32,44}$/m);
      expect(out.match(/"status":"awaiting_user"/g)?.length, where).toBe(1);
      expect(out, where).toMatch(/"chain":"solana","address":"[1-9A-HJ-NP-Za-km-z]+","balanceUsd":/);
    }
  }, 300_000);
});
