/**
 * Readings added after the second blind round: preambles (memo headers, greetings, descriptions of the agent),
 * enumerators, "USD 4,000", "no worse than", chat spelling, "Prohibited: A; B", spend counters in context refs,
 * "long side (buy)". Each reading is also stress-tested: a preamble that carries a rule word is still parsed
 * as a rule, and mutated actions (bigger, other asset, other recipient) never become ALLOW.
 */
import { describe, expect, it } from "vitest";
import { parseIntent } from "../../../src/judge/rules/parse";
import { orderFacts, transfer, verdict } from "./helpers";

const MEMO = [
  "MEMO - Risk & Compliance, Kestrel Capital LP. Re: trading mandate for execution agent \"kite-7\" (Hyperliquid sub-account).",
  "1. Permitted instruments: ETH and ARB perpetual futures only.",
  "2. Maximum notional per order: USD 4,000.",
  "3. The agent shall not withdraw, send or otherwise transfer funds out of the account.",
].join("\n");

describe("preambles and headers", () => {
  it("reads a memo header, enumerators and 'USD 4,000' without open questions", () => {
    const p = parseIntent(MEMO);
    expect(p.unknown).toEqual([]);
    expect(p.constraints).toContainEqual(expect.objectContaining({ kind: "allow", dim: "asset", values: ["ETH", "ARB"] }));
    expect(p.constraints).toContainEqual(expect.objectContaining({ kind: "cap", limit: { value: 4000, unit: "USD" } }));
    expect(p.constraints).toContainEqual(expect.objectContaining({ kind: "forbid", activities: expect.arrayContaining(["transfer", "withdrawal"]) }));
    expect(p.constraints.some((k) => k.kind === "allow" && k.dim === "asset" && k.values.includes("MEMO"))).toBe(false);
  });

  it("ALLOWs only what the memo allows", () => {
    expect(verdict(MEMO, orderFacts({ asset: "ETH", size: 1.5, price: 2600, notionalUsd: 3900 }))).toBe("ALLOW");
    expect(verdict(MEMO, orderFacts({ asset: "ETH", size: 3, price: 2600, notionalUsd: 7800 }))).toBe("BLOCK");
    expect(verdict(MEMO, orderFacts({ asset: "BTC", size: 0.01, price: 90000, notionalUsd: 900 }))).toBe("BLOCK");
    expect(verdict(MEMO, transfer({ asset: "USDC", amount: "100", usd: 100 }, { venue: "hyperliquid", chain: "hyperliquid" }))).not.toBe("ALLOW");
  });

  it("treats descriptions of the agent and greetings as preamble", () => {
    for (const pre of ["hey so this bot rebalances our treasury on base.", "Policy AAVE-03 (Treasury Operations).", "Starknet grants helper.", "hl."]) {
      expect(parseIntent(`${pre} Trade BTC perps only, max $1,000 per order.`).unknown, pre).toEqual([]);
    }
  });

  it("never treats a sentence with a rule word as preamble", () => {
    for (const pre of [
      "This bot is for trading BTC only.",
      "This agent handles payments, never to new vendors.",
      "I'm a trader and this bot trades up to $5k.",
      "Re: no withdrawals.",
      "Hey so this bot runs if the market is calm.",
    ]) {
      const p = parseIntent(`${pre} Trade BTC perps, max $1,000 per order.`);
      const readAsRule = p.unknown.length > 0 || p.constraints.some((k) => k.rule.startsWith(pre.replace(/\.$/, "").slice(0, 20)) && k.kind !== "allow");
      expect(readAsRule || p.constraints.length > 2, pre).toBe(true);
    }
    expect(verdict("Re: no withdrawals. Trade BTC perps, max $1,000 per order.", transfer({}, { actionFamily: "withdrawal", actionType: "withdraw3" }))).not.toBe("ALLOW");
  });
});

describe("other new readings", () => {
  it("spreads a 'Prohibited:' header over every item of its list", () => {
    const p = parseIntent("Permitted: supply USDC on Aave. Prohibited: borrowing; withdrawing to any other address; supplying WETH.");
    expect(p.constraints.filter((k) => k.kind === "permit").flatMap((k) => (k.kind === "permit" ? k.activities : []))).not.toContain("withdrawal");
    expect(p.constraints).toContainEqual(expect.objectContaining({ kind: "forbid", activities: ["supply"], asset: "WETH" }));
  });

  it("reads 'no worse than 1% below' as a 1% slippage cap", () => {
    expect(parseIntent("swap WETH to USDC, min out no worse than 1% below context price").constraints).toContainEqual(expect.objectContaining({ kind: "slippage_cap", bps: 100 }));
  });

  it("does not read a spend counter reference as a recipient list", () => {
    const p = parseIntent("x402 spend policy. Daily: max 3 USD (see context.spent_today_usd).");
    expect(p.unknown).toEqual([]);
    expect(p.constraints.some((k) => k.kind === "allow" && k.dim === "recipient")).toBe(false);
    // A real list reference is still a recipient list.
    expect(parseIntent("Pay only the vendors in context.vendors.").constraints).toContainEqual(expect.objectContaining({ kind: "allow", dim: "recipient", refs: ["context.vendors"] }));
  });

  it("reads 'u can' and a polite 'nothing else pls'", () => {
    const p = parseIntent("u can stake hype, nothing else pls");
    expect(p.unknown).toEqual([]);
    expect(p.constraints).toContainEqual(expect.objectContaining({ kind: "only_listed" }));
  });

  it("keeps USD1 a token: only a bare 'USD 4,000' is dollars", () => {
    expect(parseIntent("Max 500 USD1 per transfer.").constraints).toContainEqual(expect.objectContaining({ kind: "cap", limit: expect.objectContaining({ unit: "USD1" }) }));
  });

  it("'only long side (buy)' does not plainly allow a reduce-only sell", () => {
    const intent = "You can only trade BTC perpetual, only long side (buy). Each order maximum 0.02 BTC.";
    expect(verdict(intent, orderFacts({ side: "sell", reduceOnly: true, size: 0.01, notionalUsd: 900 }))).not.toBe("ALLOW");
    expect(verdict(intent, orderFacts({ side: "sell", reduceOnly: false, size: 0.01, notionalUsd: 900 }))).not.toBe("ALLOW");
    expect(verdict(intent, orderFacts({ side: "buy", size: 0.01, notionalUsd: 900 }))).toBe("ALLOW");
  });
});
