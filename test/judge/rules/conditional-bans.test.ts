/**
 * Prohibitions that bind only under a condition (parse/conditions.ts, checks/conditions.ts): a figure in the
 * context, the action's own price, or who the counterparty is. The condition met must stop the action; unmet, the
 * ban is set aside; when it cannot be told, a human decides. Each wording is probed from the side it must still stop.
 */
import { describe, expect, it } from "vitest";
import { parseIntent } from "../../../src/judge/rules/parse/index";
import { facts, orderFacts, transfer, verdict } from "./helpers";

const readings = (intent: string) => parseIntent(intent).clauses.map((c) => c.reading);
const bet = (price: number, side: "buy" | "sell" = "buy") => orderFacts({ asset: "TOKEN", market: "prediction", side, price, size: 100, notionalUsd: price * 100 }, { venue: "polymarket", chain: "polygon" });
const borrow = (asset = "USDC") =>
  facts({ venue: "aave", chain: "ethereum", chainId: 1, actionFamily: "position", actionType: "borrow", assets: [asset], summary: `borrow ${asset}`, notionalUsd: 1000 });

describe("a condition on the context's figures", () => {
  const I = "Hyperliquid perps, any coin. If the hourly funding on a coin is above 0.02%, do not open longs on it (see context.funding).";
  it("reads the ban and its condition, and checks the figure for the order's own asset", () => {
    const p = parseIntent(I);
    const side = p.constraints.find((k) => k.kind === "side");
    expect(side?.when?.path).toBe("context.funding");
    const ctx = { funding: { SOL: 0.011, DOGE: 0.034 } };
    expect(verdict(I, orderFacts({ asset: "SOL", side: "buy" }), ctx)).not.toBe("BLOCK");
    // Unsafe side: the condition is met for DOGE, so its long is stopped.
    expect(verdict(I, orderFacts({ asset: "DOGE", side: "buy" }), ctx)).toBe("BLOCK");
    // No entry for the asset: the ban may bind, so it is not allowed.
    expect(verdict(I, orderFacts({ asset: "AVAX", side: "buy" }), ctx)).toBe("ESCALATE");
  });

  it("a whole-account figure: 'never borrow while context.aave.hf is under 1.8'", () => {
    const J = "Aave V3 on Ethereum: supply, withdraw and borrow. Never borrow while context.aave.hf is under 1.8.";
    expect(readings(J)).not.toContain("not understood");
    expect(verdict(J, borrow(), { aave: { hf: 2.4 } })).toBe("ALLOW");
    expect(verdict(J, borrow(), { aave: { hf: 1.5 } })).toBe("BLOCK");
    expect(verdict(J, borrow(), { aave: {} })).toBe("ESCALATE");
  });

  it("a percentage against a key that does not say its unit decides only when both readings agree", () => {
    const J = "Trade perps. If the funding rate on a coin is over 0.05%, don't open new longs (rates: context.rates).";
    // 0.0007 is over 0.05% read as a fraction (0.07%) but not read as a percentage: the condition cannot be told.
    expect(verdict(J, orderFacts({ asset: "ETH", side: "buy" }), { rates: { ETH: 0.0007 } })).toBe("ESCALATE");
    expect(verdict(J, orderFacts({ asset: "ETH", side: "buy" }), { rates: { ETH: 0.2 } })).toBe("BLOCK");
  });

  it("a condition on something the context does not name is left unread, never a blanket ban or none", () => {
    const J = "Trade perps. If the market gets choppy above 3, don't open anything new.";
    expect(readings(J)).toContain("not understood");
    expect(verdict(J, orderFacts({ asset: "ETH", side: "buy" }), {})).toBe("ESCALATE");
  });
});

describe("a condition on the action's own price", () => {
  it("'when shares trade above 0.92, no buying': a buy at 0.6 passes, at 0.95 it is stopped, a sell is not a buy", () => {
    const I = "Polymarket account. When the price is above 0.92, no buying.";
    expect(verdict(I, bet(0.6))).toBe("ALLOW");
    expect(verdict(I, bet(0.95))).toBe("BLOCK");
    expect(verdict(I, bet(0.97, "sell"))).toBe("ALLOW");
  });

  it("'never purchase at a price of 0.8 or more' includes the figure itself", () => {
    const I = "Polymarket bets, any market. Never purchase at a price of 0.8 or more.";
    expect(readings(I)).not.toContain("not understood");
    expect(verdict(I, bet(0.8))).toBe("BLOCK");
    expect(verdict(I, bet(0.79))).toBe("ALLOW");
  });

  it("a condition in its own clause governs the prohibition after the comma", () => {
    const I = "Polymarket bets, any market. If the price is 0.9 or higher, don't buy.";
    expect(verdict(I, bet(0.91))).toBe("BLOCK");
    expect(verdict(I, bet(0.5))).toBe("ALLOW");
  });

  it("the action's own amount is a threshold, not a condition: 'if a bet is over 30, ping me' is not read here", () => {
    const p = parseIntent("Polymarket bets. If a bet is over 30, ping me first.");
    expect(p.constraints.some((k) => k.when)).toBe(false);
  });
});

describe("a condition on who is paid", () => {
  const I = "Pay the addresses in context.payees in USDC, at most $500 a payment. Payees not in context.trusted: do not send them more than $40.";
  const A = "0x1111111111111111111111111111111111111111";
  const B = "0x2222222222222222222222222222222222222222";
  it("the smaller cap binds payees off the list only", () => {
    expect(readings(I)).not.toContain("not understood");
    expect(verdict(I, transfer({ to: A, usd: 300, amount: "300" }), { payees: [A, B], trusted: [A] })).toBe("ALLOW");
    expect(verdict(I, transfer({ to: B, usd: 300, amount: "300" }), { payees: [A, B], trusted: [A] })).toBe("BLOCK");
    expect(verdict(I, transfer({ to: B, usd: 30, amount: "30" }), { payees: [A, B], trusted: [A] })).toBe("ALLOW");
    // No list: whether the smaller cap binds cannot be told.
    expect(verdict(I, transfer({ to: A, usd: 300, amount: "300" }), { payees: [A, B] })).toBe("ESCALATE");
  });
});
