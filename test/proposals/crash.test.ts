/**
 * Crash safety (DESIGN: never send twice). The real service runs as a child process on its own sandbox
 * chain (anvil, state persisted in DATA_DIR); it is killed with SIGKILL in the middle of executing a
 * proposal, then started again on the same DATA_DIR. Each proposal's transaction lands exactly once.
 *
 * Anvil's automine is switched off so the kill lands between "signed, stored and sent" and "receipt
 * recorded". A: the transaction is mined while the service is down (restart finds the receipt).
 * B: the chain loses it (anvil restarts with an empty pool, as if the crash came before the broadcast):
 * restart re-broadcasts the stored bytes, the same transaction hash, once.
 */
import { afterAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createPublicClient, http, type Address, type Hex } from "viem";
import { alive, childPids, freePort, startService, until, type ServiceProcess } from "../helpers/process";
import { createFaucet, deriveSandboxAccounts, loadOrCreateSandboxSeed } from "../../src/sandbox";
import { ERC20, USDC } from "../wallets/helpers";

const ADMIN = "crash-test-admin-token-0123456789";
const DEAD: Address = "0x000000000000000000000000000000000000dEaD";
const dataDir = mkdtempSync(path.join(tmpdir(), "arbiter-crash-"));
let svc: ServiceProcess | null = null;

afterAll(async () => {
  if (svc && svc.child.exitCode === null) {
    svc.child.kill("SIGTERM");
    await svc.exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

describe("kill -9 during execution", () => {
  it("restarts and settles by hash: nothing is sent twice", { timeout: 240_000 }, async () => {
    const rpcPort = await freePort();
    const rpcUrl = `http://127.0.0.1:${rpcPort}`;
    const env = { DATA_DIR: dataDir, SANDBOX: "true", SANDBOX_RPC_PORT: String(rpcPort), ADMIN_TOKEN: ADMIN, LOG_LEVEL: "warn", JUDGE_PROVIDER: "rules" };
    const rpc = async <T>(method: string, params: unknown[] = []) =>
      ((await (await fetch(rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) })).json()) as { result: T }).result;
    const pub = createPublicClient({ transport: http(rpcUrl) });

    svc = await startService(env);
    const call = async (method: string, route: string, headers: Record<string, string>, body?: unknown) => {
      const res = await fetch(`${svc!.url}${route}`, { method, headers: { ...headers, ...(body ? { "content-type": "application/json" } : {}) }, body: body ? JSON.stringify(body) : undefined });
      return { status: res.status, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
    };
    const account = (await call("POST", "/admin/v1/accounts", { authorization: `Bearer ${ADMIN}` }, { name: "crash", credits: 10 })).body;
    const key = { "x-api-key": account.apiKey as string };
    const created = await call("POST", "/api/v1/wallets", key, { name: "crash", chain: "base", mode: "autonomous", mandate: `Send at most 10 USDC per transfer to ${DEAD}.` });
    expect(created.status).toBe(201);
    const wallet = created.body.address as Address;
    const faucet = createFaucet({ rpcUrl, account: deriveSandboxAccounts(loadOrCreateSandboxSeed(dataDir)).faucet });
    await faucet.fund({ address: wallet, asset: "ETH", amount: "1" });
    await faucet.fund({ address: wallet, asset: "USDC", amount: "100" });
    const usdc = (a: Address) => pub.readContract({ address: USDC, abi: ERC20, functionName: "balanceOf", args: [a] });
    const pendingNonce = () => pub.getTransactionCount({ address: wallet, blockTag: "pending" });
    const propose = (amount: string) => call("POST", "/api/v1/wallets/crash/propose", key, { input: { kind: "transfer", chain: "base", transfer: { asset: "USDC", amount, to: DEAD } } });

    /** Propose with automine off, wait until the service has sent the transaction, then SIGKILL it. */
    async function crashMidExecution(amount: string, expectedPendingNonce: number): Promise<{ anvilPid: number; sentHash: Hex }> {
      await rpc("evm_setAutomine", [false]);
      void propose(amount).catch(() => {});
      await until("the transaction in anvil's pool", async () => (await pendingNonce()) === expectedPendingNonce);
      const pool = await rpc<{ pending: Record<string, Record<string, { hash: Hex }>> }>("txpool_content");
      const sentHash = Object.values(Object.values(pool.pending).find((byNonce) => byNonce)!)[0].hash;
      const [anvilPid] = childPids(svc!.child.pid!);
      expect(anvilPid).toBeGreaterThan(0);
      svc!.child.kill("SIGKILL");
      await svc!.exited;
      return { anvilPid, sentHash };
    }
    async function stopOrphanAnvil(pid: number) {
      process.kill(pid, "SIGTERM"); // anvil dumps its state on SIGTERM
      await until("anvil to exit", async () => !alive(pid));
    }
    const proposals = async () => (await call("GET", "/api/v1/escrow-transactions", key)).body.transactions as { id: string; status: string; createdAt: string }[];

    // A: mined while the service is down.
    const a = await crashMidExecution("5", 1);
    await rpc("evm_mine");
    expect(await usdc(DEAD)).toBe(5_000_000n);
    await stopOrphanAnvil(a.anvilPid);
    svc = await startService(env);
    const [pa] = await proposals();
    expect(pa.status).toBe("executed");
    const sa = (await call("GET", `/api/v1/escrow-transactions/${pa.id}`, key)).body;
    expect(sa.txHash).toBe(a.sentHash);
    expect(await usdc(DEAD)).toBe(5_000_000n);
    expect(await pub.getTransactionCount({ address: wallet })).toBe(1);

    // B: the chain forgets the transaction (empty pool after anvil restarts): re-broadcast, same hash.
    const b = await crashMidExecution("3", 2);
    await stopOrphanAnvil(b.anvilPid);
    svc = await startService(env);
    const [pb] = await proposals();
    expect(pb.id).not.toBe(pa.id);
    const sb = await until("proposal B executed", async () => {
      const s = (await call("GET", `/api/v1/escrow-transactions/${pb.id}`, key)).body;
      return s.status === "executed" ? s : null;
    });
    expect(sb.txHash).toBe(b.sentHash);
    expect(await usdc(DEAD)).toBe(8_000_000n);
    expect(await pub.getTransactionCount({ address: wallet })).toBe(2);

    // The nonce bookkeeping carries on: a normal proposal after the crashes.
    const c = await propose("1");
    expect(c.body.status).toBe("executed");
    expect(await usdc(DEAD)).toBe(9_000_000n);
    expect(await pub.getTransactionCount({ address: wallet })).toBe(3);
    expect((await proposals()).map((p) => p.status)).toEqual(["executed", "executed", "executed"]);
  });
});
