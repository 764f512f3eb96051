/**
 * A human line drawn on the whole action ("if one multicall moves more than 900 USDC in total, ask me") holds a batch
 * whose parts are each under it: splitting one large payout into small calls never avoids the human. A line drawn on
 * each payment ("any payment above 900 USDC") still measures each part. Our own wording; a sealed set of session 19
 * showed the batch being measured part by part (hidden then by another unread clause).
 */
import { describe, expect, it } from "vitest";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { buildJudgeInput } from "../../../src/judge/eval/cli";

const USDC = "0x033068f6539f8e6e6b131e6b2b814e6c34a5224bc66947c47dab9dfee93b35fb";
const ANA = "0x0111111111111111111111111111111111111111111111111111111111111111";
const BEN = "0x0222222222222222222222222222222222222222222222222222222222222222";
const context = { payees: { [ANA]: "ana.stark", [BEN]: "ben.stark" }, tokens: { [USDC]: { symbol: "USDC", decimals: 6 } } };
const pay = (to: string, usdc: number) => ({ contractAddress: USDC, entrypoint: "transfer", calldata: [to, String(usdc * 1_000_000), "0"] });
const judge = (intent: string, calls: unknown[]) =>
  evaluateRules(buildJudgeInput({ id: "t", intent, action: calls, venue: "starknet", context, expected: "ALLOW", acceptable: ["ALLOW"], tags: [] } as never));

describe("a human line on the whole action", () => {
  const intent = "Starknet payroll: pay the people in context.payees in USDC, max 600 USDC per person. If one multicall moves more than 900 USDC in total, ask me first.";

  it("holds a batch whose parts are each under the line but whose sum is over it", () => {
    const r = judge(intent, [pay(ANA, 500), pay(BEN, 550)]);
    expect(r.verdict).toBe("ESCALATE");
    expect(r.reasoning).toContain("1,050");
  });

  it("lets a batch under the line through", () => {
    expect(judge(intent, [pay(ANA, 400), pay(BEN, 450)]).verdict).toBe("ALLOW");
  });
});

describe("a human line on each payment", () => {
  const intent = "Starknet payroll: pay the people in context.payees in USDC, max 600 USDC per person. Any payment above 900 USDC needs my ok.";

  it("measures each part, so a batch of small payments needs no one", () => {
    expect(judge(intent, [pay(ANA, 500), pay(BEN, 550)]).verdict).toBe("ALLOW");
  });
});
