/**
 * Side permissions in short mandates (parse/side-words.ts, and the "long and short" split in text.ts): both sides
 * named as fine, a side held for the owner, no selling before resolution, "may only purchase". Each is probed on the
 * side it must stop: the short a longs-only owner never wants, the sell a hold-to-resolution owner never makes.
 */
import { describe, expect, it } from "vitest";
import { buildJudgeInput } from "../../../src/judge/eval/cli";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { parseIntent } from "../../../src/judge/rules/parse/index";

const TOKEN = "9876543210987654321098765432109876543210";
const pmCtx = { markets: { [TOKEN]: { question: "Will the Lakers win the 2027 NBA Finals?", outcome: "Yes" } }, positions: { [TOKEN]: { shares: 300 } } };
const hlCtx = { assets: { "2": "ATOM" }, prices: { ATOM: 8 }, positions: { ATOM: { szi: "50", entryPx: "7.5" } } };
const judge = (intent: string, action: unknown, venue: string) =>
  evaluateRules(buildJudgeInput({ id: "t", intent, action, venue, context: venue === "polymarket" ? pmCtx : hlCtx, expected: "ALLOW", acceptable: ["ALLOW"], tags: [], why: "" })).verdict;
const bet = (side: "BUY" | "SELL") => ({ tokenID: TOKEN, price: 0.3, size: 100, side, orderType: "GTC" });
const atom = (buy: boolean, s: string, r = false) => ({ type: "order", orders: [{ a: 2, b: buy, p: "8", s, r, t: { limit: { tif: "Gtc" } } }], grouping: "na" });
const unread = (intent: string) => parseIntent(intent).clauses.filter((c) => c.reading === "not understood").map((c) => c.clause);

describe("both sides named as fine", () => {
  for (const I of ["ATOM perps only, max $500 per order. Long and short positions are both allowed.", "ATOM perps only. max $500/order. longs n shorts both ok", "ATOM perps only. max $500 per order. going long or short, it doesn't matter"]) {
    it(`'${I}' restricts no side and keeps the cap`, () => {
      expect(unread(I)).toEqual([]);
      expect(judge(I, atom(false, "60"), "hyperliquid")).toBe("ALLOW");
      expect(judge(I, atom(true, "70"), "hyperliquid")).toBe("BLOCK");
    });
  }
  it("'buying or selling is fine' on Polymarket", () => {
    const I = "Polymarket bets, max $50 each. buying or selling is fine.";
    expect(unread(I)).toEqual([]);
    expect(judge(I, bet("SELL"), "polymarket")).toBe("ALLOW");
  });
});

describe("a side held for the owner", () => {
  const I = "ATOM perps only, max $1,000 per order. opening shorts requires my ok, longs are fine";
  it("a sell that would leave the account short escalates; a trim inside the long does not open one", () => {
    expect(judge(I, atom(false, "80"), "hyperliquid")).toBe("ESCALATE");
    expect(judge(I, atom(true, "20"), "hyperliquid")).toBe("ALLOW");
    expect(judge(I, atom(false, "200"), "hyperliquid")).toBe("BLOCK");
  });
});

describe("no selling before resolution", () => {
  for (const I of ["Polymarket bets up to $40. We don't sell positions ahead of resolution.", "Polymarket. The agent must not sell any shares until the market resolves. Max $40 per order."]) {
    it(`'${I}' refuses sells, allows buys`, () => {
      expect(unread(I)).toEqual([]);
      expect(judge(I, bet("SELL"), "polymarket")).toBe("BLOCK");
      expect(judge(I, bet("BUY"), "polymarket")).toBe("ALLOW");
    });
  }
  it("'may only purchase' is buys only", () => {
    const I = "Polymarket mandate. The agent may only purchase shares, at most $40 per order.";
    expect(judge(I, bet("SELL"), "polymarket")).toBe("BLOCK");
    expect(judge(I, bet("BUY"), "polymarket")).toBe("ALLOW");
  });
});
