import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pino from "pino";
import { loadConfig } from "../../src/config";
import { createRuntime, type Runtime, type RuntimeOverrides } from "../../src/deps";
import { dropSchema, openDatabase } from "../../src/db/client";
import { ledgerMismatches } from "../../src/credits/ledger";

export const ADMIN_TOKEN = "test-admin-token-0123456789abcdef";

/**
 * A real runtime on a real database: PostgreSQL in a fresh schema when DATABASE_URL is set (CI runs the
 * suite both ways), else an in-memory PGlite, on its worker thread as the service runs it unless a test sets
 * PGLITE_WORKER=false.
 */
export async function startTestRuntime(opts: { env?: Record<string, string>; overrides?: RuntimeOverrides } = {}) {
  const url = process.env.DATABASE_URL;
  const schema = url ? `t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}` : undefined;
  const dataDir = mkdtempSync(path.join(tmpdir(), "arbiter-test-"));
  // Property tests send thousands of requests with one key: a high rate limit unless a test sets its own.
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent", ADMIN_TOKEN, PUBLIC_URL: "http://arbiter.test", SANDBOX: "false", RATE_LIMIT_PER_MINUTE: "1000000", ...opts.env });
  const database = await openDatabase({ url, schema, dataDir: null, pgliteWorker: config.PGLITE_WORKER });
  const runtime = await createRuntime(config, { database, lockDataDir: false, logger: pino({ level: "silent" }), ...opts.overrides });
  const app = runtime.app;

  const request = (method: string, route: string, init: { body?: unknown; key?: string; headers?: Record<string, string>; raw?: string } = {}) =>
    app.request(route, {
      method,
      headers: {
        ...(init.body !== undefined || init.raw !== undefined ? { "content-type": "application/json" } : {}),
        ...(init.key ? { "x-api-key": init.key } : {}),
        ...init.headers,
      },
      body: init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
    });

  const admin = (method: string, route: string, body?: unknown) => request(method, route, { body, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });

  async function createAccount(credits = 10, name = "test") {
    const res = await admin("POST", "/admin/v1/accounts", { name, credits });
    if (res.status !== 201) throw new Error(`createAccount: ${res.status} ${await res.text()}`);
    return (await res.json()) as { accountId: string; apiKey: string; topupCode: string; creditsRemaining: number };
  }

  return {
    runtime: runtime as Runtime,
    app,
    request,
    admin,
    createAccount,
    ledgerMismatches: () => ledgerMismatches(runtime.database.db),
    async close() {
      await runtime.close();
      await database.close();
      if (url && schema) await dropSchema(url, schema);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
export type TestRuntime = Awaited<ReturnType<typeof startTestRuntime>>;
