import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pino from "pino";
import { loadConfig } from "../../config";
import { openDatabase } from "../../db/client";
import { createRuntime } from "../../deps";
import type { JudgeCase, Runner } from "./score";

/**
 * Runs cases through the real verification service: an in-process runtime on an in-memory database, each
 * case POSTed to /api/v1/intent exactly as an agent would send it. The judge is whatever the environment
 * configures (JUDGE_PROVIDER etc.; the embedded rules engine by default), so the same command scores a
 * model-backed deployment.
 */
export async function startServiceRunner(cases: number): Promise<{ runner: Runner; close: () => Promise<void> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "arbiter-eval-"));
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, SANDBOX: "false", DATABASE_URL: undefined, LOG_LEVEL: "silent", RATE_LIMIT_PER_MINUTE: "0" });
  const database = await openDatabase({ dataDir: null });
  const runtime = await createRuntime(config, { database, lockDataDir: false, logger: pino({ level: "silent" }) });
  const account = await runtime.services.accounts.createAccount({ name: "judge-eval", credits: Math.max(1, cases) });

  const runner: Runner = async (c: JudgeCase) => {
    const res = await runtime.app.request("/api/v1/intent", {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": account.apiKey },
      body: JSON.stringify({ intent: c.intent, action: c.action, ...(c.venue ? { venue: c.venue } : {}), ...(c.context ? { context: c.context } : {}) }),
    });
    const body = (await res.json()) as { verdict?: string | null; reasoning?: string | null; error?: string; message?: string };
    // Any non-201 answer means "do not execute": score it as no verdict.
    if (res.status !== 201) return { verdict: null, reasoning: `HTTP ${res.status} ${body.error ?? ""} ${body.message ?? ""}`.trim() };
    return { verdict: (body.verdict ?? null) as "ALLOW" | "BLOCK" | "ESCALATE" | null, reasoning: body.reasoning ?? null };
  };
  return {
    runner,
    async close() {
      await runtime.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
