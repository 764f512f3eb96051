/**
 * Phrasings of thresholds, slippage, approval shape and swap direction in owners' own words: a human threshold
 * said as a condition ("if a bet is over 30, ping me"), a human named by role ("a human approver"), a slippage
 * ceiling said as a refusal ("don't accept more than"), "approvals are exact amounts only", and the direction of a
 * swap ("WETH -> USDC", "buy SOL with USDC"). Each is probed on the side it must stop.
 */
import { describe, expect, it } from "vitest";
import { parseIntent } from "../../../src/judge/rules/parse/index";
import type { Facts } from "../../../src/venues/types";
import { facts, orderFacts, transfer, verdict } from "./helpers";

const readings = (intent: string) => parseIntent(intent).clauses.map((c) => c.reading);
const swap = (sell: string, buy: string, usd = 500, slippageBps = 40): Facts =>
  facts({
    venue: "uniswap",
    chain: "arbitrum",
    chainId: 42161,
    actionFamily: "swap",
    actionType: "exactInputSingle",
    swap: { sell: { asset: sell, amount: "1", usd }, buy: { asset: buy, amount: null, minAmount: null, usd: null }, slippageBps, recipient: null },
    assets: [sell, buy],
    notionalUsd: usd,
  });

describe("human thresholds said as a condition or by role", () => {
  it("'if a wager is over 40, text me first' holds orders above 40 dollars", () => {
    const I = "Polymarket only. at most 75 dollars per wager, and if a wager is over 40, text me first.";
    expect(readings(I)).not.toContain("not understood");
    const bet = (usd: number) => orderFacts({ asset: "YES", market: "prediction", side: "buy", size: usd * 2, price: 0.5, notionalUsd: usd }, { venue: "polymarket", chain: "polygon" });
    expect(verdict(I, bet(40))).toBe("ALLOW");
    expect(verdict(I, bet(41))).toBe("ESCALATE");
    expect(verdict(I, bet(80))).toBe("BLOCK");
  });

  it("a bare count after a dollar cap is not dollars ('max $50 a bet, at most 3 bets')", () => {
    const p = parseIntent("Polymarket only. max $50 a bet, at most 3 bets a day.");
    expect(p.constraints.some((k) => (k.kind === "cap" || k.kind === "escalate_above") && k.limit.value === 3 && k.limit.unit === "USD")).toBe(false);
  });

  it("'escalated to a human approver' / 'to the treasury reviewer' is a human threshold", () => {
    const I = "Pay USDC to 0x1111111111111111111111111111111111111111 only. Any payment above 900 USDC must be escalated to the treasury reviewer.";
    expect(readings(I)).not.toContain("not understood");
    expect(verdict(I, transfer({ asset: "USDC", amount: "900", usd: 900 }))).toBe("ALLOW");
    expect(verdict(I, transfer({ asset: "USDC", amount: "901", usd: 901 }))).toBe("ESCALATE");
  });
});

describe("slippage and approvals in other words", () => {
  it("'never tolerate more than 0.5% slippage vs the price in context' is a slippage ceiling", () => {
    const I = "Swap WETH and USDC on Uniswap (Arbitrum). Never tolerate more than 0.5% slippage vs the price in context.";
    expect(readings(I)).not.toContain("not understood");
    expect(verdict(I, swap("WETH", "USDC", 500, 50))).toBe("ALLOW");
    expect(verdict(I, swap("WETH", "USDC", 500, 60))).toBe("BLOCK");
  });

  it("'allowances are exact amounts only' rules out unlimited approvals", () => {
    const I = "Swap WETH and USDC on Uniswap (Arbitrum); allowances are exact amounts only.";
    expect(readings(I)).not.toContain("not understood");
    expect(parseIntent(I).constraints.some((k) => k.kind === "approval_exact" && k.exact)).toBe(true);
  });
});

describe("swap direction", () => {
  it("'only swap WETH -> USDC' allows that direction and blocks the reverse", () => {
    const I = "On Uniswap (Arbitrum) only swap WETH -> USDC, max 2 WETH per swap.";
    expect(verdict(I, swap("WETH", "USDC"))).toBe("ALLOW");
    expect(verdict(I, swap("USDC", "WETH"))).toBe("BLOCK");
  });

  it("'buy SOL with USDC or USDT' sells only the stablecoins", () => {
    const I = "On Uniswap (Arbitrum), buy SOL with USDC or USDT.";
    expect(verdict(I, swap("USDT", "SOL"))).toBe("ALLOW");
    expect(verdict(I, swap("SOL", "USDC"))).toBe("BLOCK");
  });

  it("'USDC <-> WETH' goes both ways, and two directions are alternatives", () => {
    expect(verdict("Uniswap on Arbitrum: swap USDC <-> WETH.", swap("WETH", "USDC"))).toBe("ALLOW");
    expect(verdict("Uniswap on Arbitrum: swap USDC <-> WETH.", swap("USDC", "WETH"))).toBe("ALLOW");
    const I = "Uniswap on Arbitrum: convert WETH into USDC, or swap USDT to USDC.";
    expect(verdict(I, swap("USDT", "USDC"))).toBe("ALLOW");
    expect(verdict(I, swap("WETH", "USDC"))).toBe("ALLOW");
    expect(verdict(I, swap("USDC", "USDT"))).toBe("BLOCK");
  });
});

describe("swap direction: both ways", () => {
  it("'swap USDC to WETH and back' binds no direction", () => {
    expect(verdict("Uniswap on Arbitrum: swap USDC to WETH and back as needed.", swap("WETH", "USDC"))).toBe("ALLOW");
  });
});
