/**
 * The escrow pipeline end to end over HTTP on the sandbox chain (real anvil): simulate, limits, judge,
 * execute or hold, owner actions through the admin API, expiry on a manual clock.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeFunctionData, parseEther, type Address } from "viem";
import { ManualClock } from "../../src/lib/clock";
import { BatchExecutorAbi } from "../../src/sandbox/contracts";
import { ERC20, freshAddress, startEscrowRuntime, USDC, type EscrowRuntime } from "../wallets/helpers";

let t: EscrowRuntime;
const clock = new ManualClock(new Date());
beforeAll(async () => {
  t = await startEscrowRuntime({ clock });
});
afterAll(async () => {
  expect(await t.ledgerMismatches()).toEqual([]);
  await t?.close();
});

const usdcTransfer = (to: Address, units: bigint) => encodeFunctionData({ abi: ERC20, functionName: "transfer", args: [to, units] });

async function funded(key: string, body: Record<string, unknown>, usdc = "100") {
  const w = await t.createWallet(key, body);
  await t.fund(w.address, "ETH", "1");
  await t.fund(w.address, "USDC", usdc);
  return w;
}

describe("autonomous execution", () => {
  it("executes a transfer within limits: funds move on chain, one credit, a readable verification", async () => {
    const a = await t.createAccount(5);
    const w = await funded(a.apiKey, { name: "agent", limits: { maxPerTxUsd: 50, dailyCapUsd: 100, tokenAllowlist: ["USDC"] } });
    const bob = freshAddress();
    const r = await t.propose(a.apiKey, "agent", { kind: "transfer", transfer: { asset: "USDC", amount: "12.5", to: bob } }, "paying invoice 42");
    expect(r.status).toBe(200);
    const p = r.body;
    expect(p).toMatchObject({ status: "executed", verdict: "ALLOW", reasoning: "within the mandate", creditsRemaining: 4 });
    expect(p.txId).toMatch(/^prop_/);
    expect(p.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(p.requestHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(p.scanId).toMatch(/^[0-9a-f-]{36}$/);
    expect(p.proof).toMatchObject({ signature: expect.stringMatching(/^0x/), judge: expect.stringMatching(/^0x/) });
    expect(p).not.toHaveProperty("approvalUrl");
    expect(p.simulation).toMatchObject({ ok: true, status: "clean", declared: false, wouldRevert: false, error: "", caip2: "eip155:8453", totalUsdOut: 12.5, totalUsdIn: 0, provider: "eth_simulateV1" });
    expect(p.simulation.changes).toEqual([
      { direction: "out", assetType: "erc20", changeType: "transfer", symbol: "USDC", name: "USD Coin", contractAddress: USDC, rawAmount: "12500000", decimals: 6, amount: "12.5", usdValue: 12.5, counterparty: bob, logoUrl: null },
    ]);
    expect(Number(p.simulation.gasUsed)).toBeGreaterThan(21000);
    expect(p.simulation.logsExcerpt.length).toBeGreaterThan(0);

    expect(await t.usdcOf(bob)).toBe(12_500_000n);
    expect(await t.usdcOf(w.address)).toBe(87_500_000n);
    const receipt = await t.pub.getTransactionReceipt({ hash: p.txHash });
    expect(receipt.status).toBe("success");
    expect(receipt.from.toLowerCase()).toBe(w.address.toLowerCase());

    const status = await t.json(await t.request("GET", `/api/v1/escrow-transactions/${p.txId}`, { key: a.apiKey }));
    expect(status.body).toEqual({ id: p.txId, status: "executed", verdict: "ALLOW", txHash: p.txHash, approvalUrl: null, explorerUrl: `http://arbiter.test/sandbox/explorer/tx/${p.txHash}` });
    const explorer = await t.json(await t.request("GET", new URL(status.body.explorerUrl).pathname));
    expect(explorer.body).toMatchObject({ hash: p.txHash, status: "success", from: w.address, to: USDC });
    // A browser following the link gets a readable page of the same data, linking the accounts it names.
    const browserAccept = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" };
    const page = await t.request("GET", new URL(status.body.explorerUrl).pathname, { headers: browserAccept });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    const html = await page.text();
    expect(html).toContain(`<h1>Transaction</h1>`);
    expect(html).toContain(`href="/sandbox/explorer/address/${w.address}"`);
    expect(html).toContain(`href="/sandbox/explorer/tx/${p.txHash}?format=json"`);
    const missing = await t.request("GET", `/sandbox/explorer/tx/0x${"ab".repeat(32)}`, { headers: browserAccept });
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("No such transaction on this sandbox chain.");
    const forcedJson = await t.request("GET", `${new URL(status.body.explorerUrl).pathname}?format=json`, { headers: browserAccept });
    expect((await forcedJson.json()) as unknown).toMatchObject({ hash: p.txHash });
    const v = await t.json(await t.request("GET", `/api/v1/intent/${p.scanId}`, { key: a.apiKey }));
    expect(v.status).toBe(200);
    expect(v.body).toMatchObject({ id: p.scanId, verdict: "ALLOW", status: "COMPLETED" });
    // The judge saw the simulation and the note as untrusted narration, with the escrow preset.
    const seen = t.judge.inputs.at(-1)!;
    expect(seen.preset).toBe("escrow");
    expect(seen.note).toBe("paying invoice 42");
    expect(seen.facts).toMatchObject({ actionFamily: "transfer", notionalUsd: 12.5, chain: "base" });
    expect(seen.context).toMatchObject({ simulation: { status: "clean" }, walletLimits: { maxPerTxUsd: 50 } });

    const balances = await t.json(await t.request("GET", `/api/v1/wallets/${w.id}/balances`, { key: a.apiKey }));
    expect(balances.body.balances.find((b: { symbol: string }) => b.symbol === "USDC").amountFormatted).toBe("87.5");
  });

  it("sends native ETH and raw transactions (value in wei, decimal or hex)", async () => {
    const a = await t.createAccount(5);
    const w = await funded(a.apiKey, { name: "eth" });
    const bob = freshAddress();
    const r1 = await t.propose(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "ETH", amount: "0.01", to: bob } });
    expect(r1.body.status).toBe("executed");
    const r2 = await t.propose(a.apiKey, w.id, { kind: "evm_transaction", caip2: "eip155:8453", transaction: { to: bob, value: "0x2386f26fc10000", data: "0x", from: w.address } });
    expect(r2.body.status).toBe("executed");
    expect(r2.body.simulation.changes[0]).toMatchObject({ assetType: "native", contractAddress: "native", amount: "0.01", usdValue: 30 });
    expect(await t.ethOf(bob)).toBe(parseEther("0.02"));
  });
});

describe("limits block for free, before the judge", () => {
  it("blocks each limit with verdict BLOCK, no scanId, no credit, no proof, reasoning naming the limit", async () => {
    const a = await t.createAccount(3);
    const bob = freshAddress();
    const w = await funded(a.apiKey, { name: "limited", limits: { maxPerTxUsd: 20, dailyCapUsd: 30, tokenAllowlist: ["USDC"], recipientAllowlist: [bob] } });
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ asset: "USDC", amount: "25", to: bob }, /^maxPerTxUsd: /],
      [{ asset: "ETH", amount: "0.001", to: bob }, /^tokenAllowlist: 0.001 ETH/],
      [{ asset: "USDC", amount: "1", to: freshAddress() }, /^recipientAllowlist: /],
    ];
    const judged = t.judge.inputs.length;
    for (const [transfer, reason] of cases) {
      const r = await t.propose(a.apiKey, w.id, { kind: "transfer", transfer });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ status: "blocked", verdict: "BLOCK", scanId: null, creditsRemaining: null, proof: null });
      expect(r.body.reasoning).toMatch(reason);
    }
    // The rolling cap: 20 then 15 -> the second is over 30.
    expect((await t.propose(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "USDC", amount: "20", to: bob } })).body.status).toBe("executed");
    const over = await t.propose(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "USDC", amount: "15", to: bob } });
    expect(over.body).toMatchObject({ status: "blocked", verdict: "BLOCK", scanId: null });
    expect(over.body.reasoning).toMatch(/^dailyCapUsd: \$20.00 already counted in the last 24 hours plus \$15.00 here is above the daily cap of \$30.00/);
    expect(t.judge.inputs.length).toBe(judged + 1);
    expect(await t.credits(a.apiKey)).toBe(2);
    expect(await t.usdcOf(bob)).toBe(20_000_000n);
  });
});

describe("held proposals and the owner", () => {
  it("holds every proposal of a safe wallet with an approval link and expiry; funds do not move", async () => {
    const a = await t.createAccount(5);
    const w = await funded(a.apiKey, { name: "safe", mode: "safe" });
    const bob = freshAddress();
    const r = await t.propose(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "USDC", amount: "5", to: bob } });
    expect(r.body).toMatchObject({ status: "awaiting_user", verdict: "ALLOW", approvalUrl: `http://arbiter.test/dashboard/proposals/${r.body.txId}`, creditsRemaining: 4 });
    expect(r.body.reasoning).toMatch(/^Held for the owner: this is a safe wallet, so every proposal waits for the owner's confirmation\. The judge allowed it: /);
    expect(new Date(r.body.approvalExpiresAt).getTime() - clock.now().getTime()).toBe(60 * 60_000);
    expect(r.body).not.toHaveProperty("txHash");
    expect(await t.usdcOf(bob)).toBe(0n);
    const list = await t.json(await t.request("GET", "/api/v1/wallets", { key: a.apiKey }));
    expect(list.body.wallets[0].pendingCount).toBe(1);

    // The owner confirms (operators on the admin API): re-simulated, re-checked, executed.
    const c = await t.json(await t.admin("POST", `/admin/v1/proposals/${r.body.txId}/confirm`));
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({ txId: r.body.txId, status: "executed", verdict: "ALLOW" });
    expect(await t.usdcOf(bob)).toBe(5_000_000n);
    expect(await t.credits(a.apiKey)).toBe(4);
    const again = await t.json(await t.admin("POST", `/admin/v1/proposals/${r.body.txId}/confirm`));
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/executed, not awaiting the owner/);
  });

  it("holds an ESCALATE on an autonomous wallet; the owner rejects it", async () => {
    const a = await t.createAccount(5);
    const w = await funded(a.apiKey, { name: "esc", mandate: "[judge:escalate] ask me first" });
    const r = await t.propose(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "USDC", amount: "5", to: freshAddress() } });
    expect(r.body).toMatchObject({ status: "awaiting_user", verdict: "ESCALATE", reasoning: "the owner should decide" });
    const rej = await t.json(await t.admin("POST", `/admin/v1/proposals/${r.body.txId}/reject`));
    expect(rej.body).toMatchObject({ status: "rejected" });
    const s = await t.json(await t.request("GET", `/api/v1/escrow-transactions/${r.body.txId}`, { key: a.apiKey }));
    expect(s.body).toMatchObject({ status: "rejected", txHash: null, approvalUrl: null });
    expect((await t.admin("POST", `/admin/v1/proposals/${r.body.txId}/confirm`)).status).toBe(409);
  });

  it("expires a held proposal after the approval window; it cannot be confirmed and releases its reservation", async () => {
    const a = await t.createAccount(5);
    const bob = freshAddress();
    const w = await funded(a.apiKey, { name: "slow", mode: "safe", limits: { dailyCapUsd: 10 } });
    const r = await t.propose(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "USDC", amount: "8", to: bob } });
    expect(r.body.status).toBe("awaiting_user");
    // While held, it counts against the cap.
    expect((await t.propose(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "USDC", amount: "5", to: bob } })).body.reasoning).toMatch(/^dailyCapUsd/);
    clock.advance(60 * 60_000 + 1);
    const s = await t.json(await t.request("GET", `/api/v1/escrow-transactions/${r.body.txId}`, { key: a.apiKey }));
    expect(s.body).toMatchObject({ status: "expired", approvalUrl: null });
    const c = await t.json(await t.admin("POST", `/admin/v1/proposals/${r.body.txId}/confirm`));
    expect(c.status).toBe(409);
    expect(c.body).toMatchObject({ error: "invalid_state" });
    expect(c.body.message).toMatch(/expired/);
    const expired = await t.json(await t.request("GET", `/api/v1/escrow-transactions?status=expired&wallet=${w.id}`, { key: a.apiKey }));
    expect(expired.body.transactions.map((x: { id: string }) => x.id)).toEqual([r.body.txId]);
    expect((await t.propose(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "USDC", amount: "5", to: bob } })).body.status).toBe("awaiting_user");
    expect(await t.usdcOf(bob)).toBe(0n);
  });
});

describe("simulation is ground truth", () => {
  it("blocks a reverting call (the judge is told), charging the credit", async () => {
    const a = await t.createAccount(5);
    const w = await funded(a.apiKey, { name: "rev" }, "10");
    const r = await t.propose(a.apiKey, w.id, { kind: "evm_transaction", transaction: { to: USDC, value: "0", data: usdcTransfer(freshAddress(), 50_000_000n) } });
    expect(r.body).toMatchObject({ status: "blocked", verdict: "BLOCK", creditsRemaining: 4 });
    expect(r.body.scanId).toBeTruthy();
    expect(r.body.simulation).toMatchObject({ ok: false, status: "reverted", wouldRevert: true, changes: [] });
    expect(r.body.simulation.error).toMatch(/transfer amount exceeds balance/);
  });

  it("blocks a reverting simulation even when the judge says ALLOW (hard rule)", async () => {
    const a = await t.createAccount(5);
    const w = await funded(a.apiKey, { name: "rev2", mandate: "[judge:allow-always]" }, "10");
    const r = await t.propose(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "USDC", amount: "11", to: freshAddress() } });
    expect(r.body).toMatchObject({ status: "blocked", verdict: "ALLOW" });
    expect(r.body.reasoning).toMatch(/^the simulation reverts: a transaction that reverts is never sent/);
    expect(await t.nonceOf(w.address)).toBe(0);
  });

  it("blocks a transaction the wallet cannot pay gas for", async () => {
    const a = await t.createAccount(5);
    const w = await t.createWallet(a.apiKey, { name: "nogas" });
    await t.fund(w.address, "USDC", "10");
    const r = await t.propose(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "USDC", amount: "1", to: freshAddress() } });
    expect(r.body.status).toBe("blocked");
    expect(r.body.simulation.error).toMatch(/Fund the wallet with ETH for gas/);
  });
});

describe("evm_calls: all or nothing", () => {
  it("executes a batch in one transaction through the EIP-7702 batch executor", async () => {
    const a = await t.createAccount(5);
    const w = await funded(a.apiKey, { name: "batch" }, "10");
    const bob = freshAddress();
    const carol = freshAddress();
    const r = await t.propose(a.apiKey, w.id, {
      kind: "evm_calls",
      calls: [
        { to: USDC, data: usdcTransfer(bob, 2_000_000n) },
        { to: carol, value: parseEther("0.01").toString(), data: "0x" },
      ],
    });
    expect(r.body.status).toBe("executed");
    expect(r.body.simulation.changes.map((c: { symbol: string; counterparty: string }) => [c.symbol, c.counterparty])).toEqual([
      ["USDC", bob],
      ["ETH", carol],
    ]);
    expect(await t.usdcOf(bob)).toBe(2_000_000n);
    expect(await t.ethOf(carol)).toBe(parseEther("0.01"));
    // One type-4 transaction: its own nonce plus the wallet's self-signed authorization's.
    expect((await t.pub.getTransaction({ hash: r.body.txHash })).type).toBe("eip7702");
    expect(await t.nonceOf(w.address)).toBe(2);
    expect((await t.pub.getCode({ address: w.address }))?.toLowerCase()).toBe(`0xef0100${t.sandbox.addresses.batchExecutor.slice(2).toLowerCase()}`);
    // A second batch on the already-delegated wallet (no authorization needed this time).
    const r2 = await t.propose(a.apiKey, w.id, { kind: "evm_calls", calls: [{ to: USDC, data: usdcTransfer(bob, 1_000_000n) }] });
    expect(r2.body.status).toBe("executed");
    expect((await t.pub.getTransaction({ hash: r2.body.txHash })).type).toBe("eip1559");
    expect(await t.usdcOf(bob)).toBe(3_000_000n);
  });

  it("refuses a batch with one failing call and moves nothing, in simulation and on chain", async () => {
    const a = await t.createAccount(5);
    const w = await funded(a.apiKey, { name: "batch2", mandate: "[judge:allow-always]" }, "10");
    const bob = freshAddress();
    const calls = [
      { to: USDC, data: usdcTransfer(bob, 1_000_000n) },
      { to: USDC, data: usdcTransfer(bob, 500_000_000n) }, // more than the wallet holds
    ];
    const r = await t.propose(a.apiKey, w.id, { kind: "evm_calls", calls });
    expect(r.body.status).toBe("blocked");
    expect(r.body.simulation.status).toBe("reverted");
    expect(await t.usdcOf(bob)).toBe(0n);

    // On chain: delegate the wallet with a good batch, then have the chain itself run the failing batch
    // from the wallet (impersonated on anvil): the transaction is mined, reverts, and nothing moves.
    expect((await t.propose(a.apiKey, w.id, { kind: "evm_calls", calls: [calls[0]] })).body.status).toBe("executed");
    const before = await t.usdcOf(w.address);
    await t.pub.request({ method: "anvil_impersonateAccount" as never, params: [w.address] as never });
    const hash = await t.pub.request({
      method: "eth_sendTransaction" as never,
      params: [{ from: w.address, to: w.address, data: encodeFunctionData({ abi: BatchExecutorAbi, functionName: "execute", args: [calls.map((c) => ({ ...c, value: 0n }))] }), gas: "0x100000" }] as never,
    });
    const receipt = await t.pub.waitForTransactionReceipt({ hash: hash as `0x${string}` });
    await t.pub.request({ method: "anvil_stopImpersonatingAccount" as never, params: [w.address] as never });
    expect(receipt.status).toBe("reverted");
    expect(await t.usdcOf(w.address)).toBe(before);
    expect(await t.usdcOf(bob)).toBe(1_000_000n);
  });
});

describe("refusals (SPEC 7)", () => {
  it("answers input errors, wrong chains and unsupported kinds", async () => {
    const a = await t.createAccount(5);
    const w = await funded(a.apiKey, { name: "strict" }, "1");
    const post = async (body: unknown) => t.json(await t.request("POST", `/api/v1/wallets/${w.id}/propose`, { key: a.apiKey, body }));
    const bob = freshAddress();
    expect((await t.json(await t.request("POST", `/api/v1/wallets/${w.id}/propose`, { key: a.apiKey, raw: "{" }))).body.error).toBe("invalid JSON body");
    expect((await post({})).body.error).toBe("input is required");
    expect((await post({ input: "transfer" })).body.error).toBe("input is required");
    const badAmount = await post({ input: { kind: "transfer", chain: "base", transfer: { asset: "USDC", amount: "1e3", to: bob } } });
    expect(badAmount.body).toMatchObject({ error: "invalid_input" });
    expect(badAmount.body.message).toMatch(/^input.transfer.amount: /);
    expect((await post({ input: { kind: "transfer", chain: "base", transfer: { asset: "USDC", amount: "0", to: bob } } })).body.message).toMatch(/greater than zero/);
    expect((await post({ input: { kind: "transfer", transfer: { asset: "USDC", amount: "1", to: bob } } })).body.message).toMatch(/input.chain or input.caip2 is required/);
    const refusals: [Record<string, unknown>, RegExp][] = [
      [{ kind: "transfer", chain: "solana", transfer: { asset: "USDC", amount: "1", to: bob } }, /^wrong chain/],
      [{ kind: "transfer", caip2: "eip155:1", transfer: { asset: "USDC", amount: "1", to: bob } }, /^wrong chain/],
      [{ kind: "solana_transaction", chain: "base", transaction: "AAAA" }, /^wrong chain: solana_transaction/],
      [{ kind: "starknet_calls", chain: "base", calls: [] }, /^wrong chain: starknet_calls/],
      [{ kind: "x402_payment", chain: "base", url: "https://x" }, /escrow_pay_x402/],
      [{ kind: "teleport", chain: "base" }, /^unsupported kind/],
      [{ kind: "transfer", chain: "base", transfer: { asset: "DOGE", amount: "1", to: bob } }, /^unsupported asset "DOGE"/],
      [{ kind: "transfer", chain: "base", transfer: { asset: "USDC", amount: "1.0000001", to: bob } }, /more than 6 decimal places/],
      [{ kind: "evm_transaction", chain: "base", transaction: { to: bob, from: bob } }, /is not this wallet/],
      [{ kind: "evm_transaction", chain: "base", transaction: { to: bob, maxFeePerGas: "1000000000000000001" } }, /maxFeePerGas is above 1 ETH/],
    ];
    for (const [input, msg] of refusals) {
      const r = await post({ input });
      expect(r.status, JSON.stringify(input)).toBe(400);
      expect(r.body.error).toBe("propose_failed");
      expect(r.body.message).toMatch(msg);
    }
    expect(await t.credits(a.apiKey)).toBe(5);
  });

  it("cuts the note at 2,000 characters", async () => {
    const a = await t.createAccount(5);
    const w = await funded(a.apiKey, { name: "noted", mode: "safe" }, "1");
    await t.propose(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "USDC", amount: "1", to: freshAddress() } }, "x".repeat(5000));
    expect(t.judge.inputs.at(-1)!.note).toHaveLength(2000);
  });

  it("answers 409 on an archived wallet; the owner can still withdraw from it", async () => {
    const a = await t.createAccount(5);
    const w = await funded(a.apiKey, { name: "old", mode: "safe" }, "10");
    const held = await t.propose(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "USDC", amount: "1", to: freshAddress() } });
    const arch = await t.json(await t.admin("POST", `/admin/v1/wallets/${w.id}/archive`));
    expect(arch.body.rejectedProposals).toEqual([held.body.txId]);
    const r = await t.propose(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "USDC", amount: "1", to: freshAddress() } });
    expect(r.status).toBe(409);
    expect(r.body.error).toBe("propose_failed");
    expect(r.body.message).toMatch(/archived/);
    const owner = freshAddress();
    const wd = await t.json(await t.admin("POST", `/admin/v1/wallets/${w.id}/withdraw`, { asset: "USDC", amount: "10", to: owner }));
    expect(wd.status).toBe(200);
    expect(wd.body).toMatchObject({ status: "executed", verdict: null, scanId: null, creditsRemaining: null });
    expect(await t.usdcOf(owner)).toBe(10_000_000n);
    expect((await t.admin("POST", `/admin/v1/wallets/${w.id}/withdraw`, { asset: "USDC", amount: "1", to: owner })).status).toBe(200);
    expect(await t.credits(a.apiKey)).toBe(4);
    expect((await t.request("POST", `/admin/v1/wallets/${w.id}/withdraw`, { key: a.apiKey, body: { asset: "USDC", amount: "1", to: owner } })).status).toBe(401);
  });

  it("records a blocked proposal on 402 out of credits and on 502 judge failure (credit refunded)", async () => {
    const a = await t.createAccount(0);
    const w = await funded(a.apiKey, { name: "broke" }, "10");
    const r = await t.propose(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "USDC", amount: "1", to: freshAddress() } });
    expect(r.status).toBe(402);
    expect(r.body.error).toBe("propose_failed");
    expect(r.body.txId).toMatch(/^prop_/);
    const s = await t.json(await t.request("GET", `/api/v1/escrow-transactions/${r.body.txId}`, { key: a.apiKey }));
    expect(s.body.status).toBe("blocked");

    const b = await t.createAccount(2);
    const w2 = await funded(b.apiKey, { name: "flaky", mandate: "[judge:fail]" }, "10");
    const f = await t.propose(b.apiKey, w2.id, { kind: "transfer", transfer: { asset: "USDC", amount: "1", to: freshAddress() } });
    expect(f.status).toBe(502);
    expect(f.body.error).toBe("propose_failed");
    expect(f.body.message).toMatch(/refunded/);
    expect(await t.credits(b.apiKey)).toBe(2);
    expect((await t.json(await t.request("GET", `/api/v1/escrow-transactions/${f.body.txId}`, { key: b.apiKey }))).body.status).toBe("blocked");
  });

  it("keeps proposals per account: another account's proposal is 404 not_found", async () => {
    const a = await t.createAccount(5);
    const b = await t.createAccount(5);
    const w = await funded(a.apiKey, { name: "private", mode: "safe" }, "1");
    const r = await t.propose(a.apiKey, w.id, { kind: "transfer", transfer: { asset: "USDC", amount: "1", to: freshAddress() } });
    const other = await t.json(await t.request("GET", `/api/v1/escrow-transactions/${r.body.txId}`, { key: b.apiKey }));
    expect(other.status).toBe(404);
    expect(other.body.error).toBe("not_found");
    expect((await t.json(await t.request("GET", "/api/v1/escrow-transactions", { key: b.apiKey }))).body.transactions).toEqual([]);
  });
});
