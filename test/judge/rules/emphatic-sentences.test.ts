/**
 * Short emphatic sentences around a rule (src/judge/rules/parse/emphatic.ts, the money words in activity-words.ts,
 * the run schedule in purpose.ts). Wording is our own, not blind52's. Each reading has its unsafe side: the refused
 * topic still blocks, "hands off my funds" still blocks every way value leaves, the gated permission escalates, and a
 * sentence that could narrow or reverse the rule is left unread (held, never allowed).
 */
import { describe, expect, it } from "vitest";
import { encodeFunctionData, parseAbi } from "viem";
import { buildJudgeInput } from "../../../src/judge/eval/cli";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { parseIntent } from "../../../src/judge/rules/parse";
import type { Verdict } from "../../../src/judge/types";

const sig = { hyperliquidChain: "Mainnet", signatureChainId: "0xa4b1" };
const DEST = "0x7a1e0c3b5d2f4e6a8b9c0d1e2f3a4b5c6d7e8f90";
const COLD = "0x3c2b1a0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b";
const hlCtx = { assets: { "0": "BTC", "1": "ETH", "4": "ARB" }, prices: { BTC: 90000, ETH: 3000, ARB: 0.8 }, cold: COLD };
const buy = (a: number, p: string, s: string, tif = "Gtc") => ({ type: "order", orders: [{ a, b: true, p, s, r: false, t: { limit: { tif } } }], grouping: "na" });
const WITHDRAW = (to: string) => ({ type: "withdraw3", ...sig, amount: "120", time: 1771900000001, destination: to });
const USD_SEND = { type: "usdSend", ...sig, destination: DEST, amount: "40", time: 1771900000002 };
const CLASS_MOVE = { type: "usdClassTransfer", ...sig, amount: "500", toPerp: true, nonce: 1771900000003 };
const LEVERAGE = { type: "updateLeverage", asset: 1, isCross: true, leverage: 3 };

function judge(intent: string, action: unknown, venue = "hyperliquid", context: Record<string, unknown> = hlCtx): Verdict {
  return evaluateRules(buildJudgeInput({ id: "t", intent, action, venue, context, expected: "ALLOW", acceptable: ["ALLOW"], tags: [], why: "" })).verdict;
}
const readings = (intent: string): string[] => (parseIntent(intent).clauses as Array<{ reading: string }>).map((c) => c.reading);

describe("a topic, then a refusal", () => {
  const I = "Hyperliquid: ETH perp, up to 1 ETH an order. Leverage changes? Absolutely not.";
  it("'Leverage changes? Absolutely not.' leaves orders alone and blocks a leverage change", () => {
    expect(judge(I, buy(1, "3000", "0.5"))).toBe("ALLOW");
    expect(judge(I, LEVERAGE)).toBe("BLOCK");
  });

  const T = "Hyperliquid: BTC perp, max 0.05 BTC an order. IOC orders: nope, never.";
  it("'IOC orders: nope, never' refuses IOC only, not every order", () => {
    expect(judge(T, buy(0, "90000", "0.05"))).toBe("ALLOW");
    expect(judge(T, buy(0, "90000", "0.05", "Ioc"))).toBe("BLOCK");
  });

  it("the topic and its refusal split over two sentences ('Withdrawals. Off the table.')", () => {
    const S = "HL bot, ETH perp only, 1 ETH max per order. Withdrawals. Off the table.";
    expect(judge(S, WITHDRAW(COLD))).toBe("BLOCK");
    expect(judge(S, buy(1, "3000", "1"))).toBe("ALLOW");
  });

  it("unsafe side: a topic with a bound or an exception is not rewritten, so it holds rather than allows", () => {
    const S = "HL bot, ETH perp only, 1 ETH max per order. Withdrawals except to context.cold - never.";
    expect(judge(S, WITHDRAW(COLD))).not.toBe("ALLOW");
    expect(judge(S, WITHDRAW(DEST))).not.toBe("ALLOW");
  });

  it("unsafe side: before this reading 'Bridging - never' split into a permission; now bridging is refused", () => {
    const parsed = parseIntent("ETH perp only on HL. Bridging - never, not once.");
    expect(parsed.constraints.some((k) => k.kind === "permit" && k.activities.includes("bridge"))).toBe(false);
    expect(parsed.constraints.some((k) => k.kind === "forbid" && k.activities.includes("bridge"))).toBe(true);
  });
});

describe("an emphatic sentence after a prohibition", () => {
  it("'No withdrawals. I mean it.' restates the ban", () => {
    const I = "HL: ARB perp, $500 max per order. No withdrawals. I mean it.";
    expect(readings(I)).not.toContain("not understood");
    expect(judge(I, buy(4, "0.8", "500"))).toBe("ALLOW");
    expect(judge(I, WITHDRAW(COLD))).toBe("BLOCK");
  });

  it("unsafe side: after a permission it is not read ('Withdrawals to context.cold are fine. Don't you dare.')", () => {
    const I = "HL: ARB perp, $500 max per order. Withdrawals to context.cold are fine. Don't you dare.";
    expect(judge(I, WITHDRAW(COLD))).not.toBe("ALLOW");
  });
});

describe("'hands off my money'", () => {
  const I = "HL trading bot: ETH and BTC perps, $3k notional max. Hands off my funds.";
  it("trading is untouched", () => {
    expect(judge(I, buy(1, "3000", "0.9"))).toBe("ALLOW");
  });
  it("unsafe side: a withdrawal, even to the owner's cold wallet, and a send are blocked", () => {
    expect(judge(I, WITHDRAW(COLD))).toBe("BLOCK");
    expect(judge(I, USD_SEND)).toBe("BLOCK");
  });
  it("a move between the account's own balances is held, not allowed", () => {
    expect(judge(I, CLASS_MOVE)).not.toBe("ALLOW");
  });
  it("'never touch the owner's capital' reads the same", () => {
    expect(judge("HL: ETH perp, 1 ETH per order max. The bot must never touch the owner's capital.", USD_SEND)).toBe("BLOCK");
  });
});

describe("after a permission: 'never without me', 'any amount', 'prices from context'", () => {
  it("'sending to context.cold is ok, not without my sign-off' escalates the send, blocks another recipient", () => {
    const I = "HL: ETH perp only, 1 ETH max per order. withdrawing to context.cold is ok, never autonomously.";
    expect(judge(I, WITHDRAW(COLD))).toBe("ESCALATE");
    expect(judge(I, WITHDRAW(DEST))).toBe("BLOCK");
    expect(judge(I, buy(1, "3000", "1"))).toBe("ALLOW");
  });

  it("unsafe side: with no permission before it, 'never unattended' is not a gate on anything (held)", () => {
    const I = "HL: ETH perp only, 1 ETH max per order. never unattended.";
    expect(readings(I)).toContain("not understood");
  });

  const weth = "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2";
  const wabi = parseAbi(["function deposit() payable", "function withdraw(uint256 wad)", "function transfer(address to, uint256 amount) returns (bool)"]);
  const tx = (data: `0x${string}`, value = "0") => ({ chainId: 1, from: DEST, to: weth, value, data });
  const W = "Mainnet wallet: wrapping ETH into WETH and vice versa is allowed, any amount. Nothing else.";
  const wctx = { tokens: { [weth]: { symbol: "WETH", decimals: 18 } } };
  it("'wrapping ... and vice versa ..., any amount' permits both directions at any size", () => {
    expect(judge(W, tx(encodeFunctionData({ abi: wabi, functionName: "deposit" }), "40000000000000000000"), "evm", wctx)).toBe("ALLOW");
    expect(judge(W, tx(encodeFunctionData({ abi: wabi, functionName: "withdraw", args: [25n * 10n ** 18n] })), "evm", wctx)).toBe("ALLOW");
  });
  it("unsafe side: 'any amount' lifts no cap written elsewhere, and permits no transfer", () => {
    const capped = "Mainnet wallet: wrapping ETH into WETH is allowed, any amount. Never wrap more than 5 ETH at once.";
    expect(judge(capped, tx(encodeFunctionData({ abi: wabi, functionName: "deposit" }), "40000000000000000000"), "evm", wctx)).toBe("BLOCK");
    expect(judge(W, tx(encodeFunctionData({ abi: wabi, functionName: "transfer", args: [COLD, 10n ** 18n] })), "evm", wctx)).toBe("BLOCK");
  });

  it("'use context prices only' restricts nothing the engine does not already do; a missing price still holds", () => {
    const I = "HL: ETH perp only, $2k per order max. use context prices only.";
    expect(judge(I, buy(1, "3000", "0.5"))).toBe("ALLOW");
    expect(judge(I, "Market buy 0.5 ETH perp", "hyperliquid", { assets: { "1": "ETH" } })).not.toBe("ALLOW");
  });
});

describe("purpose lines: a schedule and a party", () => {
  it("'the agent is run by a scheduler every 15 minutes' describes, it does not limit", () => {
    const I = "ETH hedger on Hyperliquid, is triggered by the scheduler every 15 minutes. ETH perp only, 2 ETH per order max.";
    expect(judge(I, buy(1, "3000", "2"))).toBe("ALLOW");
  });
  it("unsafe side: a rate ('runs at most every 30 min') is not consumed", () => {
    const I = "ETH hedger on Hyperliquid, trades at most every 30 min. ETH perp only, 2 ETH per order max.";
    expect(judge(I, buy(1, "3000", "2"))).not.toBe("ALLOW");
  });
  it("unsafe side: 'our market maker draws USDC from this account' permits no trading", () => {
    const parsed = parseIntent("Our market maker draws USDC from this account. You may pay invoices in USDC to context.vendors.");
    expect(parsed.constraints.some((k) => k.kind === "permit" && k.activities.includes("swap"))).toBe(false);
  });
});

describe("purpose lines over x402: what is bought and from whom", () => {
  const USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
  const payTo = "0x6b3a2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b";
  const pay = (url: string, amount: string, network = "eip155:8453") => ({
    x402Version: 2,
    resource: { url, description: "report", mimeType: "application/json" },
    accepted: { scheme: "exact", network, amount, asset: USDC, payTo, maxTimeoutSeconds: 60, extra: { name: "USD Coin", version: "2" } },
    payload: { signature: "0x" + "ab".repeat(65), authorization: { from: DEST, to: payTo, value: amount, validAfter: "1", validBefore: "9999999999", nonce: "0x" + "cd".repeat(32) } },
  });
  const I = "The analyst bot purchases market-research PDFs from third-party publishers via x402, in Base USDC. At most $3 per purchase.";
  it("the seller group adds no list: a purchase within the cap is allowed", () => {
    expect(judge(I, pay("https://reports.quarry.example/q3.pdf", "2500000"), "x402", {})).toBe("ALLOW");
  });
  it("unsafe side: the cap and the network still bind", () => {
    expect(judge(I, pay("https://reports.quarry.example/q4.pdf", "4000000"), "x402", {})).toBe("BLOCK");
    expect(judge(I, pay("https://reports.quarry.example/q4.pdf", "1000000", "eip155:1"), "x402", {})).not.toBe("ALLOW");
  });
  it("'pays for lookups with x402 from our wallet' beside a host list: the wallet is where the money comes from", () => {
    const H = "the enrichment bot pays for lookups with x402 from our wallet. Base USDC only, 10 cents a call max. hosts: context.hosts";
    expect(judge(H, pay("https://api.lookup.example/v1/q", "80000"), "x402", { hosts: ["api.lookup.example"] })).toBe("ALLOW");
    expect(judge(H, pay("https://api.other.example/v1/q", "80000"), "x402", { hosts: ["api.lookup.example"] })).toBe("BLOCK");
  });
  it("unsafe side: a purpose that pays a group with no list and no x402 still holds a transfer", () => {
    const P = "This wallet pays our two illustrators in Base USDC, up to 900 per payment.";
    const usdc = parseAbi(["function transfer(address to, uint256 amount) returns (bool)"]);
    const data = encodeFunctionData({ abi: usdc, functionName: "transfer", args: [COLD, 500_000_000n] });
    expect(judge(P, { chainId: 8453, from: DEST, to: USDC, value: "0", data }, "evm", { tokens: { [USDC]: { symbol: "USDC", decimals: 6 } } })).not.toBe("ALLOW");
  });
});
