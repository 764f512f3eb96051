/**
 * kill -9 during x402 top-ups: the service as a real process on its sandbox chain (on PGlite, or on
 * PostgreSQL when DATABASE_URL is set), killed with top-ups in flight at each step of purchase()
 * (src/credits/topup/purchase.ts), then restarted on the same DATA_DIR / database. Payments are signed with
 * the official x402 client. No production hook: each step is reached from outside.
 *
 * Crash A, two top-ups in flight:
 *   step 3  credited, never answered: the client sends its payment and never reads; the kill comes after
 *           GET /api/v1/credits shows the credit (the service does nothing after the commit but answer).
 *   step 1  claim row written, nothing sent: anvil is frozen (SIGSTOP), so the request blocks on its first
 *           chain read, which follows the INSERT; the kill comes when that read reaches anvil's socket.
 * Crash B, two settlements sent and not mined (anvil's automine off), the kill once both are in the pool:
 *   step 2a mined while the service is down: the start-up sweep credits it from the chain evidence.
 *   step 2b lost by the node (dropped from the pool: the same state as a kill between `settle_started_at`
 *           and the broadcast): the retry settles it.
 *
 * After each restart the payer retries with the same PAYMENT-SIGNATURE (docs/topup.md: after a failure or
 * no answer, retry the same header), then once more. Asserted for each payment: the payer's USDC moved once,
 * the credits arrived once (API and ledger row), the retries are replays of the same receipt; for all: payTo
 * received exactly one payment each, the relayer sent exactly one settlement each, every ledger sums to its
 * balance. The database state left by each kill is checked too (it proves the kill hit the intended step).
 *
 * The dead process's claim leases (120 s): on PGlite the restarted service ends them itself (it owns the
 * database alone, so every running lease is a dead process's), which this test relies on; on PostgreSQL,
 * where another live process may hold a lease, they are expired in the database while the service is down
 * instead of being waited out. Everything else runs on the wall clock.
 */
import { existsSync, readFileSync } from "node:fs";
import { createConnection } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { x402Client } from "@x402/core/client";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { createPublicClient, http, parseAbi, type Address, type Hex, type PublicClient } from "viem";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { ledgerMismatches } from "../../src/credits/ledger";
import type { Database } from "../../src/db/client";
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader, getEip3009Authorization, PAYMENT_REQUIRED_HEADER } from "../../src/x402";
import { alive, childPids, freePort } from "../helpers/process";
import { call, serviceDatabase, startService, stop, until, type ServiceProcess } from "./helpers";

const TOKEN = parseAbi(["function balanceOf(address) view returns (uint256)", "function authorizationState(address, bytes32) view returns (bool)"]);
const ONE_USDC = 1_000_000n;
const TOPUP = "/api/v1/credits/topup?credits=20";

const database = serviceDatabase("crash-topup");
let svc: ServiceProcess | null = null;
/** anvil processes left behind by a killed service (stopped here, by pid). */
const orphans = new Set<number>();

afterAll(async () => {
  if (svc && svc.child.exitCode === null && svc.child.signalCode === null) for (const pid of anvilsOf(svc)) orphans.add(pid);
  await stop(svc, "SIGKILL");
  for (const pid of orphans) {
    for (const sig of ["SIGCONT", "SIGKILL"] as const) {
      try {
        process.kill(pid, sig);
      } catch {
        /* gone */
      }
    }
  }
  await database.cleanup();
}, 60_000);

/** anvil processes the service runs (its direct children). */
function anvilsOf(s: ServiceProcess): number[] {
  return childPids(s.child.pid!).filter((k) => existsSync(`/proc/${k}/comm`) && readFileSync(`/proc/${k}/comm`, "utf8").trim() === "anvil");
}

function anvilOf(s: ServiceProcess): number {
  const anvil = anvilsOf(s);
  expect(anvil).toHaveLength(1);
  return anvil[0];
}

/** Bytes sent to anvil's port that (frozen) anvil has not read: someone is waiting on the chain. */
function unreadByAnvil(port: number): number {
  const hex = `:${port.toString(16).toUpperCase().padStart(4, "0")}`;
  return readFileSync("/proc/net/tcp", "utf8")
    .split("\n")
    .slice(1)
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f.length > 4 && f[1].endsWith(hex) && f[3] === "01") // anvil's end, ESTABLISHED
    .reduce((sum, f) => sum + parseInt(f[4].split(":")[1], 16), 0);
}

interface Payment {
  payer: PrivateKeyAccount;
  header: string;
  nonce: Hex;
  /** The request the crash interrupted (null: no answer). */
  answer?: Promise<unknown>;
}

describe("kill -9 during x402 top-ups", () => {
  let env: Record<string, string>;
  let rpcPort: number;
  let rpcUrl: string;
  let pub: PublicClient;
  let usdc: Address;
  let payTo: Address;
  let relayer: Address;
  let accountId: string;
  let apiKey: string;
  let payToStart: bigint;
  let relayerStart: number;
  /** What the account must hold so far. */
  let credits = 0;

  const rpc = async <T>(method: string, params: unknown[] = []) => {
    const res = await fetch(rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
    const body = (await res.json()) as { result: T; error?: unknown };
    if (body.error) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
    return body.result;
  };
  const usdcOf = (a: Address) => pub.readContract({ address: usdc, abi: TOKEN, functionName: "balanceOf", args: [a] });
  const used = (p: Payment) => pub.readContract({ address: usdc, abi: TOKEN, functionName: "authorizationState", args: [p.payer.address, p.nonce] });
  const relayerTxs = () => pub.getTransactionCount({ address: relayer });
  /** The relayer's transactions waiting in anvil's pool, by nonce (null while there are not `size` of them). */
  const relayerPool = async (size?: number): Promise<Hex[] | null> => {
    const pool = await rpc<{ pending: Record<string, Record<string, { hash: Hex }>> }>("txpool_content");
    const mine = Object.entries(pool.pending).find(([from]) => from.toLowerCase() === relayer.toLowerCase());
    const hashes = mine ? Object.entries(mine[1]).sort(([a], [b]) => Number(a) - Number(b)).map(([, tx]) => tx.hash) : [];
    return size === undefined || hashes.length === size ? hashes : null;
  };
  const balance = async () => (await call(svc!, "GET", "/api/v1/credits", { key: apiKey })).body.creditsRemaining as number;
  const pay = (p: Payment) => call(svc!, "POST", TOPUP, { key: apiKey, headers: { "PAYMENT-SIGNATURE": p.header } });

  const restart = async () => {
    svc = await startService(env);
  };

  /** SIGKILL the service; its anvil survives as an orphan until stopAnvil. */
  async function kill(): Promise<number> {
    const anvil = anvilOf(svc!);
    orphans.add(anvil);
    svc!.child.kill("SIGKILL");
    await svc!.exited;
    return anvil;
  }

  /** SIGTERM makes anvil dump its state (blocks, not its pool) into DATA_DIR; the restart loads it. */
  async function stopAnvil(pid: number) {
    process.kill(pid, "SIGCONT");
    process.kill(pid, "SIGTERM");
    await until("the orphaned anvil to exit", async () => !alive(pid), 60_000);
    orphans.delete(pid);
  }

  /** The service's database, opened while the service is down (PGlite has one owner). */
  async function whileDown<T>(fn: (db: Database) => Promise<T>): Promise<T> {
    const h = await database.open();
    try {
      return await fn(h.db);
    } finally {
      await h.close();
    }
  }
  const claimOf = (db: Database, p: Payment) => db.selectFrom("topup_payments").selectAll().where("payer", "=", p.payer.address.toLowerCase()).executeTakeFirstOrThrow();
  const entriesOf = (db: Database, ref: string) => db.selectFrom("credit_entries").select(["account_id", "delta", "reason"]).where("ref", "=", ref).execute();
  /** What waiting out the dead process's lease would do; on PGlite the restarted service does it itself. */
  const expireLease = async (db: Database, id: string) => {
    if (process.env.DATABASE_URL) await db.updateTable("topup_payments").set({ lease_until: new Date(Date.now() - 1000) }).where("id", "=", id).execute();
  };

  /** A fresh payer with 2 USDC and its PAYMENT-SIGNATURE for 20 credits ($1), signed by the official client. */
  async function signedPayment(): Promise<Payment> {
    const payer = privateKeyToAccount(generatePrivateKey());
    expect((await call(svc!, "POST", "/admin/v1/sandbox/fund", { admin: true, body: { chain: "base", address: payer.address, asset: "USDC", amount: "2" } })).status).toBe(200);
    const terms = await call(svc!, "POST", TOPUP, { key: apiKey });
    expect(terms.status).toBe(402);
    const client = new x402Client();
    registerExactEvmScheme(client, { signer: payer });
    const payload = await client.createPaymentPayload(decodePaymentRequiredHeader(terms.headers.get(PAYMENT_REQUIRED_HEADER)!));
    return { payer, header: encodePaymentSignatureHeader(payload), nonce: getEip3009Authorization(payload)!.authorization.nonce };
  }

  /** Nothing moved for p yet. */
  async function assertUnpaid(p: Payment) {
    expect(await used(p)).toBe(false);
    expect(await usdcOf(p.payer.address)).toBe(2n * ONE_USDC);
  }

  /** p moved once on chain (by the relayer's txHash) and was credited once; a further retry is a replay. */
  async function assertPaidOnce(p: Payment, txHash: string) {
    expect(await used(p)).toBe(true);
    expect(await usdcOf(p.payer.address)).toBe(ONE_USDC);
    const receipt = await pub.getTransactionReceipt({ hash: txHash as Hex });
    expect({ status: receipt.status, from: receipt.from.toLowerCase() }).toEqual({ status: "success", from: relayer.toLowerCase() });
    const again = await pay(p);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ credited: 20, usd: "1.00", creditsRemaining: credits, txHash, payer: p.payer.address, replayed: true });
    expect(await balance()).toBe(credits);
  }

  /** Nothing had moved for p: its retry settles and credits it once, the `total`th payment since the start. */
  async function retrySettlesOnce(p: Payment, total: number) {
    await assertUnpaid(p);
    const retry = await pay(p);
    expect(retry.status).toBe(200);
    credits += 20;
    expect(retry.body).toMatchObject({ credited: 20, creditsRemaining: credits, payer: p.payer.address, replayed: false });
    await assertPaidOnce(p, retry.body.txHash as string);
    await assertChainTotals(total);
  }

  /** payTo received `n` payments and the relayer sent `n` settlements since the start: nothing twice. */
  async function assertChainTotals(n: number) {
    expect((await usdcOf(payTo)) - payToStart).toBe(BigInt(n) * ONE_USDC);
    expect(await relayerTxs()).toBe(relayerStart + n);
  }

  beforeAll(async () => {
    rpcPort = await freePort();
    rpcUrl = `http://127.0.0.1:${rpcPort}`;
    env = { ...database.env, SANDBOX: "true", SANDBOX_RPC_PORT: String(rpcPort), LOG_LEVEL: "warn", JUDGE_PROVIDER: "rules", SHUTDOWN_GRACE_MS: "1000" };
    await restart();
    pub = createPublicClient({ transport: http(rpcUrl) }) as PublicClient;
    const info = (await call(svc!, "GET", "/admin/v1/sandbox", { admin: true })).body;
    expect(info.rpcUrl).toBe(rpcUrl);
    ({ usdc, payTo, relayer } = info as { usdc: Address; payTo: Address; relayer: Address });
    const account = (await call(svc!, "POST", "/admin/v1/accounts", { admin: true, body: { name: "crash-topup", credits: 0 } })).body;
    accountId = account.accountId;
    apiKey = account.apiKey;
    payToStart = await usdcOf(payTo);
    relayerStart = await relayerTxs();
  }, 120_000);

  // ---------------------------------------------------------------- crash A: steps 3 and 1
  let credited: Payment; // step 3
  let claimed: Payment; // step 1
  let creditedTx: string;

  it("crash A: kill -9 with one top-up credited but never answered and one holding its fresh claim", { timeout: 120_000 }, async () => {
    credited = await signedPayment();
    claimed = await signedPayment();

    // Step 3: a client that sends its payment and never reads the answer.
    const url = new URL(svc!.url);
    const deaf = createConnection({ host: url.hostname, port: Number(url.port) });
    deaf.pause();
    deaf.on("error", () => {});
    deaf.write(`POST ${TOPUP} HTTP/1.1\r\nhost: ${url.host}\r\nx-api-key: ${apiKey}\r\npayment-signature: ${credited.header}\r\ncontent-length: 0\r\n\r\n`);
    await until("the first credit to commit", async () => (await balance()) === 20, 60_000);
    credits = 20;

    // Step 1: the chain is frozen; the first chain read after the claim INSERT reaches it: kill.
    const anvil = anvilOf(svc!);
    orphans.add(anvil); // from here on it may be left frozen
    process.kill(anvil, "SIGSTOP");
    expect(unreadByAnvil(rpcPort)).toBe(0);
    claimed.answer = pay(claimed).catch(() => null);
    await until("the service to wait on the frozen chain", async () => unreadByAnvil(rpcPort) > 0, 60_000);
    expect(await kill()).toBe(anvil);
    deaf.destroy();
    expect(await claimed.answer).toBeNull();
    await stopAnvil(anvil);

    await whileDown(async (db) => {
      const c3 = await claimOf(db, credited);
      expect(c3).toMatchObject({ account_id: accountId, status: "credited", tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
      expect(await entriesOf(db, c3.id)).toEqual([{ account_id: accountId, delta: 20, reason: "topup:x402" }]);
      creditedTx = c3.tx_hash!;
      const c1 = await claimOf(db, claimed);
      expect(c1).toMatchObject({ account_id: accountId, status: "pending", settle_started_at: null, tx_hash: null });
      expect(c1.lease_until!.getTime()).toBeGreaterThan(Date.now()); // still held by the dead process
      expect(await entriesOf(db, c1.id)).toEqual([]);
      await expireLease(db, c1.id);
    });
    await restart();
    await assertChainTotals(1);
  });

  it("step 1, claim written and nothing sent: nothing moved; the retry settles and credits once", { timeout: 120_000 }, () => retrySettlesOnce(claimed, 2));

  it("step 3, credited but never answered: the retry returns the original receipt", { timeout: 120_000 }, async () => {
    const retry = await pay(credited);
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual({ credited: 20, usd: "1.00", creditsRemaining: credits, txHash: creditedTx, payer: credited.payer.address, replayed: true });
    await assertPaidOnce(credited, creditedTx);
    await assertChainTotals(2);
  });

  // ---------------------------------------------------------------- crash B: step 2, mined or lost
  let mined: Payment; // 2a
  let lost: Payment; // 2b
  let minedTx: Hex;

  it("crash B: kill -9 with two settlement transactions sent and not mined", { timeout: 120_000 }, async () => {
    mined = await signedPayment();
    lost = await signedPayment();
    await rpc("evm_mine"); // a fresh block: the facilitator must not mine one (mineWhenStaleSeconds) meanwhile
    await rpc("evm_setAutomine", [false]);
    mined.answer = pay(mined).catch(() => null);
    const [first] = await until("the first settlement in anvil's pool", () => relayerPool(1), 60_000);
    lost.answer = pay(lost).catch(() => null);
    const pool = await until("the second settlement in anvil's pool", () => relayerPool(2), 60_000);
    expect(pool[0]).toBe(first);
    const anvil = await kill();
    expect(await mined.answer).toBeNull();
    expect(await lost.answer).toBeNull();
    expect(await used(mined)).toBe(false);
    expect(await used(lost)).toBe(false);

    // While the service is down the node drops the second (the later nonce) and mines the first.
    minedTx = first;
    expect(await rpc<boolean | null>("anvil_dropTransaction", [pool[1]])).not.toBe(false);
    await rpc("evm_mine");
    expect(await used(mined)).toBe(true);
    expect(await used(lost)).toBe(false);
    expect(await relayerPool(0)).toEqual([]);
    await stopAnvil(anvil);

    await whileDown(async (db) => {
      for (const p of [mined, lost]) {
        const c = await claimOf(db, p);
        expect(c).toMatchObject({ account_id: accountId, status: "pending", tx_hash: null });
        expect(c.settle_started_at).toBeInstanceOf(Date);
        expect(await entriesOf(db, c.id)).toEqual([]);
        await expireLease(db, c.id);
      }
    });
    await restart(); // no retry yet
  });

  it("step 2, mined while down: the start-up sweep credits it once; the retry is a replay", { timeout: 120_000 }, async () => {
    credits += 20;
    await until("the sweep to credit the mined settlement", async () => (await balance()) === credits, 60_000);
    const retry = await pay(mined);
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ credited: 20, txHash: minedTx, creditsRemaining: credits, replayed: true });
    await assertPaidOnce(mined, minedTx);
    await assertChainTotals(3);
  });

  it("step 2, lost by the node: the retry settles it once", { timeout: 120_000 }, () => retrySettlesOnce(lost, 4));

  it("afterwards: one credited claim and one ledger entry per payment; every ledger sums to its balance", { timeout: 120_000 }, async () => {
    expect(credits).toBe(80);
    await stop(svc);
    await whileDown(async (db) => {
      const claims = await db.selectFrom("topup_payments").select(["id", "status", "tx_hash", "credits"]).where("account_id", "=", accountId).execute();
      expect(claims).toHaveLength(4);
      expect(claims.every((c) => c.status === "credited" && c.credits === 20)).toBe(true);
      expect(new Set(claims.map((c) => c.tx_hash)).size).toBe(4);
      const entries = await db.selectFrom("credit_entries").select(["ref", "delta", "reason"]).where("account_id", "=", accountId).execute();
      const topups = entries.filter((e) => e.reason === "topup:x402");
      expect(topups.map((e) => e.ref).sort()).toEqual(claims.map((c) => c.id).sort());
      expect(topups.every((e) => e.delta === 20)).toBe(true);
      expect(entries.reduce((s, e) => s + e.delta, 0)).toBe(80);
      const account = await db.selectFrom("accounts").select("credits_remaining").where("id", "=", accountId).executeTakeFirstOrThrow();
      expect(account.credits_remaining).toBe(80);
      expect(await ledgerMismatches(db)).toEqual([]);
    });
  });
});
