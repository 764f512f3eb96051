/**
 * Issue 23's deployment, for real: three service processes (the production bundle, as `npm start` runs it)
 * on one fresh PostgreSQL database, sharing ONE chain, behind a round-robin HTTP proxy. Each of the issue's
 * six findings is shown fixed:
 *   1. proposals racing each other and every process's reconcile sweep (ESCROW_SWEEP_MS=250): the daily cap
 *      holds exactly over several rounds, and every proposal's status agrees with the chain;
 *   2. a key revoked in one process is refused by every process within a bound, even by the one whose
 *      change-feed connection is silently stalled;
 *   3. concurrent top-ups settled by one relayer key across the three processes: all settled;
 *   4. per-client throttles behind the proxy (TRUSTED_PROXIES): distinct clients are not throttled together;
 *   5. the rate limit is shared (RATE_LIMIT_STORE=postgres): within 5% of the budget through the proxy;
 *   6. JUDGE_TIMEOUT_MS bounds a model call whose body arrives late; the charge is refunded once.
 * The chain: one sandbox anvil started here, which every process uses as its production BASE_RPC_URL (a
 * sandbox runs inside one process and refuses BASE_RPC_URL). Production prices come from Chainlink feeds:
 * the test installs fixed-answer aggregators at the Base feed addresses (anvil_setCode), so USD limits apply.
 * Needs PostgreSQL: skipped without DATABASE_URL (the embedded-database run).
 */
import { createServer, type Server } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { x402Client } from "@x402/core/client";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { createPublicClient, http, type Address, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../src/sandbox";
import { BASE_CHAINLINK_FEEDS } from "../../src/pricing/chainlink";
import { REGISTRATIONS_PER_IP } from "../../src/oauth/clients";
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader, PAYMENT_REQUIRED_HEADER } from "../../src/x402";
import { openDatabase, type DatabaseHandle } from "../../src/db/client";
import { ledgerMismatches } from "../../src/credits/ledger";
import { freePort, startService, type ServiceProcess } from "../helpers/process";
import { startRoundRobinProxy, type RoundRobinProxy } from "../helpers/http-proxy";
import { startFreezableProxy, viaProxy, type FreezableProxy } from "../helpers/tcp-proxy";
import { fundedAccount, randomAddress } from "../sandbox/helpers";
import { ERC20, USDC } from "../wallets/helpers";

const URL_ = process.env.DATABASE_URL;
const ADMIN = "three-processes-admin-token-0123456789";
const HEARTBEAT_MS = 200;
const RATE = 120;
const JUDGE_TIMEOUT_MS = 1_500;
const LATE_BODY_MS = 6_000;

/** A Chainlink aggregator answering `answer` (8 decimals) updated "now": decimals() and latestRoundData() in one. */
const feedCode = (answer: bigint): Hex => {
  const ops = [
    "6008600052", // mstore(0x00, 8): decimals, and roundId
    `7f${answer.toString(16).padStart(64, "0")}602052`, // mstore(0x20, answer)
    "42604052", // mstore(0x40, timestamp): startedAt
    "42606052", // mstore(0x60, timestamp): updatedAt
    "6008608052", // mstore(0x80, 8): answeredInRound
    "60a06000f3", // return(0, 0xa0)
  ];
  return `0x${ops.join("")}`;
};
const USD_PRICES: Record<string, number> = { native: 3000, "0x4200000000000000000000000000000000000006": 3000, "0xcbb7c0000ab88b473b1f5afd9ef808440eed33bf": 60_000 };

/** An OpenAI-compatible judge: ALLOW at once, except for a request mentioning [late], whose body comes after LATE_BODY_MS. */
async function modelServer(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      const answer = JSON.stringify({ id: "c1", object: "chat.completion", created: 1, model: "m", choices: [{ index: 0, message: { role: "assistant", content: JSON.stringify({ verdict: "ALLOW", reasoning: "within the mandate" }) }, finish_reason: "stop" }] });
      res.writeHead(200, { "content-type": "application/json" });
      if (!body.includes("[late]")) return void res.end(answer);
      res.write(" ");
      const t = setTimeout(() => res.end(answer), LATE_BODY_MS);
      res.on("close", () => clearTimeout(t));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`, server };
}

describe.skipIf(!URL_)("three processes, one PostgreSQL, one chain, behind a proxy", () => {
  const database = `arbiter_mp_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 7)}`;
  const dirs: string[] = [];
  const procs: ServiceProcess[] = [];
  let dbUrl: string;
  let sb: Sandbox;
  let lb: RoundRobinProxy;
  let stall: FreezableProxy;
  let judge: { url: string; server: Server };
  let db: DatabaseHandle;

  const admin = async (): Promise<pg.Client> => {
    const c = new pg.Client({ connectionString: URL_ });
    await c.connect();
    return c;
  };

  beforeAll(async () => {
    const c = await admin();
    await c.query(`create database "${database}"`).finally(() => c.end());
    const u = new URL(URL_!);
    u.pathname = `/${database}`;
    dbUrl = u.toString();

    sb = await startSandbox({ stateFile: false });
    for (const [key, f] of Object.entries(BASE_CHAINLINK_FEEDS)) {
      const usd = USD_PRICES[key] ?? 1;
      const r = await fetch(sb.rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "anvil_setCode", params: [f.feed, feedCode(BigInt(Math.round(usd * 1e8)))] }) });
      expect(((await r.json()) as { error?: unknown }).error).toBeUndefined();
    }
    judge = await modelServer();
    stall = await startFreezableProxy({ host: u.hostname, port: Number(u.port || 5432) });
    const ports = [await freePort(), await freePort(), await freePort()];
    lb = await startRoundRobinProxy(ports.map((p) => `http://127.0.0.1:${p}`));
    const common = {
      DATABASE_URL: dbUrl,
      SANDBOX: "false",
      BASE_RPC_URL: sb.rpcUrl,
      PUBLIC_URL: lb.url,
      ADMIN_TOKEN: ADMIN,
      MASTER_KEY: "ab".repeat(32),
      JUDGE_SIGNING_KEY: `0x${"cd".repeat(32)}`,
      JUDGE_PROVIDER: "openai",
      JUDGE_BASE_URL: judge.url,
      JUDGE_MODEL: "m",
      JUDGE_API_KEY: "k",
      JUDGE_TIMEOUT_MS: String(JUDGE_TIMEOUT_MS),
      VERIFY_RECOVERY_GRACE_MS: String(JUDGE_TIMEOUT_MS + 1_100),
      FACILITATOR_PRIVATE_KEY: sb.accounts.relayerKey,
      TOPUP_PAY_TO: sb.accounts.payTo.address,
      RATE_LIMIT_STORE: "postgres",
      RATE_LIMIT_PER_MINUTE: String(RATE),
      TRUSTED_PROXIES: "127.0.0.1/32,::1",
      CHANGE_FEED_HEARTBEAT_MS: String(HEARTBEAT_MS),
      ESCROW_SWEEP_MS: "250",
      ANCHORING: "false",
      LOG_LEVEL: "warn",
    };
    procs.push(
      ...(await Promise.all(
        ports.map((port, i) => {
          const dir = mkdtempSync(path.join(tmpdir(), `arbiter-mp${i}-`));
          dirs.push(dir);
          // The third process listens for changes through a proxy the test can freeze.
          return startService({ ...common, DATA_DIR: dir, PORT: String(port), ...(i === 2 ? { DATABASE_LISTEN_URL: viaProxy(dbUrl, stall) } : {}) });
        }),
      )),
    );
    db = await openDatabase({ url: dbUrl });
  }, 240_000);

  afterAll(async () => {
    if (db) expect(await ledgerMismatches(db.db)).toEqual([]);
    await db?.close();
    await Promise.all(
      procs.map(async (p) => {
        if (p.child.exitCode === null) {
          p.child.kill("SIGTERM");
          await p.exited;
        }
      }),
    );
    await lb?.close();
    await stall?.close();
    judge?.server.close();
    await sb?.stop();
    if (URL_) {
      const c = await admin();
      await c.query(`drop database if exists "${database}" with (force)`).finally(() => c.end());
    }
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }, 60_000);

  const call = async (base: string, method: string, route: string, init: { key?: string; admin?: boolean; body?: unknown; headers?: Record<string, string> } = {}) => {
    const res = await fetch(`${base}${route}`, {
      method,
      headers: {
        ...(init.body !== undefined ? { "content-type": "application/json" } : {}),
        ...(init.key ? { "x-api-key": init.key } : {}),
        ...(init.admin ? { authorization: `Bearer ${ADMIN}` } : {}),
        ...init.headers,
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : {}) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
  };
  const account = async (credits: number) => {
    const r = await call(lb.url, "POST", "/admin/v1/accounts", { admin: true, body: { name: "mp", credits } });
    expect(r.status).toBe(201);
    return r.body as { accountId: string; apiKey: string };
  };
  const credits = async (base: string, key: string) => (await call(base, "GET", "/api/v1/credits", { key })).body.creditsRemaining as number;
  /** Runs `n` calls with at most `width` in flight. */
  const pool = async <T>(n: number, width: number, f: (i: number) => Promise<T>): Promise<T[]> => {
    const out: T[] = new Array(n);
    let next = 0;
    await Promise.all(Array.from({ length: width }, async () => {
      while (next < n) {
        const i = next++;
        out[i] = await f(i);
      }
    }));
    return out;
  };

  it("per-client throttles: 21 forwarded clients all register; one client alone is throttled", async () => {
    const register = (client: string) =>
      call(lb.url, "POST", "/oauth/register", { headers: { "x-forwarded-for": client }, body: { client_name: "agent", redirect_uris: ["https://agent.example/cb"] } }).then((r) => r.status);
    const many = await pool(REGISTRATIONS_PER_IP + 1, 4, (i) => register(`198.51.100.${i + 1}`));
    expect(many.every((s) => s === 201)).toBe(true);
    const one: number[] = [];
    for (let i = 0; i <= REGISTRATIONS_PER_IP; i++) one.push(await register("203.0.113.7"));
    expect(one.slice(0, REGISTRATIONS_PER_IP).every((s) => s === 201)).toBe(true); // each process saw a third of them
    expect(one.at(-1)).toBe(429);
    expect(await register("203.0.113.8")).toBe(201);
    expect(lb.counts.every((n) => n > 0)).toBe(true);
  });

  it("the rate limit is one budget across the processes, within 5%", async () => {
    const a = await account(5);
    const start = Date.now();
    const statuses = await pool(2 * RATE, 12, () => call(lb.url, "GET", "/api/v1/credits", { key: a.apiKey }).then((r) => r.status));
    const seconds = (Date.now() - start) / 1000;
    const ok = statuses.filter((s) => s === 200).length;
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    // The burst (RATE) plus what refilled while the requests ran (RATE per minute).
    const budget = RATE + (RATE / 60) * seconds;
    console.log(`rate limit: ${ok} of ${statuses.length} served in ${seconds.toFixed(1)} s; budget ${budget.toFixed(1)}`);
    expect(ok).toBeGreaterThanOrEqual(Math.floor(RATE * 0.95));
    expect(ok).toBeLessThanOrEqual(Math.ceil(budget * 1.05));
  });

  it("a revoked key is refused by every process within the bound, also by the one whose feed is stalled", async () => {
    const a = await account(5);
    const created = (await call(lb.url, "POST", `/admin/v1/accounts/${a.accountId}/keys`, { admin: true })).body;
    const key = created.apiKey as string;
    for (const p of procs) expect((await call(p.url, "GET", "/api/v1/credits", { key })).status).toBe(200); // cached everywhere
    expect((await call(procs[2].url, "GET", "/healthz")).body).toEqual({ ok: true, caches: "live" });
    stall.freeze();
    try {
      const revokedAt = Date.now();
      expect((await call(procs[0].url, "DELETE", `/admin/v1/keys/${created.keyId as string}`, { admin: true })).status).toBe(204);
      const refusedAfter: number[] = [];
      for (const p of procs) {
        while ((await call(p.url, "GET", "/api/v1/credits", { key })).status !== 401) {
          if (Date.now() - revokedAt > 30_000) throw new Error(`${p.url} still accepts the revoked key`);
          await new Promise((r) => setTimeout(r, 20));
        }
        refusedAfter.push(Date.now() - revokedAt);
      }
      console.log(`revocation refused after ${refusedAfter.join(", ")} ms (third process's feed stalled)`);
      // Stale after 3 missed heartbeats, noticed at the next: ~4 beats, plus requests on two busy cores.
      expect(Math.max(...refusedAfter)).toBeLessThan(10 * HEARTBEAT_MS + 3_000);
      expect((await call(procs[2].url, "GET", "/healthz")).body).toEqual({ ok: true, caches: "read-through" });
    } finally {
      stall.thaw();
    }
  });

  it("JUDGE_TIMEOUT_MS bounds a model call whose body comes late; the charge is refunded once", async () => {
    const a = await account(3);
    const start = Date.now();
    const r = await call(lb.url, "POST", "/api/v1/intent", { key: a.apiKey, body: { intent: "Only buy BTC. [late]", action: "buy 0.1 BTC" } });
    const took = Date.now() - start;
    expect(r.status).toBe(502);
    expect(took).toBeLessThan(LATE_BODY_MS - 1_000);
    expect(await credits(lb.url, a.apiKey)).toBe(3);
    // Past the recovery grace, every process's sweep has run: nothing is refunded twice.
    await new Promise((res) => setTimeout(res, JUDGE_TIMEOUT_MS + 2_500));
    expect(await credits(lb.url, a.apiKey)).toBe(3);
    const ok = await call(lb.url, "POST", "/api/v1/intent", { key: a.apiKey, body: { intent: "Only buy BTC.", action: "buy 0.1 BTC" } });
    expect(ok.status).toBe(201);
    expect(await credits(lb.url, a.apiKey)).toBe(2);
  });

  it("concurrent top-ups through three processes with one relayer key: all settled", async () => {
    const a = await account(0);
    const terms = await call(lb.url, "POST", "/api/v1/credits/topup?credits=20", { key: a.apiKey });
    expect(terms.status).toBe(402);
    const required = decodePaymentRequiredHeader(terms.headers.get(PAYMENT_REQUIRED_HEADER)!);
    const payments = await Promise.all(
      Array.from({ length: 9 }, async () => {
        const client = new x402Client();
        registerExactEvmScheme(client, { signer: await fundedAccount(sb, { usdc: "2" }) });
        client.setSpendControls(false);
        return encodePaymentSignatureHeader(await client.createPaymentPayload(required));
      }),
    );
    const results = await Promise.all(payments.map((p) => call(lb.url, "POST", "/api/v1/credits/topup?credits=20", { key: a.apiKey, headers: { "PAYMENT-SIGNATURE": p } })));
    expect(results.map((r) => [r.status, r.body.credited])).toEqual(Array(9).fill([200, 20]));
    expect(new Set(results.map((r) => r.body.txHash)).size).toBe(9);
    expect(await credits(lb.url, a.apiKey)).toBe(180);
  }, 120_000);

  it("proposals racing every process's reconcile sweep: the daily cap holds and statuses agree with the chain", async () => {
    const pub = createPublicClient({ transport: http(sb.rpcUrl) });
    const usdc = (who: Address) => pub.readContract({ address: USDC, abi: ERC20, functionName: "balanceOf", args: [who] });
    for (let round = 0; round < 3; round++) {
      const wallets = await Promise.all(
        [0, 1].map(async (i) => {
          const a = await account(50);
          const to = randomAddress();
          const w = await call(lb.url, "POST", "/api/v1/wallets", {
            key: a.apiKey,
            body: { name: `r${round}w${i}`, chain: "base", mode: "autonomous", mandate: `Send at most 30 USDC per transfer to ${to}.`, limits: { dailyCapUsd: 300 } },
          });
          expect(w.status).toBe(201);
          await sb.faucet.fund({ address: w.body.address, asset: "ETH", amount: "1" });
          await sb.faucet.fund({ address: w.body.address, asset: "USDC", amount: "500" });
          return { key: a.apiKey, id: w.body.id as string, address: w.body.address as Address, to };
        }),
      );
      // 14 proposals of 25 USDC per wallet against a 300 USD cap, all at once, spread over the processes.
      const results = await Promise.all(
        wallets.flatMap((w) =>
          Array.from({ length: 14 }, () => call(lb.url, "POST", `/api/v1/wallets/${w.id}/propose`, { key: w.key, body: { input: { kind: "transfer", chain: "base", transfer: { asset: "USDC", amount: "25", to: w.to } } } })),
        ),
      );
      expect(results.filter((r) => r.status !== 200)).toEqual([]);
      for (const [i, w] of wallets.entries()) {
        const mine = results.slice(i * 14, (i + 1) * 14).map((r) => r.body);
        expect(mine.filter((b) => b.status === "executed")).toHaveLength(12);
        expect(mine.filter((b) => b.status === "blocked").every((b) => /dailyCapUsd/.test(b.reasoning))).toBe(true);
        expect(await usdc(w.to)).toBe(300_000_000n);
        expect(await pub.getTransactionCount({ address: w.address })).toBe(12);
        // Every proposal's recorded status against the chain (0 mismatches), as the database has it.
        const rows = await db.db.selectFrom("proposals").select(["id", "status", "tx_hash"]).where("wallet_id", "=", w.id).execute();
        expect(rows).toHaveLength(14);
        const mismatches: string[] = [];
        for (const p of rows) {
          const receipt = p.tx_hash ? await pub.getTransactionReceipt({ hash: p.tx_hash as Hex }).catch(() => null) : null;
          const mined = receipt?.status === "success";
          if (mined !== (p.status === "executed")) mismatches.push(`${p.id}: ${p.status}, on chain ${receipt?.status ?? "absent"}`);
        }
        expect(mismatches).toEqual([]);
      }
    }
  }, 240_000);
});
