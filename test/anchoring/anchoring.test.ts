import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RECEIPT_ANCHOR, rpcCall, startSandbox, type Sandbox } from "../../src/sandbox";
import { anchoredEvents, until } from "./helpers";
import { readAnchoredRoot } from "../../src/chains/evm/anchor";
import { checkTranscriptDocument, type TranscriptDocument } from "../../src/receipts/check";
import { ROOT } from "../helpers/process";
import { jsonBlockOf, startMcpRuntime, type McpTestRuntime } from "../mcp/helpers";

describe("receipt anchoring on the sandbox chain", () => {
  let sb: Sandbox;
  let t: McpTestRuntime;
  let dir: string;

  beforeAll(async () => {
    sb = await startSandbox({ port: 0 });
    dir = mkdtempSync(path.join(tmpdir(), "arbiter-anchor-"));
    t = await startMcpRuntime({
      BASE_RPC_URL: sb.rpcUrl,
      ANCHOR_PRIVATE_KEY: sb.accounts.anchorKey,
      ANCHOR_CONTRACT_ADDRESS: RECEIPT_ANCHOR,
      ANCHOR_BATCH_MAX: "3",
      ANCHOR_BATCH_MAX_WAIT_MS: "0",
      ANCHOR_POLL_MS: "100",
      ANCHOR_CONFIRMATIONS: "2",
    });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await sb?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("a receipt goes pending -> verified; its inclusion path checks against the root read from the chain", async () => {
    const acct = await t.createAccount(10);
    // Hold the anchor transaction in the pool: the receipt must read `pending` until it is mined and re-read.
    await rpcCall(sb.rpcUrl, "evm_setAutomine", [false]);
    const post = await t.request("POST", "/api/v1/intent", { key: acct.apiKey, body: { intent: "Never transfer funds.", action: "Send 5 ETH to 0xabc" } });
    const run = (await post.json()) as { id: string; proof: Record<string, unknown> };
    expect(run.proof).toMatchObject({ anchorTx: null, anchorVerified: false, explorerTx: null });

    const get = async () => (await (await t.request("GET", `/api/v1/intent/${run.id}`, { key: acct.apiKey })).json()) as { proof: Record<string, unknown> } & Record<string, unknown>;
    expect((await get()).proof).toMatchObject({ anchorStatus: "pending", anchorTx: null });
    const transcript = async () => (await (await t.request("GET", `/api/v1/intent/${run.id}/transcript`, { key: acct.apiKey })).json()) as TranscriptDocument;

    // The batch is formed and its transaction sent, but not mined.
    const pendingDoc = await until("the batch to be formed", async () => {
      const d = await transcript();
      return d.anchor ? d : null;
    });
    expect(pendingDoc.anchor).toMatchObject({ status: "pending", batchId: expect.any(String), leafIndex: 0, leafCount: 1, tx: null });
    await until("the anchor tx in the pool", async () => (await rpcCall<{ pending: string }>(sb.rpcUrl, "txpool_status", [])).pending !== "0x0");
    await new Promise((r) => setTimeout(r, 500));
    expect((await get()).proof.anchorStatus).toBe("pending");

    // Mined: still pending until the confirmation and the re-read.
    await rpcCall(sb.rpcUrl, "evm_mine", []);
    await new Promise((r) => setTimeout(r, 600));
    expect((await get()).proof.anchorStatus).toBe("pending");
    await rpcCall(sb.rpcUrl, "evm_mine", []);
    const verified = await until("verified", async () => {
      const g = await get();
      return g.proof.anchorStatus === "verified" ? g : null;
    });
    await rpcCall(sb.rpcUrl, "evm_setAutomine", [true]);
    // SPEC 4.2: no links in the HTTP GET.
    expect(verified).not.toHaveProperty("transcriptUri");
    expect(verified).not.toHaveProperty("explorerTx");
    expect(verified.proof).not.toHaveProperty("anchorVerified");
    const anchorTx = verified.proof.anchorTx as string;
    expect(anchorTx).toMatch(/^0x[0-9a-f]{64}$/);

    const doc = await transcript();
    expect(doc.anchor).toMatchObject({ status: "verified", tx: anchorTx, contract: RECEIPT_ANCHOR.toLowerCase(), anchorer: sb.accounts.anchor.address.toLowerCase(), chainId: 8453 });
    const events = await anchoredEvents(sb.rpcUrl);
    expect(events.filter((e) => String(e.batchId) === doc.anchor!.batchId)).toEqual([expect.objectContaining({ tx: anchorTx, root: doc.anchor!.root, leafCount: 1 })]);

    // The inclusion path, checked against the root read from the chain (what `--rpc` does).
    const { root } = await readAnchoredRoot(sb.rpcUrl, RECEIPT_ANCHOR, sb.accounts.anchor.address, BigInt(doc.anchor!.batchId));
    expect(root).toBe(doc.anchor!.root);
    const judge = t.runtime.judgeAccount.address;
    expect(await checkTranscriptDocument(doc, { addresses: [judge] }, { chainRoot: root })).toMatchObject({ ok: true, inclusion: "verified" });
    // A receipt not in the batch does not pass with this path.
    const other = { ...doc, anchor: { ...doc.anchor!, root: `0x${"11".repeat(32)}` as const } };
    expect((await checkTranscriptDocument(other, { addresses: [judge] }, { chainRoot: root })).errors).toEqual(
      expect.arrayContaining(["the receipt's Merkle path does not lead to the batch root", "the batch root on chain does not match the transcript's anchor root"]),
    );

    // The CLI, as a user runs it: offline, then against the chain.
    const file = path.join(dir, "t.json");
    writeFileSync(file, JSON.stringify(doc));
    const cli = (args: string[]) =>
      spawnSync(process.execPath, [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), path.join(ROOT, "src/cli.ts"), ...args], { cwd: ROOT, encoding: "utf8", env: { PATH: process.env.PATH ?? "", ARBITER_URL: "http://127.0.0.1:9" }, timeout: 60_000 });
    const withRpc = cli(["receipt", "verify", "--file", file, "--judge", judge, "--rpc", sb.rpcUrl]);
    expect(withRpc.status, withRpc.stderr).toBe(0);
    expect(JSON.parse(withRpc.stdout)).toMatchObject({ ok: true, inclusion: "verified", batchId: doc.anchor!.batchId });

    // MCP get_verification (SPEC 4.12): anchorStatus, transcriptUri, explorerTx.
    const client = await t.connect({ "x-api-key": acct.apiKey });
    const r = jsonBlockOf(await client.callTool({ name: "get_verification", arguments: { id: run.id } }));
    expect(r.proof).toMatchObject({ anchorStatus: "verified", anchorTx, transcriptUri: `${t.url}/api/v1/intent/${run.id}/transcript`, explorerTx: `https://basescan.org/tx/${anchorTx}` });
  }, 120_000);

  it("batches by count: runs made together share batches of at most ANCHOR_BATCH_MAX, each run in exactly one", async () => {
    const acct = await t.createAccount(20);
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await t.request("POST", "/api/v1/intent", { key: acct.apiKey, body: { intent: "Only swaps under $100.", action: `Swap ${i} USDC for ETH` } });
      ids.push(((await res.json()) as { id: string }).id);
    }
    const docs = await until("all anchored", async () => {
      await rpcCall(sb.rpcUrl, "evm_mine", []); // blocks keep coming, as on Base: confirmations accrue
      const all = await Promise.all(ids.map(async (id) => (await (await t.request("GET", `/api/v1/intent/${id}/transcript`, { key: acct.apiKey })).json()) as TranscriptDocument));
      return all.every((d) => d.anchor?.status === "verified") ? all : null;
    });
    const judge = t.runtime.judgeAccount.address;
    for (const d of docs) {
      expect(d.anchor!.leafCount).toBeLessThanOrEqual(3);
      expect((await checkTranscriptDocument(d, { addresses: [judge] })).inclusion).toBe("included");
    }
    const events = await anchoredEvents(sb.rpcUrl);
    const ours = new Set(docs.map((d) => d.anchor!.batchId));
    for (const b of ours) expect(events.filter((e) => String(e.batchId) === b)).toHaveLength(1);
  }, 120_000);
});
