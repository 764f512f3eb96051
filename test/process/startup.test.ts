import { createServer } from "node:net";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startFakeOpenAI } from "../helpers/fake-openai";
import { freePort, startService } from "../helpers/process";

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(path.join(tmpdir(), "arbiter-proc-"));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("the service process", () => {
  it("starts on the embedded database, writes a 0600 admin token, refuses a second process on the same DATA_DIR, and drains on SIGTERM", async () => {
    const judge = await startFakeOpenAI({ verdict: "ESCALATE", reasoning: "needs a human" }, 1500);
    const dataDir = tmp();
    const env = { DATA_DIR: dataDir, SANDBOX: "false", JUDGE_PROVIDER: "openai", JUDGE_BASE_URL: judge.url, JUDGE_MODEL: "test-model", JUDGE_API_KEY: "k" };
    const svc = await startService(env);
    try {
      const tokenFile = path.join(dataDir, "admin-token");
      expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
      const token = readFileSync(tokenFile, "utf8").trim();
      const acct = await (await fetch(`${svc.url}/admin/v1/accounts`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify({ name: "p", credits: 2 }) })).json();

      const second = await startService(env, { waitHealthy: false });
      expect(await second.exited).toBe(3);
      expect(second.output()).toMatch(/DATA_DIR .* is in use by another Arbiter process/);

      // An in-flight verification (the judge answers after 1.5 s) completes although SIGTERM arrives first.
      const inflight = fetch(`${svc.url}/api/v1/intent`, { method: "POST", headers: { "x-api-key": acct.apiKey, "content-type": "application/json" }, body: JSON.stringify({ intent: "Only buy BTC.", action: "buy 0.1 BTC" }) });
      await new Promise((r) => setTimeout(r, 400));
      svc.child.kill("SIGTERM");
      const res = await inflight;
      expect(res.status).toBe(201);
      expect((await res.json()).verdict).toBe("ESCALATE");
      expect(await svc.exited).toBe(0);
    } finally {
      svc.child.kill("SIGKILL");
      judge.server.close();
    }
    // The lock is released: the data dir can be reopened, and the data is still there.
    const again = await startService(env);
    try {
      expect((await fetch(`${again.url}/healthz`)).status).toBe(200);
    } finally {
      again.child.kill("SIGTERM");
      await again.exited;
    }
  }, 240_000);

  it("runs the bundle npm start builds, with its heap cap: files that live next to their sources are still found", async () => {
    // The sandbox deploys contracts from src/sandbox/contracts, migrations come from src/db/migrations, the
    // dashboard serves src/dashboard/public and bundles src/receipts/verify.ts on demand: all located through
    // import.meta.url, which scripts/build.mjs keeps pointing at each source file.
    const svc = await startService({ DATA_DIR: tmp(), SANDBOX: "true", SANDBOX_RPC_PORT: String(await freePort()), LOG_LEVEL: "warn" });
    try {
      const css = await fetch(`${svc.url}/dashboard/assets/app.css`);
      expect(css.status).toBe(200);
      expect(await css.text()).toContain("{");
      const receiptJs = await fetch(`${svc.url}/dashboard/assets/receipt.js`);
      expect(receiptJs.status).toBe(200);
      expect(await receiptJs.text()).toMatch(/export\s*\{[^}]*verifyReceipt/);
      const metrics = await (await fetch(`${svc.url}/metrics`)).text();
      const limitMiB = Number(/arbiter_heap_limit_bytes (\d+)/.exec(metrics)![1]) / 1024 / 1024;
      expect(limitMiB).toBeGreaterThanOrEqual(192);
      expect(limitMiB).toBeLessThan(300); // V8's default on these machines is ~4 GiB
      expect(svc.child.spawnargs.join(" ")).toMatch(/dist\/main\.mjs$/);
    } finally {
      svc.child.kill("SIGTERM");
      await svc.exited;
    }
  }, 120_000);

  it("stops with a clear message on a bad configuration value", async () => {
    const svc = await startService({ DATA_DIR: tmp(), PORT: "70000" }, { waitHealthy: false });
    expect(await svc.exited).toBe(2);
    expect(svc.output()).toMatch(/invalid configuration:\n\s+PORT: .*70000/);
  }, 60_000);

  it("an anvil port clash stops with a hint to set SANDBOX_RPC_PORT, not a stack trace", async () => {
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, "127.0.0.1", () => r()));
    const port = (busy.address() as { port: number }).port;
    try {
      const svc = await startService({ DATA_DIR: tmp(), SANDBOX_RPC_PORT: String(port) }, { waitHealthy: false });
      expect(await svc.exited).toBe(4);
      expect(svc.output()).toContain(`cannot listen on 127.0.0.1:${port}`);
      expect(svc.output()).toContain("SANDBOX_RPC_PORT");
      expect(svc.output()).not.toMatch(/\n\s+at /);
    } finally {
      busy.close();
    }
  }, 60_000);
});
