import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadConfig } from "../../src/config";
import { createRuntime, type Runtime } from "../../src/deps";
import { listen } from "../../src/server";

/**
 * The real service in this process, as `npm start` builds it (PGlite in a fresh DATA_DIR, the embedded
 * rules judge unless `env` says otherwise), listening on a free loopback port, with one funded account.
 */
export async function startBenchService(env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "arbiter-bench-"));
  const config = loadConfig({ DATA_DIR: dataDir, HOST: "127.0.0.1", PORT: "0", LOG_LEVEL: "warn", JUDGE_PROVIDER: "rules", SANDBOX: "false", RATE_LIMIT_PER_MINUTE: "0", ...env });
  const runtime: Runtime = await createRuntime(config);
  const server = await listen(runtime, { host: "127.0.0.1", port: 0 });
  const account = await runtime.services.accounts.createAccount({ name: "bench", credits: 50_000_000 });
  return {
    runtime,
    url: `http://127.0.0.1:${server.port}`,
    apiKey: account.apiKey,
    async stop() {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
