/**
 * The escrow MCP tools for Starknet wallets through the MCP SDK's own Client over real HTTP, on the sandbox
 * Starknet node (balances read back with starknet.js): create, balances, a named transfer, a multicall with
 * escrow_execute's starknetCalls, the limit refusal, the STRK20 proof refusal, and clear refusals from the
 * swap and x402 payment tools.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { RpcProvider } from "starknet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEscrowRuntime } from "../wallets/helpers";
import { freshFelt, SN_TOKENS, withStarknet, type StarknetEscrow } from "../wallets/starknet-helpers";
import { toolData as data, toolText as text } from "../helpers/tool-result";

let e: StarknetEscrow;
let client: Client;
let apiKey: string;

const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;

beforeAll(async () => {
  const base = await startEscrowRuntime({ listen: true });
  e = withStarknet(base, new RpcProvider({ nodeUrl: base.runtime.starknet!.sandbox!.url }));
  apiKey = (await e.createAccount(10)).apiKey;
  client = new Client({ name: "starknet-escrow-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${e.url}/api/mcp`), { requestInit: { headers: { "x-api-key": apiKey } } }));
});
afterAll(async () => {
  await client?.close().catch(() => {});
  await e?.close();
});

describe("escrow MCP tools on Starknet", () => {
  let wallet: { id: string; address: string };

  it("create_escrow_wallet makes a Starknet wallet; get_escrow_balances reads it with the caip2", async () => {
    const created = await call("create_escrow_wallet", { name: "mcp-stark", chain: "starknet", mode: "autonomous", mandate: "[judge:allow] pay suppliers", limits: { maxPerTxUsd: 20 } });
    expect(created.isError, text(created)).toBeFalsy();
    const w = data(created);
    expect(w).toMatchObject({ chain: "starknet", mode: "autonomous", limits: { maxPerTxUsd: 20 } });
    expect(w.address).toMatch(/^0x[0-9a-f]{64}$/);
    wallet = { id: w.id, address: w.address };
    await e.fundSn(wallet.address, "STRK", "5");
    await e.fundSn(wallet.address, "USDC", "50");
    const b = await call("get_escrow_balances", { wallet: "mcp-stark" });
    expect(b.isError).toBeFalsy();
    expect(data(b).balances.map((x: { symbol: string; amountFormatted: string; caip2: string }) => [x.symbol, x.amountFormatted, x.caip2])).toEqual([
      ["STRK", "5", "starknet:SN_MAIN"],
      ["USDC", "50", "starknet:SN_MAIN"],
    ]);
    const list = data(await call("list_escrow_wallets", {}));
    expect(list.wallets.map((x: { chain: string }) => x.chain)).toEqual(["starknet"]);
  });

  it("escrow_transfer executes a named transfer; escrow_execute runs starknetCalls as one multicall", async () => {
    const to = freshFelt();
    const t = await call("escrow_transfer", { wallet: "mcp-stark", chain: "starknet", asset: "USDC", amount: "2.5", to });
    expect(t.isError, text(t)).toBeFalsy();
    expect(text(t)).toMatch(/^Verdict: ALLOW/);
    expect(text(t)).toContain("Executed: 0x");
    expect(text(t)).toContain("/sandbox/explorer/starknet/tx/0x");
    expect(data(t)).toMatchObject({ status: "executed" });
    expect(await e.snBalance("USDC", to)).toBe(2_500_000n);

    const other = freshFelt();
    const x = await call("escrow_execute", {
      wallet: wallet.id,
      chain: "starknet:SN_MAIN",
      starknetCalls: [
        { contractAddress: SN_TOKENS.USDC, entrypoint: "transfer", calldata: [to, "1000000", "0"] },
        { contractAddress: SN_TOKENS.STRK, entrypoint: "transfer", calldata: [other, "0xde0b6b3a7640000", "0x0"] },
      ],
    });
    expect(x.isError, text(x)).toBeFalsy();
    expect(data(x)).toMatchObject({ status: "executed" });
    expect(await e.snBalance("USDC", to)).toBe(3_500_000n);
    expect(await e.snBalance("STRK", other)).toBe(10n ** 18n);

    const listed = data(await call("list_escrow_transactions", { wallet: "mcp-stark" }));
    expect(listed.transactions.map((p: { status: string }) => p.status)).toEqual(["executed", "executed"]);
    const got = data(await call("get_escrow_transaction", { id: data(x).txId }));
    expect(got).toMatchObject({ status: "executed", txHash: data(x).txHash });
  });

  it("a limit refusal is free; bad calls and a STRK20 proof are refused; nothing moves", async () => {
    const to = freshFelt();
    const over = await call("escrow_transfer", { wallet: "mcp-stark", chain: "starknet", asset: "USDC", amount: "25", to });
    expect(text(over)).toContain("wallet limits refused it before the judge ran; no credit charged");
    expect(data(over).reasoning).toMatch(/^maxPerTxUsd/);
    const bad = await call("escrow_execute", { wallet: "mcp-stark", chain: "starknet", starknetCalls: [{ contractAddress: SN_TOKENS.USDC, entrypoint: "transfer", calldata: [to, "1e6", "0"] }] });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/propose_failed/);
    expect(text(bad)).toMatch(/calls\[0\]\.calldata\[1\]/);
    const proof = await call("escrow_execute", { wallet: "mcp-stark", chain: "starknet", starknetCalls: [{ contractAddress: SN_TOKENS.USDC, entrypoint: "transfer", calldata: [to, "1", "0"] }], starknetProof: { facts: [], data: [] } });
    expect(proof.isError).toBe(true);
    expect(text(proof)).toMatch(/proof\.facts must be 1 to 64/);
    const evm = await call("escrow_execute", { wallet: "mcp-stark", chain: "starknet", calls: [{ to: "0x" + "1".repeat(40) }] });
    expect(evm.isError).toBe(true);
    expect(text(evm)).toMatch(/wrong chain/);
    expect(await e.snBalance("USDC", to)).toBe(0n);
  });

  it("the swap and x402 payment tools refuse a Starknet wallet clearly", async () => {
    const swap = await call("escrow_swap", { wallet: "mcp-stark", chain: "base", sell: "USDC", buy: "ETH", amount: "1" });
    expect(swap.isError).toBe(true);
    expect(text(swap)).toMatch(/this wallet is on starknet/);
    const quote = await call("quote_escrow_swap", { wallet: "mcp-stark", chain: "base", sell: "USDC", buy: "ETH", amount: "1" });
    expect(quote.isError).toBe(true);
    expect(text(quote)).toMatch(/this wallet is on starknet/);
    const pay = await call("escrow_pay_x402", { wallet: "mcp-stark", url: "https://example.com/paid" });
    expect(pay.isError).toBe(true);
    expect(text(pay)).toMatch(/EVM wallets only; this wallet is on starknet/);
    const listed = data(await call("list_escrow_transactions", { wallet: "mcp-stark" }));
    expect(listed.transactions.filter((p: { kind?: string }) => p.kind === "swap" || p.kind === "x402_payment")).toEqual([]);
  });
});
