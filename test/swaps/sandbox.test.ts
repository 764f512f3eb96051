/**
 * Swaps on the sandbox chain (SPEC 2.9, 4.10): quoted from the seeded pool's reserves, built as one atomic
 * batch, proposed through the pipeline, executed on chain. Balances and calldata are read with viem.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { decodeFunctionData, encodeFunctionData, type Address, type Hex } from "viem";
import { BatchExecutorAbi, ConstantProductPoolAbi } from "../../src/sandbox/contracts";
import { BASE_WETH, SANDBOX_POOL } from "../../src/sandbox/addresses";
import { ERC20, startEscrowRuntime, USDC, type EscrowRuntime } from "../wallets/helpers";
import { toolData as data, toolText as text } from "../helpers/tool-result";

let t: EscrowRuntime;
const clients: Client[] = [];
beforeAll(async () => {
  t = await startEscrowRuntime({ listen: true });
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  expect(await t.ledgerMismatches()).toEqual([]);
  await t?.close();
});

const swap = async (key: string, wallet: string, body: Record<string, unknown>) => t.json(await t.request("POST", `/api/v1/wallets/${encodeURIComponent(wallet)}/swap`, { key, body: { chain: "base", ...body } }));
const wethOf = (a: Address) => t.pub.readContract({ address: BASE_WETH, abi: ERC20, functionName: "balanceOf", args: [a] });
const poolOut = (tokenIn: Address, amount: bigint) => t.pub.readContract({ address: SANDBOX_POOL, abi: ConstantProductPoolAbi, functionName: "getAmountOut", args: [tokenIn, amount] });

/** The calls the wallet signed, decoded from the executed transaction's input. */
async function signedCalls(txHash: Hex) {
  const tx = await t.pub.getTransaction({ hash: txHash });
  const { args } = decodeFunctionData({ abi: BatchExecutorAbi, data: tx.input });
  return (args![0] as readonly { to: Address; value: bigint; data: Hex }[]).map((c) => ({ ...c, decoded: c.to.toLowerCase() === SANDBOX_POOL.toLowerCase() ? decodeFunctionData({ abi: ConstantProductPoolAbi, data: c.data }) : decodeFunctionData({ abi: ERC20, data: c.data }) }));
}

async function funded(key: string, body: Record<string, unknown>, usdc = "1000") {
  const w = await t.createWallet(key, body);
  await t.fund(w.address, "ETH", "1");
  await t.fund(w.address, "USDC", usdc);
  return w;
}

async function mcp(key: string) {
  const client = new Client({ name: "swap-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/api/mcp`), { requestInit: { headers: { "x-api-key": key } } }));
  clients.push(client);
  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
  return call;
}

describe("POST /api/v1/wallets/{id}/swap on the sandbox pool", () => {
  it("executes a swap within limits: approval of exactly the amount, then the swap; both balances change on chain", async () => {
    const a = await t.createAccount(5);
    // $150 per transaction: the $100 swap passes only because an approval spent in the same batch is not counted again.
    const w = await funded(a.apiKey, { name: "trader", limits: { maxPerTxUsd: 150, tokenAllowlist: ["USDC"] } });
    const expected = await poolOut(USDC, 100_000_000n);
    const r = await swap(a.apiKey, "trader", { sell: "USDC", buy: "WETH", amount: "100", note: "rebalance" });
    expect(r.status).toBe(200);
    const p = r.body;
    expect(p).toMatchObject({ status: "executed", verdict: "ALLOW", creditsRemaining: 4 });
    const minimum = (expected * 9950n) / 10000n;
    expect(p.swap).toEqual({
      routing: "sandbox-pool",
      sell: { address: USDC, decimals: 6, symbol: "USDC" },
      buy: { address: BASE_WETH, decimals: 18, symbol: "WETH" },
      amountIn: "100000000",
      amountOut: expected.toString(),
      minimumOut: minimum.toString(),
      amountInHuman: "100",
      amountOutHuman: expect.stringMatching(/^0\.033/),
      minimumOutHuman: expect.stringMatching(/^0\.033/),
      priceImpactPct: expect.any(Number),
      slippagePct: 0.5,
      gasFeeUSD: expect.any(Number),
      routeString: expect.stringContaining("USDC -> WETH via the sandbox ConstantProductPool"),
      approvalNeeded: true,
      approvalSpender: SANDBOX_POOL,
    });
    expect(p.swap.priceImpactPct).toBeGreaterThan(0.03);
    expect(p.swap.priceImpactPct).toBeLessThan(0.04);
    // The simulation the limits and the judge saw: the approval (fully spent), USDC out, WETH in.
    const kinds = p.simulation.changes.map((c: { direction: string; changeType: string; symbol: string }) => `${c.direction} ${c.changeType} ${c.symbol}`);
    expect(kinds).toEqual(["out approval USDC", "out transfer USDC", "in transfer WETH"]);
    expect(p.simulation.changes[0].residualRaw).toBe("0");
    expect(t.judge.inputs.at(-1)!.facts).toMatchObject({ actionFamily: "swap" });
    expect(t.judge.inputs.at(-1)!.action).toMatchObject({ kind: "evm_calls", swap: { routing: "sandbox-pool", minimumOut: p.swap.minimumOutHuman, slippageBps: 50 } });
    // On chain.
    expect(await t.usdcOf(w.address)).toBe(900_000_000n);
    expect(await wethOf(w.address)).toBe(expected);
    const calls = await signedCalls(p.txHash);
    expect(calls.map((c) => [c.to, c.decoded.functionName])).toEqual([
      [USDC, "approve"],
      [SANDBOX_POOL, "swapExactIn"],
    ]);
    expect(calls[0].decoded.args).toEqual([SANDBOX_POOL, 100_000_000n]);
    expect(calls[1].decoded.args).toEqual([USDC, 100_000_000n, minimum, w.address]);
    expect(await t.pub.readContract({ address: USDC, abi: [{ type: "function", name: "allowance", stateMutability: "view", inputs: [{ type: "address" }, { type: "address" }], outputs: [{ type: "uint256" }] }], functionName: "allowance", args: [w.address, SANDBOX_POOL] })).toBe(0n);
  });

  it("sells ETH through the pool's payable path, with no approval", async () => {
    const a = await t.createAccount(5);
    const w = await funded(a.apiKey, { name: "eth-seller" }, "1");
    const expected = await poolOut(BASE_WETH, 10n ** 17n);
    const before = await t.usdcOf(w.address);
    const r = await swap(a.apiKey, w.id, { sell: "ETH", buy: "USDC", amount: "0.1", slippageBps: 100 });
    expect(r.body).toMatchObject({ status: "executed", swap: { sell: { address: "native", symbol: "ETH", decimals: 18 }, approvalNeeded: false, approvalSpender: null, minimumOut: ((expected * 9900n) / 10000n).toString() } });
    expect((await t.usdcOf(w.address)) - before).toBe(expected);
    const calls = await signedCalls(r.body.txHash);
    expect(calls).toHaveLength(1);
    expect(calls[0].value).toBe(10n ** 17n);
  });

  it("skips the approval when the allowance already covers the amount", async () => {
    const a = await t.createAccount(5);
    const w = await funded(a.apiKey, { name: "pre-approved" });
    const approve = encodeFunctionData({ abi: ERC20, functionName: "approve", args: [SANDBOX_POOL, 500_000_000n] });
    expect((await t.propose(a.apiKey, w.id, { kind: "evm_transaction", transaction: { to: USDC, data: approve } })).body.status).toBe("executed");
    const r = await swap(a.apiKey, w.id, { sell: USDC, buy: BASE_WETH, amount: "20" });
    expect(r.body).toMatchObject({ status: "executed", swap: { approvalNeeded: false, approvalSpender: SANDBOX_POOL } });
    expect((await signedCalls(r.body.txHash)).map((c) => c.decoded.functionName)).toEqual(["swapExactIn"]);
  });

  it("blocks a swap over maxPerTxUsd by the limits, before the judge, without a credit", async () => {
    const a = await t.createAccount(3);
    const w = await funded(a.apiKey, { name: "capped", limits: { maxPerTxUsd: 50 } });
    const judged = t.judge.inputs.length;
    const r = await swap(a.apiKey, w.id, { sell: "USDC", buy: "WETH", amount: "100" });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: "blocked", verdict: "BLOCK", scanId: null, creditsRemaining: null, proof: null, swap: { amountIn: "100000000" } });
    expect(r.body.reasoning).toMatch(/^maxPerTxUsd: this proposal moves \$100.00, above the limit of \$50.00/);
    expect(t.judge.inputs.length).toBe(judged);
    expect(await t.credits(a.apiKey)).toBe(3);
    expect(await t.usdcOf(w.address)).toBe(1_000_000_000n);
  });

  it("writes amountOut x (1 - bps/10000), rounded down, into the calldata; refuses slippage 0, 1001 and fractions", async () => {
    const a = await t.createAccount(5);
    const w = await funded(a.apiKey, { name: "slippy" });
    const r = await swap(a.apiKey, w.id, { sell: "USDC", buy: "WETH", amount: "33.333333", slippageBps: 1000 });
    const out = BigInt(r.body.swap.amountOut);
    expect(r.body.swap.minimumOut).toBe(((out * 9000n) / 10000n).toString());
    expect((await signedCalls(r.body.txHash))[1].decoded.args![2]).toBe((out * 9000n) / 10000n);
    for (const slippageBps of [0, 1001, 2.5, -1]) {
      const bad = await swap(a.apiKey, w.id, { sell: "USDC", buy: "WETH", amount: "1", slippageBps });
      expect(bad.status, String(slippageBps)).toBe(400);
      expect(bad.body.error).toBe("swap_failed");
      expect(bad.body.message).toMatch(/^slippageBps: /);
    }
  });

  it("holds a swap on a safe wallet; the owner's confirmation re-simulates and executes it", async () => {
    const a = await t.createAccount(5);
    const w = await funded(a.apiKey, { name: "safe-trader", mode: "safe", limits: { maxPerTxUsd: 60 } });
    const held = await swap(a.apiKey, w.id, { sell: "USDC", buy: "WETH", amount: "50" });
    expect(held.body).toMatchObject({ status: "awaiting_user", swap: { approvalNeeded: true } });
    expect(await t.usdcOf(w.address)).toBe(1_000_000_000n);
    const done = await t.json(await t.admin("POST", `/admin/v1/proposals/${held.body.txId}/confirm`));
    expect(done.body).toMatchObject({ status: "executed" });
    expect(await t.usdcOf(w.address)).toBe(950_000_000n);
    expect(await wethOf(w.address)).toBeGreaterThanOrEqual(BigInt(held.body.swap.minimumOut));
  });

  it("answers SPEC 7 errors: 400 swap_failed for tokens, amounts, chains and refused routes; 404; 409", async () => {
    const a = await t.createAccount(5);
    const w = await funded(a.apiKey, { name: "errors" }, "10");
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ sell: "DOGE", buy: "WETH", amount: "1" }, /^sell: unknown token "DOGE"/],
      [{ sell: "USDC", buy: "0x000000000000000000000000000000000000dEaD", amount: "1" }, /^buy: unknown token 0x000000000000000000000000000000000000dEaD/],
      [{ sell: "USDC", buy: "WETH", amount: "1.0000001" }, /^amount: more than 6 decimal places/],
      [{ sell: "USDC", buy: "WETH", amount: "0" }, /^amount: must be greater than zero/],
      [{ sell: "USDC", buy: "WETH", amount: "-1" }, /^amount: not a plain decimal/],
      [{ sell: "USDC", buy: "USDC", amount: "1" }, /same token/],
      [{ sell: "USDC", buy: "ETH", amount: "1" }, /pays out WETH, not ETH/],
      [{ sell: "USDC", buy: "WETH", amount: "1", chain: "ethereum" }, /^wrong chain: this wallet is on base/],
      [{ sell: "USDC", buy: "WETH", amount: "1", chain: "solana" }, /^chain: swaps run on base or ethereum/],
      [{ buy: "WETH", amount: "1" }, /^sell: /],
    ];
    for (const [body, message] of cases) {
      const r = await swap(a.apiKey, w.id, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error).toBe("swap_failed");
      expect(r.body.message).toMatch(message);
    }
    const raw = await t.json(await t.request("POST", `/api/v1/wallets/${w.id}/swap`, { key: a.apiKey, raw: "{not json" }));
    expect(raw).toEqual({ status: 400, body: { error: "swap_failed", message: "invalid JSON body" } });
    expect((await swap(a.apiKey, "nope", { sell: "USDC", buy: "WETH", amount: "1" })).status).toBe(404);
    expect((await t.request("POST", `/api/v1/wallets/${w.id}/swap`, { body: {} })).status).toBe(401);
    expect((await t.admin("POST", `/admin/v1/wallets/${w.id}/archive`)).status).toBe(200);
    const archived = await swap(a.apiKey, w.id, { sell: "USDC", buy: "WETH", amount: "1" });
    expect(archived.status).toBe(409);
    expect(archived.body.error).toBe("swap_failed");
    expect(await t.credits(a.apiKey)).toBe(5);
  });
});

describe("swap MCP tools", () => {
  it("lists tokens, quotes without recording anything, and swaps", async () => {
    const a = await t.createAccount(5);
    const w = await funded(a.apiKey, { name: "mcp-trader" });
    const call = await mcp(a.apiKey);
    const base = data(await call("list_swap_tokens", { chain: "base" }));
    expect(base.tokens.map((x: { symbol: string; address: string }) => `${x.symbol}:${x.address}`)).toEqual(["ETH:native", `USDC:${USDC}`, `WETH:${BASE_WETH}`]);
    const eth = data(await call("list_swap_tokens", { chain: "ethereum" }));
    expect(eth.tokens[0]).toEqual({ symbol: "ETH", name: "Ether", address: "native", decimals: 18, logoUrl: null });

    const judged = t.judge.inputs.length;
    const q = await call("quote_escrow_swap", { wallet: "mcp-trader", sell: "USDC", buy: "WETH", amount: "10", chain: "base", slippageBps: 25 });
    expect(q.isError).toBeFalsy();
    const quote = data(q);
    expect(quote).toMatchObject({ walletId: w.id, name: "mcp-trader", chain: "base", slippageBps: 25, swap: { routing: "sandbox-pool", amountIn: "10000000", slippagePct: 0.25, approvalNeeded: true } });
    expect(text(q)).toMatch(/nothing was recorded/);
    expect(data(await call("list_escrow_transactions", { wallet: w.id })).transactions).toEqual([]);
    expect(t.judge.inputs.length).toBe(judged);
    expect(await t.credits(a.apiKey)).toBe(5);

    const s = await call("escrow_swap", { wallet: w.id, sell: "USDC", buy: "WETH", amount: "10", chain: "base", note: "dca" });
    const body = data(s);
    expect(body).toMatchObject({ status: "executed", swap: { routing: "sandbox-pool", amountIn: "10000000" } });
    expect(text(s).split("\n")[0]).toBe("Verdict: ALLOW");
    expect(text(s)).toMatch(/Swap: 10 USDC -> 0\.00\d+ WETH quoted, at least/);
    expect(await t.credits(a.apiKey)).toBe(4);
    const bad = await call("escrow_swap", { wallet: w.id, sell: "USDC", buy: "WETH", amount: "10", chain: "base", slippageBps: 0 });
    expect(bad.isError).toBe(true);
  });
});
