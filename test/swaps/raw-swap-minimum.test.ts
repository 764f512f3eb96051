/**
 * Issue 18, item 7: a raw `evm_calls` swap with a minimum output of 0 executed under a swap mandate, though
 * the swap route refuses slippage outside 1 to 1,000 bps. Router calls in raw proposals are decoded
 * (src/chains/evm/swap-minimum.ts: the sandbox pool and the venue adapters' routers); a zero minimum output
 * is refused before anything is simulated, judged or charged, and a swap with a minimum has it written in
 * the summary the judge reads. Through the HTTP app, on the sandbox chain's real pool.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeFunctionData, parseAbi, type Address } from "viem";
import { ConstantProductPoolAbi } from "../../src/sandbox/contracts";
import { BASE_WETH, SANDBOX_POOL } from "../../src/sandbox/addresses";
import { ERC20, startEscrowRuntime, USDC, type EscrowRuntime } from "../wallets/helpers";

let t: EscrowRuntime;
beforeAll(async () => {
  t = await startEscrowRuntime();
});
afterAll(async () => {
  expect(await t.ledgerMismatches()).toEqual([]);
  await t?.close();
});

const MANDATE = "[judge:allow-always] Swap USDC for WETH on the sandbox pool to rebalance.";
const SWAP_ROUTER02: Address = "0x2626664c2603336E57B271c5C0b26F421741e481";
const ROUTER02_ABI = parseAbi(["function exactInputSingle((address tokenIn, address tokenOut, uint24 fee, address recipient, uint256 amountIn, uint256 amountOutMinimum, uint160 sqrtPriceLimitX96) params)"]);
const wethOf = (a: Address) => t.pub.readContract({ address: BASE_WETH, abi: ERC20, functionName: "balanceOf", args: [a] });

/** approve(pool, amount) then swapExactIn(USDC, amount, minOut, wallet): what the swap route builds, with the caller's minimum. */
const rawSwap = (wallet: Address, amount: bigint, minOut: bigint) => [
  { to: USDC, data: encodeFunctionData({ abi: ERC20, functionName: "approve", args: [SANDBOX_POOL, amount] }) },
  { to: SANDBOX_POOL, data: encodeFunctionData({ abi: ConstantProductPoolAbi, functionName: "swapExactIn", args: [USDC, amount, minOut, wallet] }) },
];

async function trader(credits = 5) {
  const a = await t.createAccount(credits);
  const w = await t.createWallet(a.apiKey, { name: "raw-swapper", mandate: MANDATE });
  await t.fund(w.address, "ETH", "1");
  await t.fund(w.address, "USDC", "1000");
  return { a, w };
}
const credits = async (key: string) => (await t.json(await t.request("GET", "/api/v1/credits", { key }))).body.creditsRemaining as number;
const proposals = (accountId: string) => t.runtime.database.db.selectFrom("proposals").select(["id", "status"]).where("account_id", "=", accountId).execute();

describe("raw swap calls and their minimum output", () => {
  it("evm_calls swapping on the sandbox pool with a minimum output of 0: 400 propose_failed naming the call, nothing recorded, charged or moved", async () => {
    const { a, w } = await trader();
    const r = await t.propose(a.apiKey, w.id, { kind: "evm_calls", calls: rawSwap(w.address, 100_000_000n, 0n) });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe("propose_failed");
    expect(r.body.message).toMatch(/input\.calls\.1 is a swap .* with no minimum output \(0\).*refused.*1 to 1,000 bps/);
    expect(await proposals(a.accountId)).toEqual([]);
    expect(await credits(a.apiKey)).toBe(5);
    expect(await wethOf(w.address)).toBe(0n);
    expect(await t.usdcOf(w.address)).toBe(1_000_000_000n);
  });

  it("the same swap as one evm_transaction, and a Uniswap SwapRouter02 call with amountOutMinimum 0, are refused too", async () => {
    const { a, w } = await trader();
    const single = await t.propose(a.apiKey, w.id, { kind: "evm_transaction", transaction: rawSwap(w.address, 1_000_000n, 0n)[1] });
    expect(single.status).toBe(400);
    expect(single.body.message).toMatch(/^input\.transaction is a swap .* no minimum output/);
    const uni = encodeFunctionData({
      abi: ROUTER02_ABI,
      functionName: "exactInputSingle",
      args: [{ tokenIn: USDC, tokenOut: BASE_WETH, fee: 500, recipient: w.address, amountIn: 5_000_000n, amountOutMinimum: 0n, sqrtPriceLimitX96: 0n }],
    });
    const viaUniswap = await t.propose(a.apiKey, w.id, { kind: "evm_calls", calls: [{ to: USDC, data: encodeFunctionData({ abi: ERC20, functionName: "approve", args: [SWAP_ROUTER02, 5_000_000n] }) }, { to: SWAP_ROUTER02, data: uni }] });
    expect(viaUniswap.status).toBe(400);
    expect(viaUniswap.body.message).toMatch(/input\.calls\.1 is a swap on 0x2626.* no minimum output/);
    expect(await proposals(a.accountId)).toEqual([]);
    expect(await credits(a.apiKey)).toBe(5);
  });

  it("a minimum output more than 1,000 bps below the simulated output is blocked by the limits, free, before the judge", async () => {
    const { a, w } = await trader();
    const out = await t.pub.readContract({ address: SANDBOX_POOL, abi: ConstantProductPoolAbi, functionName: "getAmountOut", args: [USDC, 100_000_000n] });
    const before = t.judge.inputs.length;
    const r = await t.propose(a.apiKey, w.id, { kind: "evm_calls", calls: rawSwap(w.address, 100_000_000n, (out * 80n) / 100n) });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: "blocked", verdict: "BLOCK", creditsRemaining: null });
    expect(r.body.reasoning).toMatch(/^swap minimum output: input\.calls\.1 accepts as little as [\d.]+ WETH, 2000 bps below the [\d.]+ WETH the simulation receives; the service allows at most 1000 bps/);
    expect(t.judge.inputs.length).toBe(before); // the judge never ran
    expect(await credits(a.apiKey)).toBe(5);
    expect(await wethOf(w.address)).toBe(0n);
    // 999 bps below is inside the bound (the swap route's largest slippage): judged and executed.
    const ok = await t.propose(a.apiKey, w.id, { kind: "evm_calls", calls: rawSwap(w.address, 100_000_000n, (out * 9001n) / 10000n) });
    expect(ok.body).toMatchObject({ status: "executed", verdict: "ALLOW" });
    expect(await wethOf(w.address)).toBe(out);
  });

  it("with a minimum output the swap is judged with it in its summary, and executes", async () => {
    const { a, w } = await trader();
    const out = await t.pub.readContract({ address: SANDBOX_POOL, abi: ConstantProductPoolAbi, functionName: "getAmountOut", args: [USDC, 100_000_000n] });
    const min = (out * 99n) / 100n;
    const before = t.judge.inputs.length;
    const r = await t.propose(a.apiKey, w.id, { kind: "evm_calls", calls: rawSwap(w.address, 100_000_000n, min) });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: "executed", verdict: "ALLOW" });
    const judged = t.judge.inputs.slice(before);
    expect(judged).toHaveLength(1);
    const summary = (judged[0].action as { summary: string }).summary;
    expect(summary).toContain("swap: call 1 sell 100 USDC for at least ");
    expect(summary).toContain(" WETH on 0xA4b1");
    expect(await wethOf(w.address)).toBe(out);
  });
});
