/**
 * Leverage caps that differ by asset in one rule ("max 3x on alts, max 8x on BTC and ETH"): each cap holds for
 * its own assets, "the rest" is the complement of the named ones, and without a "rest" group the named caps are
 * not read this way (nothing is left uncapped by accident). Hyperliquid native payloads; our own wording.
 */
import { describe, expect, it } from "vitest";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { buildJudgeInput } from "../../../src/judge/eval/cli";

const CTX = {
  assets: { "0": "BTC", "1": "ETH", "5": "SOL", "7": "DOGE" },
  prices: { BTC: 90_000, ETH: 3_000, SOL: 150, DOGE: 0.2 },
  account: { leverage: { SOL: { type: "cross", value: 5 }, BTC: { type: "cross", value: 7 } } },
};
const setLev = (asset: number, leverage: number) => ({ type: "updateLeverage", asset, isCross: true, leverage });
const buy = (a: number, p: string, s: string) => ({ type: "order", orders: [{ a, b: true, p, s, r: false, t: { limit: { tif: "Gtc" } } }], grouping: "na" });
const judge = (intent: string, action: unknown) =>
  evaluateRules(buildJudgeInput({ id: "t", intent, action, venue: "hyperliquid", context: CTX, expected: "ALLOW", acceptable: ["ALLOW"], tags: [] } as never)).verdict;

describe("leverage caps by asset group", () => {
  const INTENTS = [
    "Leverage limits: up to 10x for BTC and ETH, 4x for other coins.",
    "no more than 4x on the alts, max 10x on btc/eth",
    "Leverage caps: at most 10x on BTC or ETH and at most 4x on everything else.",
  ];

  it.each(INTENTS)("each asset is held to its own cap: %s", (intent) => {
    expect(judge(intent, setLev(0, 10))).toBe("ALLOW");
    expect(judge(intent, setLev(1, 9))).toBe("ALLOW");
    expect(judge(intent, setLev(0, 11))).toBe("BLOCK");
    expect(judge(intent, setLev(5, 4))).toBe("ALLOW");
    expect(judge(intent, setLev(5, 5))).toBe("BLOCK");
    expect(judge(intent, setLev(7, 10))).toBe("BLOCK");
  });

  it("an order on an asset already running above its group's cap is refused; one within it is not", () => {
    const intent = `Trade BTC, ETH and SOL perps. ${INTENTS[0]}`;
    expect(judge(intent, buy(5, "150", "2"))).toBe("BLOCK"); // SOL at 5x, the rest are capped at 4x
    expect(judge(intent, buy(0, "90000", "0.01"))).toBe("ALLOW"); // BTC at 7x, under 10x
  });

  it("named caps without a group for the rest leave an unnamed asset unapproved", () => {
    const intent = "Leverage: 10x on BTC and ETH, 4x on SOL.";
    expect(judge(intent, setLev(7, 20))).not.toBe("ALLOW");
  });
});

describe("lists with emphasis and no verb", () => {
  const intent = "Trade perps. any coin is OK EXCEPT the meme coins in context.banned. Max 10x on BTC and ETH, 4x on everything else.";
  const ctx = { ...CTX, banned: ["DOGE", "WIF"] };
  const judgeWith = (action: unknown) =>
    evaluateRules(buildJudgeInput({ id: "t", intent, action, venue: "hyperliquid", context: ctx, expected: "ALLOW", acceptable: ["ALLOW"], tags: [] } as never));

  it("a word in capitals for emphasis is not a token, and a verbless 'any coin except' list is of assets", () => {
    const r = judgeWith(buy(7, "0.2", "1000"));
    expect(r.verdict).toBe("BLOCK");
    expect(r.violations.join(" ")).toContain("DOGE");
    expect(JSON.stringify(r.constraints)).not.toContain('"EXCEPT"');
  });

  it("an asset off the list passes", () => {
    expect(judgeWith(buy(1, "3000", "0.1")).verdict).toBe("ALLOW");
  });
});
