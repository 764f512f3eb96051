/**
 * Issue 18, item 6, with a real kill -9: the service dies after the judge answered a proposal (its credit
 * charged, its run COMPLETED) and before the proposal was decided. The window is a few statements wide, so
 * the test holds it open: while a slow model judge (fake OpenAI on loopback) thinks, the test takes the
 * proposal's row lock in PostgreSQL; the judge answers, the run is completed and charged, and the service's
 * decision waits on the lock. Then SIGKILL, the dead process's waiting statement ended, release, and a restart on the same database and chain (the
 * proposal's `updated_at` is moved back past the sweep's grace, as if the restart came later). The start-up
 * sweep must keep the verification: verdict and scanId on the proposal, held for the owner, the credit
 * charged once and nothing sent. Needs PostgreSQL (DATABASE_URL): PGlite has no second connection to hold
 * a lock from. test/proposals/interrupted.test.ts covers the same state on every database.
 */
import { afterAll, describe, expect, it } from "vitest";
import pg from "pg";
import type { Address } from "viem";
import { createPublicClient, http } from "viem";
import { alive, childPids, freePort } from "../helpers/process";
import { startFakeOpenAI } from "../helpers/fake-openai";
import { call, serviceDatabase, startService, stop, until, type ServiceProcess } from "../resilience/helpers";
import { createFaucet, deriveSandboxAccounts, loadOrCreateSandboxSeed } from "../../src/sandbox";
import { ERC20, USDC } from "../wallets/helpers";

const URL = process.env.DATABASE_URL;
const DEAD: Address = "0x000000000000000000000000000000000000dEaD";
let svc: ServiceProcess | null = null;
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  await stop(svc, "SIGTERM");
  for (const c of cleanups.reverse()) await c().catch(() => {});
});

describe.skipIf(!URL)("kill -9 after the judge answered a proposal", () => {
  it("the restarted sweep keeps the verdict and scanId, holds the proposal for the owner, charges once, sends nothing", { timeout: 240_000 }, async () => {
    const judge = await startFakeOpenAI({ verdict: "ALLOW", reasoning: "a supplier payment within the mandate" }, 1500);
    cleanups.push(async () => {
      judge.server.closeAllConnections();
      judge.server.close();
    });
    const db = serviceDatabase("crash-judged");
    cleanups.push(db.cleanup);
    const schema = db.env.DATABASE_SCHEMA;
    const rpcPort = await freePort();
    const env = {
      ...db.env,
      SANDBOX: "true",
      SANDBOX_RPC_PORT: String(rpcPort),
      LOG_LEVEL: "warn",
      JUDGE_PROVIDER: "openai",
      JUDGE_BASE_URL: judge.url,
      JUDGE_MODEL: "test-model",
      JUDGE_API_KEY: "sk-test",
      JUDGE_TIMEOUT_MS: "20000",
    };
    svc = await startService(env);
    const pub = createPublicClient({ transport: http(`http://127.0.0.1:${rpcPort}`) });
    const account = (await call(svc, "POST", "/admin/v1/accounts", { admin: true, body: { name: "crash-judged", credits: 5 } })).body;
    const key = account.apiKey as string;
    const created = await call(svc, "POST", "/api/v1/wallets", { key, body: { name: "payer", chain: "base", mode: "autonomous", mandate: "Pay suppliers in USDC, up to 50 USDC per payment." } });
    expect(created.status).toBe(201);
    const faucet = createFaucet({ rpcUrl: `http://127.0.0.1:${rpcPort}`, account: deriveSandboxAccounts(loadOrCreateSandboxSeed(db.dataDir)).faucet });
    await faucet.fund({ address: created.body.address, asset: "ETH", amount: "1" });
    await faucet.fund({ address: created.body.address, asset: "USDC", amount: "100" });
    const usdcOf = (a: Address) => pub.readContract({ address: USDC, abi: ERC20, functionName: "balanceOf", args: [a] });
    const deadBefore = await usdcOf(DEAD);

    // The test's own connection to the service's schema: it holds the proposal's row lock.
    const lock = new pg.Client({ connectionString: URL });
    await lock.connect();
    cleanups.push(() => lock.end());
    await lock.query(`set search_path to "${schema}"`);

    void call(svc, "POST", "/api/v1/wallets/payer/propose", { key, body: { input: { kind: "transfer", chain: "base", transfer: { asset: "USDC", amount: "20", to: DEAD } } } }).catch(() => {});
    await until("the judge to be asked", async () => judge.requests.length === 1);
    await lock.query("begin");
    const locked = await lock.query<{ id: string }>("select id from proposals where status = 'verifying' for update");
    expect(locked.rows).toHaveLength(1);
    const proposalId = locked.rows[0].id;
    // The judge answers; the run is completed and charged; the decision then waits on our lock.
    const run = await until(
      "the judge run completed and charged",
      async () => (await lock.query<{ id: string }>("select v.id from verifications v join credit_entries ce on ce.ref = v.id::text where ce.reason = $1 and v.status = 'COMPLETED'", [`proposal:${proposalId}`])).rows[0],
      30_000,
    );
    const children = childPids(svc.child.pid!);
    svc.child.kill("SIGKILL");
    await svc.exited;
    // PostgreSQL would still run the statement the dead process sent once the lock is free (a backend notices
    // its client is gone only when it answers): end the backends waiting on our lock, as a crash before
    // that statement was sent leaves nothing to run.
    const waiting = await lock.query<{ pid: number }>("select pid from pg_stat_activity where pg_backend_pid() = any(pg_blocking_pids(pid))");
    expect(waiting.rows.length).toBeGreaterThanOrEqual(1);
    await lock.query("select pg_terminate_backend(pid) from pg_stat_activity where pg_backend_pid() = any(pg_blocking_pids(pid))");
    await until("the waiting statements to end", async () => (await lock.query("select 1 from pg_stat_activity where pg_backend_pid() = any(pg_blocking_pids(pid))")).rows.length === 0);
    await lock.query("rollback");
    // The service's chains outlive it (orphans); stop them as a crash of the host would, anvil saving its state.
    for (const pid of children) {
      process.kill(pid, "SIGTERM");
      await until("a sandbox chain to exit", async () => !alive(pid));
    }
    const before = await lock.query("select status, verdict, scan_id from proposals where id = $1", [proposalId]);
    expect(before.rows[0]).toEqual({ status: "verifying", verdict: null, scan_id: null }); // what the crash left
    await lock.query("update proposals set updated_at = now() - interval '1 hour' where id = $1", [proposalId]);

    svc = await startService(env);
    const settled = await until(
      "the sweep to settle the interrupted proposal",
      async () => {
        const s = (await call(svc!, "GET", `/api/v1/escrow-transactions/${proposalId}`, { key })).body;
        return s.status !== "verifying" ? s : null;
      },
      60_000,
    );
    expect(settled).toMatchObject({ status: "awaiting_user", verdict: "ALLOW", txHash: null, approvalUrl: expect.stringContaining(proposalId) });
    const row = (await lock.query("select scan_id, credits_remaining, reasoning from proposals where id = $1", [proposalId])).rows[0];
    expect(row.scan_id).toBe(run.id);
    expect(row.credits_remaining).toBe(4);
    expect(row.reasoning).toMatch(/^Held for the owner: the service stopped after the judge allowed it/);
    const receipt = await call(svc, "GET", `/api/v1/intent/${run.id}`, { key });
    expect(receipt.body).toMatchObject({ status: "COMPLETED", verdict: "ALLOW" });
    const ledger = await lock.query("select delta, reason from credit_entries where account_id = $1 order by id", [account.accountId]);
    expect(ledger.rows).toEqual([
      { delta: 5, reason: "grant:opening" },
      { delta: -1, reason: `proposal:${proposalId}` },
    ]);
    expect((await call(svc, "GET", "/api/v1/credits", { key })).body.creditsRemaining).toBe(4);
    expect(await usdcOf(DEAD)).toBe(deadBefore); // nothing was signed or sent
  });
});
