/**
 * What receipt anchoring costs (issue 24: "anchoring never sits on the verification's request path; the
 * bench reports gas per batch and per receipt, and verification throughput with anchoring on beside off,
 * within 5%").
 *
 * In one process, on the embedded database: two runtimes, each with its own sandbox chain, identical but for
 * ANCHORING. Rounds of N verifications (the rules judge, the bench's 0.3 kB request), CONCURRENCY at a time,
 * alternate off, on, off, on...; the medians of wall time and CPU per verification and the on/off ratios are
 * printed (the baseline, anchoring off, is measured in the same run). Then the "on" runtime's batches are
 * waited for until verified, and their gas is reported per batch and per receipt beside the gas of a plain
 * ETH transfer sent on the same chain in the same run (21,000 on an EVM chain).
 *
 *   npm run bench:anchoring [-- --rounds=3 --n=300 --batch=128]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pino from "pino";
import type { Hex } from "viem";
import { loadConfig } from "../src/config";
import { createRuntime } from "../src/deps";
import { openDatabase } from "../src/db/client";
import { VERIFY_SMALL } from "./lib/fixtures";

const arg = (name: string, dflt: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? dflt);
const ROUNDS = arg("rounds", 3);
const N = arg("n", 300);
const BATCH = arg("batch", 128);
const CONCURRENCY = 8;
const ADMIN = "bench-anchoring-admin-token-0123456789";

async function start(anchoring: boolean) {
  const dataDir = mkdtempSync(path.join(tmpdir(), `arbiter-bench-anchor-${anchoring ? "on" : "off"}-`));
  const config = loadConfig({
    DATA_DIR: dataDir,
    SANDBOX: "true",
    SANDBOX_RPC_PORT: "0",
    LOG_LEVEL: "silent",
    ADMIN_TOKEN: ADMIN,
    RATE_LIMIT_PER_MINUTE: "0",
    ANCHORING: anchoring ? "true" : "false",
    ANCHOR_BATCH_MAX: String(BATCH),
    ANCHOR_BATCH_MAX_WAIT_MS: "1000",
    ANCHOR_POLL_MS: "200",
  });
  const database = await openDatabase({ dataDir: null, pgliteWorker: config.PGLITE_WORKER });
  const rt = await createRuntime(config, { database, lockDataDir: false, logger: pino({ level: "silent" }) });
  const res = await rt.app.request("/admin/v1/accounts", { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${ADMIN}` }, body: JSON.stringify({ name: "bench", credits: 1_000_000 }) });
  const { apiKey } = (await res.json()) as { apiKey: string };
  const body = JSON.stringify(VERIFY_SMALL);
  const verify = async () => {
    const r = await rt.app.request("/api/v1/intent", { method: "POST", headers: { "content-type": "application/json", "x-api-key": apiKey }, body });
    if (r.status !== 201) throw new Error(`verification answered ${r.status}: ${(await r.text()).slice(0, 300)}`);
    await r.arrayBuffer();
  };
  const close = async () => {
    await rt.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { rt, database, verify, close };
}

async function round(verify: () => Promise<void>) {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next++ < N) await verify();
  }));
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { perSecond: (N * 1000) / ms, cpuMsPer: (cpu.user + cpu.system) / 1000 / N };
}

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;

async function main() {
  const off = await start(false);
  const on = await start(true);
  await round(off.verify); // warm-up, not counted
  await round(on.verify);
  const res = { off: [] as Awaited<ReturnType<typeof round>>[], on: [] as Awaited<ReturnType<typeof round>>[] };
  for (let i = 0; i < ROUNDS; i++) {
    res.off.push(await round(off.verify));
    res.on.push(await round(on.verify));
  }
  const rate = (k: "off" | "on") => median(res[k].map((r) => r.perSecond));
  const cpu = (k: "off" | "on") => median(res[k].map((r) => r.cpuMsPer));

  // Every run so far must reach a verified batch before gas is counted.
  const db = on.database.db;
  const total = Number((await db.selectFrom("verifications").select((eb) => eb.fn.countAll<number>().as("n")).where("status", "=", "COMPLETED").executeTakeFirstOrThrow()).n);
  const deadline = Date.now() + 180_000;
  let batches: { id: string; status: string; leaf_count: number; gas_used: string | number | bigint | null }[];
  for (;;) {
    batches = await db.selectFrom("anchor_batches").select(["id", "status", "leaf_count", "gas_used"]).execute();
    const anchored = batches.filter((b) => b.status === "verified").reduce((s, b) => s + b.leaf_count, 0);
    if (anchored >= total) break;
    if (Date.now() > deadline) throw new Error(`only ${anchored} of ${total} receipts anchored after 180 s`);
    await new Promise((ok) => setTimeout(ok, 500));
  }
  const verified = batches.filter((b) => b.status === "verified");
  const gas = verified.map((b) => Number(b.gas_used ?? 0));
  const receipts = verified.reduce((s, b) => s + b.leaf_count, 0);
  const gasTotal = gas.reduce((s, g) => s + g, 0);

  // Same-run baseline for gas: a plain ETH transfer on the same sandbox chain.
  const chain = on.rt.chain!;
  const { txHash } = await chain.sandbox!.faucet.fund({ address: "0x000000000000000000000000000000000000dEaD", asset: "ETH", amount: "0.001" });
  const plain = Number((await chain.base.client.waitForTransactionReceipt({ hash: txHash as Hex })).gasUsed);

  console.log(`verifications (rules judge, 0.3 kB), ${N} per round x ${ROUNDS} rounds, ${CONCURRENCY} at a time, PGlite + sandbox chain`);
  console.log(`| anchoring | verifications/s (median) | CPU ms per verification (median) | ratio to off (rate / CPU) |`);
  console.log(`|---|---:|---:|---:|`);
  for (const k of ["off", "on"] as const) console.log(`| ${k} | ${rate(k).toFixed(0)} | ${cpu(k).toFixed(3)} | ${(rate(k) / rate("off")).toFixed(3)} / ${(cpu(k) / cpu("off")).toFixed(3)} |`);
  const ratio = rate("on") / rate("off");
  console.log(`throughput on/off target: >= 0.95 -> ${ratio >= 0.95 ? "met" : "missed"} (${ratio.toFixed(3)})`);
  console.log("");
  console.log(`anchoring gas (ANCHOR_BATCH_MAX=${BATCH}; batches also close after 1 s): ${verified.length} batches, ${receipts} receipts`);
  console.log(`| measure | gas | ratio to a plain ETH transfer (${plain} gas, same chain, same run) |`);
  console.log(`|---|---:|---:|`);
  console.log(`| per batch (median) | ${median(gas)} | ${(median(gas) / plain).toFixed(2)} |`);
  console.log(`| per batch (max) | ${Math.max(...gas)} | ${(Math.max(...gas) / plain).toFixed(2)} |`);
  console.log(`| per receipt (total / receipts) | ${(gasTotal / receipts).toFixed(1)} | ${(gasTotal / receipts / plain).toFixed(4)} |`);
  await off.close();
  await on.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
