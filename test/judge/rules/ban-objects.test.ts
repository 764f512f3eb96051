/**
 * What a prohibition reaches, and what an exception to it names: "save for" and "barring" are exceptions like
 * "except"; a list a prohibition names ("blocked: hosts in context.x") is a denylist, never the allowlist the same
 * words make in a permission; a ban on buying leaves selling alone; "sell only to get out of what I hold" is a
 * reduce-only rule for sells. Each reading is probed from the side it must still stop.
 */
import { describe, expect, it } from "vitest";
import { parseIntent } from "../../../src/judge/rules/parse/index";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { detectAction, resolveVenue } from "../../../src/venues/registry";
import { orderFacts, verdict } from "./helpers";

const readings = (intent: string) => parseIntent(intent).clauses.map((c) => c.reading);
const USDC_BASE = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const PAYTO = "0x5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e";
/** A real x402 v2 payment of $0.05 for a resource on `host`. */
function pay(host: string): string {
  return `https://${host}/v1/data`;
}
function x402(intent: string, host: string, context: Record<string, unknown>): string {
  const value = "50000";
  const action = {
    x402Version: 2,
    resource: { url: pay(host), description: "data", mimeType: "application/json" },
    accepted: { scheme: "exact", network: "eip155:8453", amount: value, asset: USDC_BASE, payTo: PAYTO, maxTimeoutSeconds: 60, extra: { name: "USD Coin", version: "2" } },
    payload: { signature: "0x" + "ab".repeat(65), authorization: { from: "0x4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d", to: PAYTO, value, validAfter: "1800000000", validBefore: "1800000060", nonce: "0x" + "cd".repeat(32) } },
  };
  const facts = detectAction(action, resolveVenue("x402"), context);
  return evaluateRules({ intent, action, facts, context, reference: null, note: null, preset: "generic" }).verdict;
}

describe("exceptions and deny lists", () => {
  it("'any coin, save for those in context.no_go' denies the list and allows the rest", () => {
    const I = "The bot may trade any Hyperliquid perp, save for the coins in context.no_go.";
    const ctx = { no_go: ["PEPE", "WIF"] };
    expect(verdict(I, orderFacts({ asset: "ETH" }), ctx)).toBe("ALLOW");
    expect(verdict(I, orderFacts({ asset: "WIF" }), ctx)).toBe("BLOCK");
  });

  it("'barring' reads as an exception too", () => {
    const I = "Trade any perp on Hyperliquid, barring the coins in context.banned_coins.";
    expect(verdict(I, orderFacts({ asset: "PEPE" }), { banned_coins: ["PEPE"] })).toBe("BLOCK");
    expect(verdict(I, orderFacts({ asset: "BTC" }), { banned_coins: ["PEPE"] })).toBe("ALLOW");
  });

  it("'blocked: sites in context.blocklist' is a denylist of hosts", () => {
    const I = "Pay for API calls with x402 in USDC on Base, up to $0.25 a call.\nblocked: sites in context.blocklist";
    const ctx = { blocklist: ["spam.example"] };
    expect(readings(I)).not.toContain("not understood");
    expect(x402(I, "good.example", ctx)).toBe("ALLOW");
    expect(x402(I, "spam.example", ctx)).toBe("BLOCK");
  });

  it("'never pay the hosts in context.x' forbids those hosts, not every payment", () => {
    const I = "Pay for API calls with x402 in USDC on Base, up to $0.25 a call. Never pay the hosts in context.denied_hosts.";
    const ctx = { denied_hosts: ["spam.example"] };
    expect(x402(I, "good.example", ctx)).toBe("ALLOW");
    expect(x402(I, "spam.example", ctx)).toBe("BLOCK");
  });
});

describe("a ban on one side, and sells only to exit", () => {
  it("'never buy shares priced above 0.9' does not stop a sell at 0.95", () => {
    const I = "Polymarket bets, any market. Never buy shares priced above 0.9.";
    const o = (side: "buy" | "sell", price: number) => orderFacts({ asset: "TOKEN", market: "prediction", side, price, size: 10, notionalUsd: price * 10 }, { venue: "polymarket", chain: "polygon" });
    expect(verdict(I, o("sell", 0.95))).toBe("ALLOW");
    expect(verdict(I, o("buy", 0.95))).toBe("BLOCK");
  });

  it("'you can sell, but only to close what I already own - flag them reduce only'", () => {
    const I = "HL perps, longs only. you can sell, but only to close what i already own, and flag them reduce only.";
    expect(readings(I)).not.toContain("not understood");
    const ctx = { positions: { SOL: { szi: "10" } } };
    expect(verdict(I, orderFacts({ asset: "SOL", side: "sell", reduceOnly: true }), ctx)).toBe("ALLOW");
    // Unsafe side: a plain sell could open a short.
    expect(verdict(I, orderFacts({ asset: "ETH", side: "sell", reduceOnly: false }), ctx)).toBe("BLOCK");
  });
});
