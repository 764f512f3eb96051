/**
 * kill -9 during verification (the service as a real process, on PGlite or on PostgreSQL when DATABASE_URL
 * is set). Proposal execution and top-up settlement have their own crash tests: test/proposals/crash.test.ts
 * and test/topup/faults.test.ts (docs/security.md lists them).
 *
 * - A remote judge (OpenAI-compatible fake on loopback) that is still thinking when the process dies: the
 *   run was charged and recorded PENDING; after a restart the recovery sweep refunds it once.
 * - The rules judge under load, killed at an arbitrary moment: every answered run survives, every
 *   charged credit belongs to a stored run, nothing is PENDING, every ledger sums to its balance.
 */
import { afterAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { ledgerMismatches } from "../../src/credits/ledger";
import { startFakeOpenAI } from "../helpers/fake-openai";
import { call, serviceDatabase, startService, stop, until, type ServiceProcess } from "./helpers";

const VERIFY = { intent: "Trade only BTC and ETH perpetuals on Hyperliquid. Max notional $2,000 per order.", action: "buy 0.01 BTC perpetual on Hyperliquid at market" };
let svc: ServiceProcess | null = null;
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  await stop(svc, "SIGKILL");
  for (const c of cleanups) await c();
});

const balance = async (key: string) => (await call(svc!, "GET", "/api/v1/credits", { key })).body.creditsRemaining as number;

describe("kill -9 during a verification", () => {
  it("with a remote judge mid-run: after a restart the PENDING run is refunded once", { timeout: 120_000 }, async () => {
    const slow = await startFakeOpenAI({ verdict: "ALLOW", reasoning: "late" }, 60_000);
    const fast = await startFakeOpenAI({ verdict: "ALLOW", reasoning: "within the mandate" }, 0);
    cleanups.push(async () => {
      slow.server.closeAllConnections();
      fast.server.closeAllConnections();
      slow.server.close();
      fast.server.close();
    });
    const db = serviceDatabase("crash-verify");
    cleanups.push(db.cleanup);
    const env = { ...db.env, SANDBOX: "false", LOG_LEVEL: "warn", JUDGE_PROVIDER: "openai", JUDGE_MODEL: "test-model", JUDGE_API_KEY: "sk-test", JUDGE_TIMEOUT_MS: "5000", VERIFY_RECOVERY_GRACE_MS: "6000" };

    svc = await startService({ ...env, JUDGE_BASE_URL: slow.url });
    const account = (await call(svc, "POST", "/admin/v1/accounts", { admin: true, body: { name: "crash", credits: 3 } })).body;
    const key = account.apiKey as string;
    void call(svc, "POST", "/api/v1/intent", { key, body: VERIFY }).catch(() => {});
    await until("the judge to receive the run", async () => slow.requests.length === 1);
    expect(await balance(key)).toBe(2); // charged, PENDING
    await stop(svc, "SIGKILL");

    svc = await startService({ ...env, JUDGE_BASE_URL: fast.url });
    await until("the interrupted run to be refunded", async () => (await balance(key)) === 3, 30_000);
    const again = await call(svc, "POST", "/api/v1/intent", { key, body: VERIFY });
    expect(again.status).toBe(201);
    expect(again.body.creditsRemaining).toBe(2);
    await stop(svc);

    const h = await db.open();
    try {
      const runs = await h.db.selectFrom("verifications").select(["id", "status"]).orderBy("created_at").execute();
      expect(runs.map((r) => r.status)).toEqual(["FAILED", "COMPLETED"]);
      const entries = await h.db.selectFrom("credit_entries").select(["delta", "reason", "ref"]).where("account_id", "=", account.accountId).orderBy("id").execute();
      expect(entries.map((e) => [e.delta, e.reason])).toEqual([
        [3, "grant:opening"],
        [-1, "verification"],
        [1, "refund:interrupted"],
        [-1, "verification"],
      ]);
      expect(entries[2].ref).toBe(runs[0].id);
      expect(await ledgerMismatches(h.db)).toEqual([]);
    } finally {
      await h.close();
    }
  });

  it("with the rules judge under load: every answered run survives and every charge has its run", { timeout: 120_000 }, async () => {
    const db = serviceDatabase("crash-load");
    cleanups.push(db.cleanup);
    const env = { ...db.env, SANDBOX: "false", LOG_LEVEL: "warn", JUDGE_PROVIDER: "rules", RATE_LIMIT_PER_MINUTE: "0" };
    svc = await startService(env);
    const account = (await call(svc, "POST", "/admin/v1/accounts", { admin: true, body: { name: "load", credits: 100_000 } })).body;
    const key = account.apiKey as string;
    const answered: string[] = [];
    let stopped = false;
    const worker = async () => {
      while (!stopped) {
        const r = await call(svc!, "POST", "/api/v1/intent", { key, body: VERIFY }).catch(() => null);
        if (!r) return; // the process is gone
        if (r.status === 201) answered.push(r.body.id as string);
      }
    };
    const workers = Array.from({ length: 12 }, worker);
    await until("some runs answered", async () => answered.length >= 60);
    await stop(svc, "SIGKILL");
    stopped = true;
    await Promise.all(workers);

    svc = await startService(env);
    const after = await balance(key);
    await stop(svc);
    const h = await db.open();
    try {
      const runs = await h.db.selectFrom("verifications").select(["id", "status"]).execute();
      const stored = new Set(runs.filter((r) => r.status === "COMPLETED").map((r) => r.id));
      for (const id of answered) expect(stored.has(id)).toBe(true);
      expect(runs.filter((r) => r.status !== "COMPLETED")).toEqual([]);
      // Each charge belongs to exactly one stored run, each stored run was charged once.
      const debits = await sql<{ ref: string; n: number }>`select ref, count(*)::int as n from credit_entries where reason = 'verification' group by ref`.execute(h.db);
      expect(debits.rows.every((d) => d.n === 1 && stored.has(d.ref))).toBe(true);
      expect(debits.rows.length).toBe(stored.size);
      expect(100_000 - after).toBe(stored.size);
      expect(await ledgerMismatches(h.db)).toEqual([]);
    } finally {
      await h.close();
    }
  });
});
