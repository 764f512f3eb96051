/**
 * The escrow MCP tools for Solana wallets through the MCP SDK's own Client over real HTTP, on the sandbox
 * Solana cluster (read back with @solana/kit): create, balances, a named transfer held for the owner,
 * escrow_execute with a kit-built solanaTransaction executed, a limit refusal, bad input, and clear
 * refusals from the swap tools (swap_failed) and the x402 payment tool (EVM wallets only).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createNoopSigner, type Address } from "@solana/kit";
import { getTransferSolInstruction } from "@solana-program/system";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshSolAddress, startSolanaEscrow, USDC_MINT, type SolanaEscrow } from "../chains/solana/helpers";
import { toolData as data, toolText as text } from "../helpers/tool-result";

let e: SolanaEscrow;
let client: Client;
let apiKey: string;

const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;

beforeAll(async () => {
  e = await startSolanaEscrow({ listen: true });
  apiKey = (await e.createAccount(10)).apiKey;
  client = new Client({ name: "solana-escrow-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${e.url}/api/mcp`), { requestInit: { headers: { "x-api-key": apiKey } } }));
});
afterAll(async () => {
  await client?.close().catch(() => {});
  await e?.close();
});

describe("escrow MCP tools on Solana", () => {
  let wallet: { id: string; address: string };

  it("create_escrow_wallet makes a Solana wallet (safe mode refused); get_escrow_balances reads it with the cluster's caip2", async () => {
    const safe = await call("create_escrow_wallet", { name: "mcp-safe", chain: "solana", mode: "safe", mandate: "x" });
    expect(safe.isError).toBe(true);
    expect(text(safe)).toMatch(/safe is not available on solana wallets/);
    const created = await call("create_escrow_wallet", { name: "mcp-sol", chain: "solana", mode: "autonomous", mandate: "[judge:allow] pay suppliers", limits: { maxPerTxUsd: 20, tokenAllowlist: ["SOL", "USDC"] } });
    expect(created.isError, text(created)).toBeFalsy();
    const w = data(created);
    expect(w).toMatchObject({ chain: "solana", mode: "autonomous", limits: { maxPerTxUsd: 20, tokenAllowlist: ["native", USDC_MINT] } });
    expect(w.address).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    wallet = { id: w.id, address: w.address };
    await e.fundSol(wallet.address, "SOL", "1");
    await e.fundSol(wallet.address, "USDC", "50");
    const b = await call("get_escrow_balances", { wallet: "mcp-sol" });
    expect(b.isError).toBeFalsy();
    expect(data(b).balances.map((x: { symbol: string; amountFormatted: string; caip2: string }) => [x.symbol, x.amountFormatted, x.caip2])).toEqual([
      ["SOL", "1", e.info.caip2],
      ["USDC", "50", e.info.caip2],
    ]);
  });

  it("escrow_transfer is held for the owner; escrow_execute runs a solanaTransaction autonomously", async () => {
    const to = await freshSolAddress();
    const t = await call("escrow_transfer", { wallet: "mcp-sol", chain: "solana", asset: "USDC", amount: "2.5", to });
    expect(t.isError, text(t)).toBeFalsy();
    expect(data(t)).toMatchObject({ status: "awaiting_user", verdict: "ALLOW" });
    expect(data(t).approvalUrl).toMatch(/\/dashboard\/proposals\/prop_/);
    expect(await e.usdcOf(to)).toBe(0n);

    const transaction = await e.callerTx(wallet.address, [getTransferSolInstruction({ source: createNoopSigner(wallet.address as Address), destination: to as Address, amount: 50_000_000n })]);
    const x = await call("escrow_execute", { wallet: wallet.id, chain: e.info.caip2, solanaTransaction: transaction });
    expect(x.isError, text(x)).toBeFalsy();
    expect(data(x)).toMatchObject({ status: "executed" });
    expect(text(x)).toContain("/sandbox/explorer/solana/tx/");
    expect(await e.lamportsOf(to)).toBe(50_000_000n);

    const listed = data(await call("list_escrow_transactions", { wallet: "mcp-sol" }));
    expect(listed.transactions.map((p: { status: string }) => p.status)).toEqual(["executed", "awaiting_user"]);
    const got = data(await call("get_escrow_transaction", { id: data(x).txId }));
    expect(got).toMatchObject({ status: "executed", txHash: data(x).txHash });
  });

  it("a limit refusal is free; bad input is refused naming the field; nothing moves", async () => {
    const to = await freshSolAddress();
    const over = await call("escrow_execute", {
      wallet: "mcp-sol",
      chain: "solana",
      solanaTransaction: await e.callerTx(wallet.address, [getTransferSolInstruction({ source: createNoopSigner(wallet.address as Address), destination: to as Address, amount: 200_000_000n })]),
    });
    expect(text(over)).toContain("wallet limits refused it before the judge ran; no credit charged");
    expect(data(over).reasoning).toMatch(/^maxPerTxUsd/);
    const bad = await call("escrow_execute", { wallet: "mcp-sol", chain: "solana", solanaTransaction: "not base64!!" });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/input\.transaction is not valid base64/);
    const badTo = await call("escrow_transfer", { wallet: "mcp-sol", chain: "solana", asset: "SOL", amount: "0.1", to: "0x000000000000000000000000000000000000dEaD" });
    expect(badTo.isError).toBe(true);
    expect(text(badTo)).toMatch(/input\.transfer\.to .*base58/);
    const evm = await call("escrow_execute", { wallet: "mcp-sol", chain: "solana", transaction: { to: "0x" + "1".repeat(40) } });
    expect(evm.isError).toBe(true);
    expect(text(evm)).toMatch(/not available on Solana wallets/);
    expect(await e.lamportsOf(to)).toBe(0n);
  });

  it("the swap tools answer swap_failed and the x402 payment tool refuses a Solana wallet clearly", async () => {
    const swap = await call("escrow_swap", { wallet: "mcp-sol", chain: "solana", sell: "USDC", buy: "SOL", amount: "1" });
    expect(swap.isError).toBe(true);
    expect(text(swap)).toMatch(/swap_failed/);
    expect(text(swap)).toMatch(/solana/);
    const quote = await call("quote_escrow_swap", { wallet: "mcp-sol", chain: "solana", sell: "USDC", buy: "SOL", amount: "1" });
    expect(quote.isError).toBe(true);
    expect(text(quote)).toMatch(/swap_failed/);
    const pay = await call("escrow_pay_x402", { wallet: "mcp-sol", url: "https://example.com/paid" });
    expect(pay.isError).toBe(true);
    expect(text(pay)).toMatch(/EVM wallets only; this wallet is on solana/);
    const listed = data(await call("list_escrow_transactions", { wallet: "mcp-sol" }));
    expect(listed.transactions.filter((p: { kind?: string }) => p.kind === "swap" || p.kind === "x402_payment")).toEqual([]);
  });
});
