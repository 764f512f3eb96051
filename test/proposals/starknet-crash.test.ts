/**
 * Crash safety on Starknet (DESIGN: never send twice). The real service runs as a child process against a
 * Starknet node (the sandbox node, run by this test with its state on disk) through a JSON-RPC relay that
 * can stall the service's `starknet_addInvokeTransaction`: the service is killed with SIGKILL while it waits,
 * then started again on the same DATA_DIR. Each proposal's transaction lands exactly once, with the hash the
 * service stored before sending.
 *
 * B (first): the wallet's first proposal (DEPLOY_ACCOUNT then INVOKE): the deployment reaches the node, the
 *   INVOKE is lost (the relay swallows it). Restart: the stored bundle is sent again; the deployment is not
 *   repeated; the INVOKE lands once.
 * A: the INVOKE reaches the node and lands, the answer never comes back. Restart: the lookup finds the
 *   receipt by the stored hash; nothing is sent again.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Account, cairo, CallData, RpcProvider } from "starknet";
import { afterAll, describe, expect, it } from "vitest";
import { startStarknetSandbox, type StarknetSandbox } from "../../src/chains/starknet/sandbox";
import { startService, until, type ServiceProcess } from "../helpers/process";
import { freshFelt, SN_TOKENS } from "../wallets/starknet-helpers";

const ADMIN = "starknet-crash-admin-token-0123456789";
const root = mkdtempSync(path.join(tmpdir(), "arbiter-sn-crash-"));
let svc: ServiceProcess | null = null;
let node: StarknetSandbox | null = null;
let relay: Server | null = null;

afterAll(async () => {
  if (svc && svc.child.exitCode === null) {
    svc.child.kill("SIGTERM");
    await svc.exited;
  }
  relay?.closeAllConnections();
  await new Promise((r) => relay?.close(r) ?? r(null));
  await node?.close();
  rmSync(root, { recursive: true, force: true });
});

type Mode = "pass" | "swallow" | "land-then-stall";

/** A JSON-RPC relay to the node; in a stalling mode the next addInvokeTransaction is recorded and never answered. */
async function startRelay(target: string) {
  let mode: Mode = "pass";
  let stalled: { hash?: string; tx: Record<string, unknown> } | null = null;
  const read = (req: IncomingMessage) => new Promise<string>((r) => {
    let b = "";
    req.on("data", (d) => (b += d));
    req.on("end", () => r(b));
  });
  const forward = async (body: string) => (await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body })).text();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const body = await read(req);
      const msg = JSON.parse(body) as { method: string; params: Record<string, unknown> };
      if (msg.method === "starknet_addInvokeTransaction" && mode !== "pass") {
        const tx = msg.params.invoke_transaction as Record<string, unknown>;
        if (mode === "land-then-stall") {
          const answer = JSON.parse(await forward(body)) as { result?: { transaction_hash: string } };
          stalled = { hash: answer.result?.transaction_hash, tx };
        } else stalled = { tx };
        return; // never answered: the service waits until it is killed
      }
      res.writeHead(200, { "content-type": "application/json" }).end(await forward(body));
    })();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  relay = server;
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/rpc`,
    stall(m: Mode) {
      mode = m;
      stalled = null;
    },
    stalled: () => stalled,
  };
}

describe("kill -9 during a Starknet execution", () => {
  it("restarts and settles by hash: the deployment and each transfer land once", { timeout: 300_000 }, async () => {
    node = await startStarknetSandbox({ dataDir: path.join(root, "node") });
    const provider = new RpcProvider({ nodeUrl: node.url });
    const faucet = new Account({ provider, address: node.node.faucet.address, signer: node.node.faucet.privateKey });
    const r = await startRelay(node.url);
    const env = { DATA_DIR: path.join(root, "svc"), SANDBOX: "false", STARKNET_RPC_URL: r.url, ADMIN_TOKEN: ADMIN, LOG_LEVEL: "warn", JUDGE_PROVIDER: "rules" };
    const payee = freshFelt();

    svc = await startService(env);
    const call = async (method: string, route: string, headers: Record<string, string>, body?: unknown) => {
      const res = await fetch(`${svc!.url}${route}`, { method, headers: { ...headers, ...(body ? { "content-type": "application/json" } : {}) }, body: body ? JSON.stringify(body) : undefined });
      return { status: res.status, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
    };
    const account = (await call("POST", "/admin/v1/accounts", { authorization: `Bearer ${ADMIN}` }, { name: "crash", credits: 10 })).body;
    const key = { "x-api-key": account.apiKey as string };
    const created = await call("POST", "/api/v1/wallets", key, { name: "crash", chain: "starknet", mode: "autonomous", mandate: `Send at most 10 USDC per transfer to ${payee}.` });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const wallet = created.body.address as string;
    for (const [token, amount] of [[SN_TOKENS.STRK, 10n ** 19n], [SN_TOKENS.USDC, 100_000_000n]] as const) {
      const t = await faucet.execute({ contractAddress: token, entrypoint: "transfer", calldata: CallData.compile({ recipient: wallet, amount: cairo.uint256(amount) }) });
      await provider.waitForTransaction(t.transaction_hash, { retryInterval: 20 });
    }
    const usdc = async (a: string) => {
      const [low, high] = await provider.callContract({ contractAddress: SN_TOKENS.USDC, entrypoint: "balance_of", calldata: [a] });
      return BigInt(low!) + (BigInt(high!) << 128n);
    };
    const nonce = async () => BigInt(await provider.getNonceForAddress(wallet));
    const propose = (amount: string) => call("POST", "/api/v1/wallets/crash/propose", key, { input: { kind: "transfer", chain: "starknet", transfer: { asset: "USDC", amount, to: payee } } });
    const proposals = async () => (await call("GET", "/api/v1/escrow-transactions", key)).body.transactions as { id: string; status: string }[];
    const executed = (id: string) =>
      until(`proposal ${id} executed`, async () => {
        const s = (await call("GET", `/api/v1/escrow-transactions/${id}`, key)).body;
        return s.status === "executed" ? s : null;
      }, 60_000);
    async function crashWhileSending(amount: string, mode: Mode) {
      r.stall(mode);
      void propose(amount).catch(() => {});
      const s = await until("the service to send its INVOKE", async () => r.stalled());
      svc!.child.kill("SIGKILL");
      await svc!.exited;
      r.stall("pass");
      return s;
    }

    // B: the first proposal deploys the account; its INVOKE is lost with the crash.
    const b = await crashWhileSending("5", "swallow");
    expect(BigInt(await provider.getClassHashAt(wallet))).toBeGreaterThan(0n); // the deployment landed
    expect(await nonce()).toBe(1n);
    expect(await usdc(payee)).toBe(0n);
    svc = await startService(env);
    const [pb] = await proposals();
    const sb = await executed(pb!.id);
    // What landed is the very INVOKE the service signed and stored before the crash (same nonce, same signature).
    const landed = (await provider.getTransactionByHash(sb.txHash)) as unknown as { nonce: string; signature: string[] };
    expect(BigInt(landed.nonce)).toBe(1n);
    expect(BigInt(b.tx.nonce as string)).toBe(1n);
    expect(landed.signature.map(BigInt)).toEqual((b.tx.signature as string[]).map(BigInt));
    expect(await usdc(payee)).toBe(5_000_000n);
    expect(await nonce()).toBe(2n);

    // A: the INVOKE lands while the service waits for its answer; the restart finds it by its hash.
    const a = await crashWhileSending("3", "land-then-stall");
    expect(a.hash).toMatch(/^0x[0-9a-f]+$/);
    expect(await usdc(payee)).toBe(8_000_000n);
    svc = await startService(env);
    const pa = (await proposals()).find((p) => p.id !== pb!.id)!;
    const sa = await executed(pa.id);
    expect(BigInt(sa.txHash)).toBe(BigInt(a.hash!));
    expect(await usdc(payee)).toBe(8_000_000n);
    expect(await nonce()).toBe(3n);

    // The nonce bookkeeping carries on: a normal proposal after the crashes.
    const c = await propose("1");
    expect(c.body.status, JSON.stringify(c.body)).toBe("executed");
    expect(await usdc(payee)).toBe(9_000_000n);
    expect(await nonce()).toBe(4n);
    expect((await proposals()).map((p) => p.status)).toEqual(["executed", "executed", "executed"]);
  });
});
