/**
 * What recording webhook events adds to a proposal (issue: "event recording adds under 5% to a
 * proposal's cost"). In one process, on the embedded database and the sandbox chain, the same held
 * proposal (safe wallet: simulated, limits, judged, recorded as awaiting_user) is made by three accounts:
 * A has no endpoint (the trigger's one indexed probe finds none); B has a paused endpoint subscribed to
 * `proposal.awaiting_user`, so every proposal records an event and a delivery row in its transaction
 * (recording alone); C has an active endpoint on a local receiver, so the delivery loop also sends each
 * event in the same process (recording + delivery). Rounds alternate A, B, C...; the ratios B/A and C/A
 * of wall time and CPU per proposal are printed (the baseline is measured in the same run). Loopback only.
 *
 *   npm run bench:webhooks [-- --rounds=3 --n=120]
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pino from "pino";
import { loadConfig } from "../src/config";
import { createRuntime } from "../src/deps";
import { openDatabase } from "../src/db/client";

const arg = (name: string, dflt: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? dflt);
const ROUNDS = arg("rounds", 3);
const N = arg("n", 120);
const CONCURRENCY = 4;
const ADMIN = "bench-webhooks-admin-token-0123456789";
const DEAD = "0x000000000000000000000000000000000000dEaD";

async function main() {
  let received = 0;
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received++;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((ok) => receiver.listen(0, "127.0.0.1", ok));
  const rxUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

  const dataDir = mkdtempSync(path.join(tmpdir(), "arbiter-bench-webhooks-"));
  const config = loadConfig({ DATA_DIR: dataDir, SANDBOX: "true", SANDBOX_RPC_PORT: "0", ALLOW_LOOPBACK_FETCH: "true", LOG_LEVEL: "silent", ADMIN_TOKEN: ADMIN, RATE_LIMIT_PER_MINUTE: "0", WEBHOOK_POLL_MS: "100" });
  const database = await openDatabase({ dataDir: null, pgliteWorker: config.PGLITE_WORKER });
  const rt = await createRuntime(config, { database, lockDataDir: false, logger: pino({ level: "silent" }) });
  const req = async (method: string, route: string, body: unknown, headers: Record<string, string>) => {
    const res = await rt.app.request(route, { method, headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
    return (await res.json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  };

  async function variant(endpoint: "none" | "paused" | "active") {
    const a = await req("POST", "/admin/v1/accounts", { name: endpoint, credits: 1_000_000 }, { authorization: `Bearer ${ADMIN}` });
    const key = { "x-api-key": a.apiKey as string };
    const w = await req("POST", "/api/v1/wallets", { name: "held", chain: "base", mode: "safe", mandate: "Only send USDC, at most 10 USDC per transfer." }, key);
    await rt.chain!.sandbox!.faucet.fund({ address: w.address, asset: "ETH", amount: "1" });
    await rt.chain!.sandbox!.faucet.fund({ address: w.address, asset: "USDC", amount: "1000" });
    const owner = { accountId: a.accountId as string, authMethod: "session" as const, scopes: new Set(["mcp", "wallet"] as const), credentialId: null };
    if (endpoint !== "none") {
      const { endpoint: ep } = await rt.services.webhooks.create(owner, { url: rxUrl, events: ["proposal.awaiting_user"] });
      if (endpoint === "paused") await rt.services.webhooks.pause(owner, ep.id);
    }
    const propose = async () => {
      const r = await req("POST", "/api/v1/wallets/held/propose", { input: { kind: "transfer", chain: "base", transfer: { asset: "USDC", amount: "0.01", to: DEAD } } }, key);
      if (r.status !== "awaiting_user") throw new Error(`unexpected proposal result: ${JSON.stringify(r).slice(0, 300)}`);
    };
    return { propose };
  }

  async function round(v: { propose: () => Promise<void> }) {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    let next = 0;
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < N) await v.propose();
    }));
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    return { msPer: ms / N, cpuMsPer: (cpu.user + cpu.system) / 1000 / N };
  }

  const variants = { A: await variant("none"), B: await variant("paused"), C: await variant("active") };
  for (const v of Object.values(variants)) await round(v); // warm-up, not counted
  const res: Record<string, { msPer: number; cpuMsPer: number }[]> = { A: [], B: [], C: [] };
  for (let i = 0; i < ROUNDS; i++) for (const [k, v] of Object.entries(variants)) res[k].push(await round(v));
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  const ms = (k: string) => median(res[k].map((r) => r.msPer));
  const cpu = (k: string) => median(res[k].map((r) => r.cpuMsPer));
  await new Promise((ok) => setTimeout(ok, 1_000));
  console.log(`held proposals, ${N} per round x ${ROUNDS} rounds, ${CONCURRENCY} at a time, PGlite + sandbox chain`);
  console.log(`| variant | ms per proposal (median) | CPU ms per proposal (median) | ratio to A (time / CPU) |`);
  console.log(`|---|---:|---:|---:|`);
  const label = { A: "A: no webhook endpoint", B: "B: event recorded (endpoint paused)", C: "C: event recorded and delivered" } as Record<string, string>;
  for (const k of ["A", "B", "C"]) console.log(`| ${label[k]} | ${ms(k).toFixed(2)} | ${cpu(k).toFixed(2)} | ${(ms(k) / ms("A")).toFixed(3)} / ${(cpu(k) / cpu("A")).toFixed(3)} |`);
  console.log(`recording (B/A) target: <= 1.05 -> ${ms("B") / ms("A") <= 1.05 ? "met" : "missed"} (time), ${cpu("B") / cpu("A") <= 1.05 ? "met" : "missed"} (CPU); events delivered for C: ${received}`);
  await rt.close();
  await database.close();
  receiver.close();
  rmSync(dataDir, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
