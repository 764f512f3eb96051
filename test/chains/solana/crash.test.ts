/**
 * Crash safety on Solana (never send twice). The real service runs as a child process with its litesvm
 * cluster in-process, persisted under DATA_DIR; it is killed with SIGKILL while the owner's confirmation
 * is executing, then started again on the same DATA_DIR. The sandbox's fault injection holds the send:
 * A ("land"): the transaction lands but the RPC never answers, so the kill falls after the landing and
 * before the service saw it: restart finds the signature's status, executed, nothing re-sent.
 * B ("drop"): the node loses the transaction: restart finds no status while the blockhash is still valid,
 * re-broadcasts the same stored bytes (same signature), and it lands once. (The Solana cluster dies with the
 * process; its ledger file is written before a send returns, so what landed survives.)
 */
import { afterAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createSolanaRpc, generateKeyPairSigner, type Address } from "@solana/kit";
import { alive, childPids, freePort, startService, until, type ServiceProcess } from "../../helpers/process";

const ADMIN = "sol-crash-admin-token-0123456789";
const dataDir = mkdtempSync(path.join(tmpdir(), "arbiter-sol-crash-"));
let svc: ServiceProcess | null = null;

afterAll(async () => {
  if (svc && svc.child.exitCode === null) {
    svc.child.kill("SIGTERM");
    await svc.exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

describe("kill -9 during a Solana execution", () => {
  it("restarts and settles by signature: each transfer lands exactly once", { timeout: 240_000 }, async () => {
    const solPort = await freePort();
    const rpcUrl = `http://127.0.0.1:${solPort}`;
    const env = { DATA_DIR: dataDir, SANDBOX: "true", SANDBOX_RPC_PORT: String(await freePort()), SOLANA_SANDBOX_RPC_PORT: String(solPort), ADMIN_TOKEN: ADMIN, LOG_LEVEL: "warn", JUDGE_PROVIDER: "rules" };
    const rpc = createSolanaRpc(rpcUrl);
    const sandbox = async (method: string, params: unknown[] = []) =>
      ((await (await fetch(rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) })).json()) as { result: unknown }).result;

    svc = await startService(env);
    const call = async (method: string, route: string, headers: Record<string, string>, body?: unknown) => {
      const res = await fetch(`${svc!.url}${route}`, { method, headers: { ...headers, ...(body ? { "content-type": "application/json" } : {}) }, body: body ? JSON.stringify(body) : undefined });
      return { status: res.status, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
    };
    const admin = { authorization: `Bearer ${ADMIN}` };
    const account = (await call("POST", "/admin/v1/accounts", admin, { name: "crash", credits: 10 })).body;
    const key = { "x-api-key": account.apiKey as string };
    const created = await call("POST", "/api/v1/wallets", key, { name: "crash", chain: "solana", mode: "autonomous", mandate: "Pay the landlord in SOL." });
    expect(created.status).toBe(201);
    const wallet = created.body.address as string;
    expect((await call("POST", "/admin/v1/sandbox/fund", admin, { chain: "solana", address: wallet, asset: "SOL", amount: "2" })).status).toBe(200);
    const landlord = (await generateKeyPairSigner()).address;
    const lamports = async () => (await rpc.getBalance(landlord as Address).send()).value;
    const signatures = async () => (await rpc.getSignaturesForAddress(landlord as Address).send()).map((s) => String(s.signature));

    /** A named transfer (held for the owner, SPEC 3), confirmed with sends held, killed once the send is held. */
    async function crashDuringConfirm(amount: string, mode: "land" | "drop"): Promise<string> {
      const p = await call("POST", "/api/v1/wallets/crash/propose", key, { input: { kind: "transfer", chain: "solana", transfer: { asset: "SOL", amount, to: landlord } } });
      expect(p.body.status).toBe("awaiting_user");
      await sandbox("sandbox_holdSends", [mode]);
      void call("POST", `/admin/v1/proposals/${p.body.txId}/confirm`, admin).catch(() => {});
      await until("the service to send the signed transaction", async () => ((await sandbox("sandbox_heldSends")) as number) >= 1);
      // The EVM sandbox (anvil) is a child process that outlives a SIGKILL: stopped by its pid before restarting.
      const orphans = childPids(svc!.child.pid!);
      svc!.child.kill("SIGKILL");
      await svc!.exited;
      for (const pid of orphans) {
        process.kill(pid, "SIGTERM");
        await until("anvil to exit", async () => !alive(pid));
      }
      return p.body.txId as string;
    }
    const settled = async (txId: string) =>
      until("the proposal settled", async () => {
        const s = (await call("GET", `/api/v1/escrow-transactions/${txId}`, key)).body;
        return s.status === "executed" || s.status === "failed" ? s : null;
      });

    // A: landed while the service was down (it never heard back).
    const a = await crashDuringConfirm("0.3", "land");
    svc = await startService(env);
    const sa = await settled(a);
    expect(sa.status).toBe("executed");
    expect(await lamports()).toBe(300_000_000n);
    expect(await signatures()).toEqual([sa.txHash]);

    // B: the node lost it: the same bytes are re-broadcast after the restart, landing once.
    const b = await crashDuringConfirm("0.2", "drop");
    svc = await startService(env);
    const sb = await settled(b);
    expect(sb.status).toBe("executed");
    expect(await lamports()).toBe(500_000_000n);
    expect((await signatures()).sort()).toEqual([sa.txHash, sb.txHash].sort());

    // The wallet carries on normally after the crashes.
    const c = await call("POST", "/api/v1/wallets/crash/propose", key, { input: { kind: "transfer", chain: "solana", transfer: { asset: "SOL", amount: "0.1", to: landlord } } });
    expect((await call("POST", `/admin/v1/proposals/${c.body.txId}/confirm`, admin)).body.status).toBe("executed");
    expect(await lamports()).toBe(600_000_000n);
    expect(await signatures()).toHaveLength(3);
  });
});
