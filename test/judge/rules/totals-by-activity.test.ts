/**
 * A running total grows only by the activity it counts: moving tokens into staking does not delegate them, and
 * supplying collateral or repaying never raises a debt. Delegating, borrowing and withdrawing collateral are
 * still held to the cap (the unsafe side). Our own wording.
 */
import { describe, expect, it } from "vitest";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { buildJudgeInput } from "../../../src/judge/eval/cli";
import { facts, input } from "./helpers";

const hl = (intent: string, action: unknown, context: Record<string, unknown>) =>
  evaluateRules(buildJudgeInput({ id: "t", intent, action, venue: "hyperliquid", context, expected: "ALLOW", acceptable: ["ALLOW"], tags: [] } as never));

describe("a delegated total", () => {
  const intent = "all this bot does is HYPE staking. it may move HYPE from spot into staking and delegate to the validators in context.validators. keep the total delegated at or under 3k HYPE.";
  const VAL = "0x1234567890abcdef1234567890abcdef12345678";
  const ctx = { staking: { delegated_hype: 2_800, undelegated_staking_balance_hype: 100 }, validators: [VAL] };

  it("is not raised by moving spot HYPE into staking", () => {
    expect(hl(intent, { type: "cDeposit", wei: 40_000_000_000, nonce: 1 }, ctx).verdict).toBe("ALLOW");
  });

  it("is raised by delegating: past the total it is refused", () => {
    const r = hl(intent, { type: "tokenDelegate", validator: VAL, isUndelegate: false, wei: 40_000_000_000, nonce: 2 }, ctx);
    expect(r.verdict).toBe("BLOCK");
    expect(r.violations.join(" ")).toContain("3,000");
  });
});

describe("a debt cap", () => {
  const intent = "aave v3 on base. ok to supply USDC, repay debt and borrow USDC; the total debt after a borrow must stay at or below $10,000 (current debt is context.aave.debt_usd).";
  const ctx = { aave: { debt_usd: 9_500 } };
  const aave = (actionFamily: string, actionType: string, usd: number) =>
    facts({ venue: "aave", chain: "base", chainId: 8453, actionFamily: actionFamily as never, actionType, summary: `${actionType} ${usd} USDC`, assets: ["USDC"], notionalUsd: usd });
  const judge = (f: ReturnType<typeof facts>) => evaluateRules(input(intent, { type: "test" }, f, ctx));

  it("is not raised by supplying or repaying", () => {
    expect(judge(aave("vault", "supply", 2_000)).violations).toEqual([]);
    expect(judge(aave("position", "repay", 2_000)).violations).toEqual([]);
  });

  it("is raised by borrowing: past the cap it is refused", () => {
    expect(judge(aave("position", "borrow", 2_000)).verdict).toBe("BLOCK");
  });
});
