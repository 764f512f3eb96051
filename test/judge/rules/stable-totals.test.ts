/**
 * An adapter that gives only a dollar total (an Aave borrow: no per-item transfer) still lets a cap written in a
 * stablecoin be applied, because the engine counts a USD stablecoin as a dollar everywhere. A cap in a volatile
 * token is not converted from dollars (the unsafe side). Our own wording.
 */
import { describe, expect, it } from "vitest";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { facts, input } from "./helpers";

const borrow = (asset: string, usd: number) =>
  facts({ venue: "aave", actionFamily: "position", actionType: "borrow", chain: "base", summary: `Aave Borrow ${asset}`, assets: [asset], recipients: [], notionalUsd: usd });
const judge = (intent: string, f: ReturnType<typeof facts>) => evaluateRules(input(intent, { type: "test" }, f));

describe("a stablecoin threshold on an action the adapter gives only a dollar total for", () => {
  const intent = "The agent may borrow USDC on Aave. A borrow above 4,000 USDC needs my approval.";

  it("below the threshold: allowed", () => {
    expect(judge(intent, borrow("USDC", 2_500)).verdict).toBe("ALLOW");
  });

  it("above the threshold: held for a human", () => {
    const r = judge(intent, borrow("USDC", 4_500));
    expect(r.verdict).toBe("ESCALATE");
    expect(r.escalations.join(" ")).toContain("4,000");
  });

  it("a hard cap in the stablecoin blocks above it", () => {
    expect(judge("The agent may borrow USDC on Aave, at most 4,000 USDC per borrow.", borrow("USDC", 4_500)).verdict).toBe("BLOCK");
  });

  it("a cap in a volatile token is not guessed from dollars", () => {
    const r = judge("The agent may borrow WETH on Aave. A borrow above 2 WETH needs my approval.", borrow("WETH", 3_000));
    expect(r.verdict).toBe("ESCALATE");
    expect(r.escalations).toEqual([]);
  });
});
