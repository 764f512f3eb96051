/**
 * Two service processes on one PostgreSQL database, one anchor key, one chain: every run lands in exactly
 * one batch and every batch is anchored once (one Anchored event), whichever process formed or sent it.
 * Needs PostgreSQL (DATABASE_URL); skipped on PGlite, whose data directory belongs to one process.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { dropSchema } from "../../src/db/client";
import { RECEIPT_ANCHOR, rpcCall, startSandbox, type Sandbox } from "../../src/sandbox";
import { startService, until, type ServiceProcess } from "../helpers/process";
import { anchoredEvents } from "./helpers";

const url = process.env.DATABASE_URL;
const ADMIN = "anchor-two-admin-token-0123456789";
const schema = `t_anchor2_${Date.now().toString(36)}`;
const dirs: string[] = [];
const procs: ServiceProcess[] = [];
let sb: Sandbox | null = null;

afterAll(async () => {
  for (const p of procs) if (p.child.exitCode === null) p.child.kill("SIGTERM");
  await Promise.all(procs.map((p) => p.exited));
  await sb?.stop();
  if (url) await dropSchema(url, schema);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe.skipIf(!url)("two processes anchoring on one PostgreSQL", () => {
  it("no run in two batches, no batch anchored twice", { timeout: 240_000 }, async () => {
    sb = await startSandbox({ port: 0 });
    const rpcUrl = sb.rpcUrl;
    const env = (n: number) => {
      const dir = mkdtempSync(path.join(tmpdir(), `arbiter-anchor2-${n}-`));
      dirs.push(dir);
      return {
        DATA_DIR: dir,
        DATABASE_URL: url!,
        DATABASE_SCHEMA: schema,
        ADMIN_TOKEN: ADMIN,
        LOG_LEVEL: "info",
        BASE_RPC_URL: rpcUrl,
        ANCHOR_PRIVATE_KEY: sb!.accounts.anchorKey,
        ANCHOR_CONTRACT_ADDRESS: RECEIPT_ANCHOR,
        ANCHOR_BATCH_MAX: "3",
        ANCHOR_BATCH_MAX_WAIT_MS: "0",
        ANCHOR_POLL_MS: "50",
        ANCHOR_CONFIRMATIONS: "1",
      };
    };
    procs.push(await startService(env(1)));
    procs.push(await startService(env(2)));
    const [p1, p2] = procs;
    const call = async (base: string, method: string, route: string, headers: Record<string, string>, body?: unknown) => {
      const res = await fetch(`${base}${route}`, { method, headers: { ...headers, ...(body ? { "content-type": "application/json" } : {}) }, body: body ? JSON.stringify(body) : undefined });
      return (await res.json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    };
    const account = await call(p1.url, "POST", "/admin/v1/accounts", { authorization: `Bearer ${ADMIN}` }, { name: "two", credits: 100 });
    const key = { "x-api-key": account.apiKey as string };

    const ids: string[] = [];
    for (let round = 0; round < 6; round++) {
      const runs = await Promise.all(
        Array.from({ length: 5 }, (_, i) => call(i % 2 ? p2.url : p1.url, "POST", "/api/v1/intent", key, { intent: "Only swaps under $100.", action: `Swap ${round * 5 + i} USDC for ETH` })),
      );
      ids.push(...runs.map((r) => r.id as string));
      await new Promise((r) => setTimeout(r, 120));
    }
    await until(
      "every run verified",
      async () => {
        const s = await Promise.all(ids.map((id, i) => call(i % 2 ? p1.url : p2.url, "GET", `/api/v1/intent/${id}`, key)));
        return s.every((v) => v.proof.anchorStatus === "verified");
      },
      120_000,
    );

    const db = new pg.Client({ connectionString: url, options: `-c search_path="${schema}"` });
    await db.connect();
    try {
      const runs = (await db.query("select id, anchor_batch_id::text as batch, anchor_leaf_index as idx, anchor_tx from verifications where id = any($1::uuid[])", [ids])).rows;
      const batches = (await db.query("select id::text, status, leaf_count, tx_hash from anchor_batches")).rows as { id: string; status: string; leaf_count: number; tx_hash: string }[];
      expect(runs).toHaveLength(30);
      expect(batches.every((b) => b.status === "verified")).toBe(true);
      // Each (batch, leaf index) holds one run, and leaf counts add up to the runs.
      expect(new Set(runs.map((r) => `${r.batch}/${r.idx}`)).size).toBe(30);
      expect(batches.reduce((n, b) => n + b.leaf_count, 0)).toBe(30);
      const events = await anchoredEvents(rpcUrl);
      for (const b of batches) {
        const forBatch = events.filter((e) => String(e.batchId) === b.id);
        expect(forBatch, `batch ${b.id}`).toHaveLength(1);
        expect(forBatch[0].tx).toBe(b.tx_hash);
        expect(forBatch[0].leafCount).toBe(b.leaf_count);
      }
      expect(events).toHaveLength(batches.length);
      for (const r of runs) expect(r.anchor_tx).toBe(batches.find((b) => b.id === r.batch)!.tx_hash);
    } finally {
      await db.end();
    }
    // Both processes took part (each logs the batches it formed or verified).
    await rpcCall(rpcUrl, "evm_mine", []);
    expect(p1.output() + p2.output()).toMatch(/anchor batch verified/);
    const count = (out: string, what: RegExp) => out.split("\n").filter((l) => what.test(l)).length;
    console.info(
      `anchoring work: p1 formed ${count(p1.output(), /anchor batch formed/)}, sent ${count(p1.output(), /anchor transaction sent/)}; ` +
        `p2 formed ${count(p2.output(), /anchor batch formed/)}, sent ${count(p2.output(), /anchor transaction sent/)}; ` +
        `nonce collisions re-signed: ${count(p1.output() + p2.output(), /nonce used/)}`,
    );
  });
});
