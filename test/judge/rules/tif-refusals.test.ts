/**
 * Time-in-force lists that name the refused kinds beside the allowed ones (parse/tif-polarity.ts). A refusal binds
 * only the types of its own stretch: the allowed GTC order passes (it had been blocked), the refused FOK / IOC order
 * is still blocked, and a type only a human may approve escalates.
 */
import { describe, expect, it } from "vitest";
import { buildJudgeInput } from "../../../src/judge/eval/cli";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { parseIntent } from "../../../src/judge/rules/parse/index";

const TOKEN = "1234567890123456789012345678901234567890";
const pmCtx = { markets: { [TOKEN]: { question: "Will it rain in Paris on May 1, 2027?", outcome: "Yes" } } };
const hlCtx = { assets: { "0": "BTC" }, prices: { BTC: 60000 } };
const judge = (intent: string, action: unknown, venue: string) =>
  evaluateRules(buildJudgeInput({ id: "t", intent, action, venue, context: venue === "polymarket" ? pmCtx : hlCtx, expected: "ALLOW", acceptable: ["ALLOW"], tags: [], why: "" })).verdict;
const limit = (orderType: string) => ({ tokenID: TOKEN, price: 0.4, size: 50, side: "BUY", orderType });
const marketBuy = (orderType: string) => ({ tokenID: TOKEN, amount: 20, side: "BUY", orderType });
const hl = (tif: string) => ({ type: "order", orders: [{ a: 0, b: true, p: "60000", s: "0.01", r: false, t: { limit: { tif } } }], grouping: "na" });
const unread = (intent: string) => parseIntent(intent).clauses.filter((c) => c.reading === "not understood").map((c) => c.clause);

describe("allowed and refused kinds in one line", () => {
  const lines = [
    "Polymarket agent. Permitted order types are GTC and GTD, while FOK and FAK orders are prohibited.",
    "polymarket agent\ntif: GTC, GTD  # FOK and FAK not allowed",
    "Polymarket agent: resting limit orders (GTC) only, none of the fill-or-kill stuff.",
  ];
  for (const I of lines) {
    it(`'${I.replace(/\n/g, " / ")}': GTC passes, FOK is blocked`, () => {
      expect(unread(I)).toEqual([]);
      expect(judge(I, limit("GTC"), "polymarket")).toBe("ALLOW");
      expect(judge(I, marketBuy("FOK"), "polymarket")).toBe("BLOCK");
    });
  }
  it("a list item before the refusal takes it: 'IOC, FOK: banned' refuses both", () => {
    const I = "BTC perps only. IOC, FOK banned. Max $1,000 per order.";
    expect(judge(I, hl("Ioc"), "hyperliquid")).toBe("BLOCK");
    expect(judge(I, hl("Gtc"), "hyperliquid")).toBe("ALLOW");
  });
  it("a refusal after a negated list: 'no IOC, FOK' refuses both, and GTC is free", () => {
    const I = "Polymarket agent. no FAK, FOK. max $50 per order";
    expect(judge(I, marketBuy("FOK"), "polymarket")).toBe("BLOCK");
    expect(judge(I, marketBuy("FAK"), "polymarket")).toBe("BLOCK");
    expect(judge(I, limit("GTC"), "polymarket")).toBe("ALLOW");
  });
  it("an allowed list still binds what it does not name", () => {
    const I = "Polymarket agent. Only GTC orders; FOK is forbidden.";
    expect(judge(I, limit("GTD"), "polymarket")).toBe("BLOCK");
  });
  it("one refusal over every type it names stays one", () => {
    const I = "BTC perps only. Market and IOC orders are forbidden.";
    expect(judge(I, hl("Ioc"), "hyperliquid")).toBe("BLOCK");
    expect(judge(I, hl("Alo"), "hyperliquid")).toBe("ALLOW");
  });
});

describe("a kind the owner wants to see first", () => {
  const I = "Polymarket agent. GTC is the default\nany FOK orders - check with me first\nmax $60 per order";
  it("a FOK escalates; GTC is allowed", () => {
    expect(judge(I, marketBuy("FOK"), "polymarket")).toBe("ESCALATE");
    expect(judge(I, limit("GTC"), "polymarket")).toBe("ALLOW");
  });
});
