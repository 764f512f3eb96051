/**
 * A rule in the owner's own voice ("we stick to ...", "we keep ... under ...") is a rule, not background: only
 * statements with no limiting word ("we rebalance on Mondays") are read past. Found while testing the list
 * envelope: "We stick to BTC and SOL perps" was swallowed whole and let an ETH order through. Our own wording.
 */
import { describe, expect, it } from "vitest";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { input, orderFacts } from "./helpers";

const order = (asset: string, notionalUsd: number) => orderFacts({ asset, side: "buy", size: 1, price: notionalUsd, notionalUsd });
const judge = (intent: string, f: ReturnType<typeof order>) => evaluateRules(input(intent, { type: "test" }, f)).verdict;

describe("rules in the owner's voice", () => {
  it("'we stick to' lists the assets: one on the list passes, one off it does not", () => {
    const intent = "Max $1,000 per order. We stick to BTC and SOL perps on hyperliquid.";
    expect(judge(intent, order("SOL", 150))).toBe("ALLOW");
    expect(judge(intent, order("ETH", 300))).not.toBe("ALLOW");
  });

  it.each([
    ["we avoid", "Max $1,000 per order. We avoid DOGE and PEPE entirely.", order("DOGE", 100)],
    ["we keep ... under", "We keep every order under $500.", order("ETH", 800)],
    ["we stay within", "Max $1,000 per order. We stay within BTC.", order("ETH", 300)],
  ])("'%s' is never read past", (_w, intent, f) => {
    expect(judge(intent, f)).not.toBe("ALLOW");
  });

  it("the control: a statement with no limiting word is background", () => {
    expect(judge("Max $1,000 per order. We rebalance on Mondays.", order("ETH", 300))).toBe("ALLOW");
  });
});
