/**
 * Owners' styles the vocabulary does not need to know: a formal "has no authority to", chat interjections ("lol",
 * "tbh"), a non-native "send the money to other address" with no list anywhere, and a role called "the delegate
 * agent" who "may take positions". Each probed on the side it must stop.
 */
import { describe, expect, it } from "vitest";
import { parseIntent } from "../../../src/judge/rules/parse/index";
import type { Facts } from "../../../src/venues/types";
import { facts, orderFacts, verdict } from "./helpers";

const readings = (intent: string) => parseIntent(intent).clauses.map((c) => c.reading);
const withdraw: Facts = facts({ actionFamily: "withdrawal", actionType: "withdraw3", transfers: [{ asset: "USDC", amount: "50", usd: 50, to: "0x2222222222222222222222222222222222222222", kind: "withdraw" }], summary: "withdraw" });
const ETH = orderFacts({ asset: "ETH", price: 3000, size: 0.5, notionalUsd: 1500 });

describe("owners' styles", () => {
  it("'is not empowered to move company funds' is a prohibition", () => {
    const I = "Hyperliquid ETH perps only. The operator is not empowered to withdraw or move company funds.";
    expect(readings(I)).not.toContain("not understood");
    expect(verdict(I, ETH)).toBe("ALLOW");
    expect(verdict(I, withdraw)).toBe("BLOCK");
  });

  it("chat interjections are not rules", () => {
    const I = "only ETH perps on hyperliquid tbh. no withdrawals lmao";
    expect(readings(I)).not.toContain("not understood");
    expect(verdict(I, withdraw)).toBe("BLOCK");
  });

  it("'to other address' with no list anywhere forbids the moves it names", () => {
    const I = "Trading ETH perp on Hyperliquid. It is prohibited to do withdraw or to transfer the funds to other address.";
    expect(readings(I)).not.toContain("not understood");
    expect(verdict(I, withdraw)).toBe("BLOCK");
    expect(verdict(I, ETH)).toBe("ALLOW");
  });

  it("'to other addresses' with a list restates the list", () => {
    const I = "Pay USDC to 0x1111111111111111111111111111111111111111. Never send to other addresses.";
    expect(parseIntent(I).constraints.some((k) => k.kind === "forbid")).toBe(false);
  });

  it("'the delegate agent may take positions in BTC and ETH' binds the list to orders, not to delegating", () => {
    const I = "Approved by the council. The delegate agent may take positions in the BTC and ETH perpetual markets on Hyperliquid.";
    expect(readings(I)).not.toContain("not understood");
    expect(verdict(I, ETH)).toBe("ALLOW");
    expect(verdict(I, orderFacts({ asset: "SOL", price: 150, size: 10, notionalUsd: 1500 }))).toBe("BLOCK");
  });
});
