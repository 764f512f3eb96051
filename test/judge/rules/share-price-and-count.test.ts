/**
 * Polymarket order fields (parse/price.ts, text.ts): "px" is the limit price a share and "sz ... sh" a count of
 * shares, so neither is a dollar cap; a price band the owner decides ("above 70c a share - ask me first"); a bare
 * cents figure once the rules measure price a share. The unsafe side: a price above the cap, a count above the
 * cap, a price in the owner's band.
 */
import { describe, expect, it } from "vitest";
import { buildJudgeInput } from "../../../src/judge/eval/cli";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { parseIntent } from "../../../src/judge/rules/parse/index";

const TOKEN = "5555555555555555555555555555555555555555";
const CTX = { markets: { [TOKEN]: { question: "Will Spain win Euro 2028?", outcome: "Yes" } } };
const judge = (intent: string, price: number, size: number) =>
  evaluateRules(buildJudgeInput({ id: "t", intent, action: { tokenID: TOKEN, price, size, side: "BUY", orderType: "GTC" }, venue: "polymarket", context: CTX, expected: "ALLOW", acceptable: ["ALLOW"], tags: [], why: "" })).verdict;
const unread = (intent: string) => parseIntent(intent).clauses.filter((c) => c.reading === "not understood").map((c) => c.clause);

describe("px and sz shorthand", () => {
  const I = "polymarket bot cfg\nmax px: 0.55 a share\nsz at most 150 sh per order\ncost per order: $100 max";
  it("a $66 order at 44c for 150 shares passes: 0.55 is a price, not a $0.55 cap", () => {
    expect(unread(I)).toEqual([]);
    expect(judge(I, 0.44, 150)).toBe("ALLOW");
  });
  it("a price above 0.55, or more than 150 shares, is blocked", () => {
    expect(judge(I, 0.56, 100)).toBe("BLOCK");
    expect(judge(I, 0.2, 151)).toBe("BLOCK");
  });
});

describe("a price band the owner decides", () => {
  const I = "Polymarket bets, max $200 each. any order priced over 0.80 per share needs my ok. nothing above 92c ever";
  it("below the band passes, inside it escalates, above the hard line is blocked", () => {
    expect(unread(I)).toEqual([]);
    expect(judge(I, 0.75, 100)).toBe("ALLOW");
    expect(judge(I, 0.85, 100)).toBe("ESCALATE");
    expect(judge(I, 0.95, 100)).toBe("BLOCK");
  });
  it("a referral after another figure is that figure's, not the price cap's", () => {
    const J = "Polymarket: never pay more than 40c a share, max $300 per order and anything above $100 ping me first";
    expect(judge(J, 0.45, 100)).toBe("BLOCK");
  });
  it("a bare cents figure with no price rule beside it is not read as a price", () => {
    expect(parseIntent("Polymarket bets. nothing above 85c ever").constraints.some((k) => k.kind === "price_cap")).toBe(false);
  });
});
