/**
 * kill -9 between sending and mining an anchor transaction, then restart: the batch is anchored once.
 * The test owns the chain (a sandbox anvil, given to the service as BASE_RPC_URL) so the kill leaves it
 * running; automine is off so the kill lands while the transaction waits in the pool.
 * A: the transaction is still in the pool at restart: the service re-sends the same bytes, nothing new.
 * B: the pool lost it (dropped, as if the crash came right before the broadcast): the stored bytes are
 *    re-broadcast, the same hash is mined.
 * The service runs on PGlite in its DATA_DIR, as `npm start` does.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { RECEIPT_ANCHOR, rpcCall, sandboxPublicClient, startSandbox, type Sandbox } from "../../src/sandbox";
import { startService, until, type ServiceProcess } from "../helpers/process";
import { anchoredEvents } from "./helpers";

const ADMIN = "anchor-crash-admin-token-0123456789";
const dataDir = mkdtempSync(path.join(tmpdir(), "arbiter-anchor-crash-"));
let svc: ServiceProcess | null = null;
let sb: Sandbox | null = null;

afterAll(async () => {
  if (svc && svc.child.exitCode === null) {
    svc.child.kill("SIGTERM");
    await svc.exited;
  }
  await sb?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("kill -9 while an anchor transaction waits to be mined", () => {
  it("restarts and anchors each batch once, with one transaction", { timeout: 240_000 }, async () => {
    sb = await startSandbox({ port: 0 });
    const rpcUrl = sb.rpcUrl;
    const anchorer = sb.accounts.anchor.address;
    const env = {
      DATA_DIR: dataDir,
      ADMIN_TOKEN: ADMIN,
      LOG_LEVEL: "info",
      BASE_RPC_URL: rpcUrl,
      ANCHOR_PRIVATE_KEY: sb.accounts.anchorKey,
      ANCHOR_CONTRACT_ADDRESS: RECEIPT_ANCHOR,
      ANCHOR_BATCH_MAX_WAIT_MS: "0",
      ANCHOR_POLL_MS: "100",
      ANCHOR_CONFIRMATIONS: "1",
    };
    const pub = sandboxPublicClient(rpcUrl);
    const nonce = (blockTag: "latest" | "pending") => pub.getTransactionCount({ address: anchorer, blockTag });
    const poolHashes = async () => {
      const pool = await rpcCall<{ pending: Record<string, Record<string, { hash: string }>> }>(rpcUrl, "txpool_content", []);
      return Object.values(pool.pending).flatMap((byNonce) => Object.values(byNonce).map((t) => t.hash));
    };

    svc = await startService(env);
    const call = async (method: string, route: string, headers: Record<string, string>, body?: unknown) => {
      const res = await fetch(`${svc!.url}${route}`, { method, headers: { ...headers, ...(body ? { "content-type": "application/json" } : {}) }, body: body ? JSON.stringify(body) : undefined });
      return (await res.json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    };
    const account = await call("POST", "/admin/v1/accounts", { authorization: `Bearer ${ADMIN}` }, { name: "anchor-crash", credits: 10 });
    const key = { "x-api-key": account.apiKey as string };
    const status = async (id: string) => (await call("GET", `/api/v1/intent/${id}`, key)).proof as { anchorStatus: string; anchorTx: string | null };

    /** A verification whose anchor transaction is sent but not mined when the service is killed. */
    async function crashWithAnchorInPool(expectedPendingNonce: number): Promise<{ id: string; sentHash: string }> {
      await rpcCall(rpcUrl, "evm_setAutomine", [false]);
      const run = await call("POST", "/api/v1/intent", key, { intent: "Never transfer funds.", action: "Send 5 ETH to 0xabc" });
      await until("the anchor transaction in the pool", async () => (await nonce("pending")) === expectedPendingNonce);
      const [sentHash] = await poolHashes();
      svc!.child.kill("SIGKILL");
      await svc!.exited;
      return { id: run.id as string, sentHash };
    }

    // A: still in the pool at restart.
    const a = await crashWithAnchorInPool(1);
    svc = await startService(env);
    await new Promise((r) => setTimeout(r, 1_500)); // several worker passes with the transaction pending
    expect(await nonce("pending")).toBe(1); // nothing new was signed
    expect(await poolHashes()).toEqual([a.sentHash]);
    expect((await status(a.id)).anchorStatus).toBe("pending");
    await rpcCall(rpcUrl, "evm_mine", []);
    const aDone = await until("A verified", async () => {
      const s = await status(a.id);
      return s.anchorStatus === "verified" ? s : null;
    });
    expect(aDone.anchorTx).toBe(a.sentHash);

    // B: the pool loses the transaction while the service is down.
    const b = await crashWithAnchorInPool(2);
    await rpcCall(rpcUrl, "anvil_dropAllTransactions", []);
    expect(await poolHashes()).toEqual([]);
    svc = await startService(env);
    // A kill that lands inside a worker step leaves that batch leased for the step's 60 s, so the restarted
    // worker may have to wait the lease out before it re-sends: the bound here covers that, not a speed target.
    await until("the stored bytes re-broadcast", async () => (await poolHashes()).includes(b.sentHash), 90_000);
    await rpcCall(rpcUrl, "evm_setAutomine", [true]);
    await rpcCall(rpcUrl, "evm_mine", []);
    const bDone = await until("B verified", async () => {
      const s = await status(b.id);
      return s.anchorStatus === "verified" ? s : null;
    });
    expect(bDone.anchorTx).toBe(b.sentHash);

    // Once each: one Anchored event per batch, two transactions from the anchor key in all.
    const events = (await anchoredEvents(rpcUrl)).filter((e) => e.anchorer.toLowerCase() === anchorer.toLowerCase());
    expect(events.map((e) => e.tx).sort()).toEqual([a.sentHash, b.sentHash].sort());
    expect(new Set(events.map((e) => String(e.batchId))).size).toBe(2);
    expect(await nonce("latest")).toBe(2);
    expect(svc.output()).toMatch(/anchor batch verified/);
  });
});
