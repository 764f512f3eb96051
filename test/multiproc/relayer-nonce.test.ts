/**
 * One relayer key, three processes (src/x402/facilitator.ts relayerLock): each child process
 * (fixtures/settle-worker.ts) settles payments at once with the same relayer on one sandbox chain. With the
 * PostgreSQL advisory lock around nonce assignment every settlement succeeds. Without it (the old
 * per-process lock) settlements collide on the relayer's nonce; such a collision now answers "retry" (502
 * facilitator_unavailable, same PAYMENT-SIGNATURE), never a failed payment, and the retry of the same
 * payload settles. Needs PostgreSQL: skipped without DATABASE_URL.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { x402Client } from "@x402/core/client";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../src/sandbox";
import { buildPaymentRequired, buildUsdcPaymentRequirements, type PaymentPayload, type PaymentRequirements } from "../../src/x402";
import { fundedAccount } from "../sandbox/helpers";
import { ROOT } from "../helpers/process";

const URL = process.env.DATABASE_URL;
type Item = { payload: PaymentPayload; requirements: PaymentRequirements };

describe.skipIf(!URL)("one relayer nonce across processes", () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({});
  });
  afterAll(async () => {
    await sb?.stop();
  });

  async function payments(n: number): Promise<Item[]> {
    const requirements = buildUsdcPaymentRequirements({ amount: 50_000n, payTo: sb.accounts.payTo.address, maxTimeoutSeconds: 300 });
    const required = buildPaymentRequired({ accepts: [requirements], resource: { url: "http://test/topup", description: "t", mimeType: "application/json" } });
    const out: Item[] = [];
    for (let i = 0; i < n; i++) {
      const client = new x402Client();
      registerExactEvmScheme(client, { signer: await fundedAccount(sb, { usdc: "1" }) });
      out.push({ payload: await client.createPaymentPayload(required), requirements });
    }
    return out;
  }

  const settleIn3Processes = (batches: Item[][], databaseUrl: string | null): Promise<string[][]> =>
    Promise.all(
      batches.map(
        (items) =>
          new Promise<string[]>((resolve, reject) => {
            const child = spawn(path.join(ROOT, "node_modules/.bin/tsx"), [path.join(ROOT, "test/multiproc/fixtures/settle-worker.ts")], { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"] });
            let out = "";
            let err = "";
            child.stdout.on("data", (d) => (out += d));
            child.stderr.on("data", (d) => (err += d));
            child.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out.trim().split("\n").at(-1)!)) : reject(new Error(`worker exited ${code}: ${err}`))));
            child.stdin.end(JSON.stringify({ rpcUrl: sb.rpcUrl, relayerKey: sb.accounts.relayerKey, databaseUrl, items }, (_k, v) => (typeof v === "bigint" ? v.toString() : v)));
          }),
      ),
    );

  it("with the database lock: 12 concurrent settlements over 3 processes all settle", async () => {
    const all = await payments(12);
    const outcomes = (await settleIn3Processes([all.slice(0, 4), all.slice(4, 8), all.slice(8)], URL!)).flat();
    expect(outcomes.filter((o) => o !== "settled")).toEqual([]);
  }, 120_000);

  it("without it, a nonce collision says retry (not a failed payment), and the same payload then settles", async () => {
    const all = await payments(12);
    const batches = [all.slice(0, 4), all.slice(4, 8), all.slice(8)];
    const outcomes = await settleIn3Processes(batches, null);
    const flat = outcomes.flat();
    expect(flat.filter((o) => o !== "settled" && o !== "retry")).toEqual([]); // never "failed: sign again"
    const retry = batches.flatMap((b, i) => b.filter((_, j) => outcomes[i][j] === "retry"));
    console.log(`without the lock: ${retry.length} of ${flat.length} settlements answered retry`);
    if (retry.length) {
      const again = (await settleIn3Processes([retry], URL!)).flat();
      expect(again.every((o) => o === "settled")).toBe(true);
    }
  }, 120_000);
});
