/**
 * A floor on the health factor of a lending position (parse/health.ts, checks/health.ts) and a limit that is a share
 * of a context figure named in words ("40% of the collateral value"): both computed from the context's own figures,
 * and held for a human when a figure is missing or two could be meant.
 */
import { describe, expect, it } from "vitest";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { facts, input } from "./helpers";

const aave = (actionType: string, usd: number, family = "position") =>
  facts({ venue: "aave", chain: "ethereum", chainId: 1, actionFamily: family as never, actionType, summary: `${actionType} ${usd} USDC`, assets: ["USDC"], notionalUsd: usd });
const judge = (intent: string, f: ReturnType<typeof facts>, ctx: Record<string, unknown>) => evaluateRules(input(intent, { type: "test" }, f, ctx)).verdict;
const position = { aave: { collateral_usd: 200_000, liq_threshold: 0.8, debt_usd: 50_000, health_factor: 3.2 } };

describe("a health-factor floor", () => {
  const intent = "Aave v3 on Ethereum: borrow USDC only, provided the health factor stays at least 1.5 after the borrow.";

  it("allows a borrow that leaves the factor above the floor and refuses one that takes it under", () => {
    // 3.2 x 50k / (50k + 40k) = 1.78; with 60k more: 3.2 x 50k / 110k = 1.45.
    expect(judge(intent, aave("borrow", 40_000), position)).toBe("ALLOW");
    expect(judge(intent, aave("borrow", 60_000), position)).toBe("BLOCK");
  });

  it("checks a withdrawal of collateral too, and never a repayment", () => {
    const w = "Aave v3 on Ethereum: supply, withdraw and borrow USDC, provided the health factor stays at least 1.5 after each withdrawal.";
    // (200k - 100k) x 0.8 / 50k = 1.6; (200k - 120k) x 0.8 / 50k = 1.28.
    expect(judge(w, aave("withdraw", 100_000, "vault"), position)).toBe("ALLOW");
    expect(judge(w, aave("withdraw", 120_000, "vault"), position)).toBe("BLOCK");
  });

  it("is never guessed without the position's figures", () => {
    expect(judge(intent, aave("borrow", 1_000), { aave: { debt_usd: 50_000 } })).toBe("ESCALATE");
  });

  it("reads the owners' other wordings", () => {
    for (const rule of ["Never let the health factor drop below 1.5.", "Keep HF >= 1.5 at all times.", "At least 1.5 health factor after borrowing."]) {
      const w = `Aave v3 on Ethereum: borrow USDC only. ${rule}`;
      expect(judge(w, aave("borrow", 40_000), position)).toBe("ALLOW");
      expect(judge(w, aave("borrow", 60_000), position)).toBe("BLOCK");
    }
  });

  it("a ratio is not money: it caps no amount", () => {
    expect(judge("Aave v3 on Ethereum: borrow USDC only. Health factor at least 1.5.", aave("borrow", 40_000), position)).toBe("ALLOW");
  });
});

describe("a share of a context figure named in words", () => {
  const intent = "Aave v3 on Ethereum: borrow USDC only. Total debt after the borrow at most 40% of the collateral value.";

  it("bounds the debt after the borrow by the collateral the context gives", () => {
    expect(judge(intent, aave("borrow", 25_000), position)).toBe("ALLOW"); // 75k of 200k
    expect(judge(intent, aave("borrow", 35_000), position)).toBe("BLOCK"); // 85k > 80k
  });

  it("two figures that could be the collateral, or none, and it is not computed", () => {
    const two = { aave: { collateral_usd: 200_000, debt_usd: 50_000 }, vault: { collateral_usd: 900_000 } };
    expect(judge(intent, aave("borrow", 10_000), two)).toBe("ESCALATE");
    expect(judge(intent, aave("borrow", 10_000), { aave: { debt_usd: 50_000 } })).toBe("ESCALATE");
  });

  it("two debt figures are not guessed between either", () => {
    const twoDebts = { aave: { collateral_usd: 200_000, debt_usd: 50_000 }, morpho: { debt_usd: 70_000 } };
    expect(judge(intent, aave("borrow", 10_000), twoDebts)).toBe("ESCALATE");
  });
});
