/**
 * Swap mode: which amount of a swap is fixed (the input or the output). Phrasings of the rule in several styles;
 * each is probed on both modes and on a swap whose mode the adapter does not give.
 */
import { describe, expect, it } from "vitest";
import { parseIntent } from "../../../src/judge/rules/parse/index";
import type { Facts } from "../../../src/venues/types";
import { facts, verdict } from "./helpers";

const swap = (mode: string | null): Facts =>
  facts({
    venue: "jupiter",
    chain: "solana",
    actionFamily: "swap",
    actionType: "swap",
    swap: { sell: { asset: "USDC", amount: "100", usd: 100 }, buy: { asset: "SOL", amount: "0.7", minAmount: "0.69", usd: null }, slippageBps: 30, recipient: null },
    assets: ["USDC", "SOL"],
    notionalUsd: 100,
    details: mode ? { swapMode: mode } : {},
  });

const readings = (intent: string) => parseIntent(intent).clauses.map((c) => c.reading);

describe("swap mode rules", () => {
  const cases: Array<[string, "in" | "out"]> = [
    ["Swap USDC and SOL on Jupiter. ExactIn only.", "in"],
    ["Swap USDC and SOL on Jupiter; quotes must be exact-input.", "in"],
    ["Swap USDC and SOL on Jupiter. Never use ExactOut.", "in"],
    ["Swap USDC and SOL on Jupiter. no exact output swaps", "in"],
    ["Swap USDC and SOL on Jupiter. Exact-out mode only.", "out"],
  ];
  for (const [intent, mode] of cases)
    it(`"${intent}" requires exact-${mode}`, () => {
      expect(readings(intent)).not.toContain("not understood");
      expect(verdict(intent, swap(mode === "in" ? "ExactIn" : "ExactOut"))).toBe("ALLOW");
      expect(verdict(intent, swap(mode === "in" ? "ExactOut" : "ExactIn"))).toBe("BLOCK");
    });

  it("a swap whose mode is not known escalates under a mode rule", () => {
    expect(verdict("Swap USDC and SOL on Jupiter. ExactIn only.", swap(null))).toBe("ESCALATE");
  });

  it("'ExactOut is fine' permits without restricting", () => {
    const I = "Swap USDC and SOL on Jupiter. ExactOut is fine.";
    expect(verdict(I, swap("ExactIn"))).toBe("ALLOW");
    expect(verdict(I, swap("ExactOut"))).toBe("ALLOW");
  });

  it("the mode rule reads only its own stretch: a prohibition after a comma stays a prohibition", () => {
    const I = "Swap USDC and SOL on Jupiter. ExactIn only, no transfers.";
    const p = parseIntent(I);
    expect(p.constraints.some((k) => k.kind === "forbid" && k.activities.includes("transfer"))).toBe(true);
  });
});
