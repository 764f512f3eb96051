/**
 * Sentences that look like rules but limit nothing: history and habit, a purpose, a section heading, a remark
 * about the document. They must neither escalate a clean action nor become limits; a rule written in the same
 * tense ("we have always capped ...", "historically never ...") must still be read or escalated.
 */
import { describe, expect, it } from "vitest";
import { parseIntent } from "../../../src/judge/rules/parse/index";
import { orderFacts, verdict } from "./helpers";

const readings = (intent: string) => parseIntent(intent).clauses.map((c) => c.reading);
const SOL = orderFacts({ asset: "SOL", price: 150, size: 4, notionalUsd: 600 });
const BIG_SOL = orderFacts({ asset: "SOL", price: 150, size: 20, notionalUsd: 3000 });

describe("history and habit", () => {
  const I =
    "Two years ago the fund was set up by three ex-bankers. Over the last six months we have mainly traded ETH, and last week the bot spent $12k on funding. " +
    "Our analysts typically size positions around $250. Rules: trade ETH or SOL perps on Hyperliquid, each order at most $2,000.";

  it("is background: it neither escalates nor limits", () => {
    expect(readings(I)).not.toContain("not understood");
    expect(verdict(I, SOL)).toBe("ALLOW");
  });

  it("the real rules still bind", () => {
    expect(verdict(I, BIG_SOL)).toBe("BLOCK");
    expect(verdict(I, orderFacts({ asset: "BTC", price: 90000, size: 0.001, notionalUsd: 90 }))).toBe("BLOCK");
  });

  it("a limit written as a habit is not dropped", () => {
    expect(readings("SOL perps on Hyperliquid. We usually cap each order at $500.")).not.toEqual(["constraint", "descriptive"]);
    expect(verdict("SOL perps on Hyperliquid. We usually cap each order at $500.", BIG_SOL)).not.toBe("ALLOW");
    expect(verdict("SOL perps on Hyperliquid. Historically we never traded above $1,000 per order.", BIG_SOL)).not.toBe("ALLOW");
  });
});

describe("purpose, headings and remarks about the document", () => {
  const I =
    "Overview. The bot trades SOL perps on Hyperliquid, so that the spot inventory stays hedged when prices swing.\n" +
    "Risk limits:\n- max $1,000 per order\n" +
    "The rest of this memo is background for the agent. It does not change the limits above.";

  it("a purpose clause names no market type and sets no condition", () => {
    expect(readings(I)).not.toContain("not understood");
    expect(verdict(I, SOL)).toBe("ALLOW");
    expect(verdict(I, BIG_SOL)).toBe("BLOCK");
  });

  it("a purpose that carries a limit is still read as one", () => {
    const P = "The bot trades SOL perps on Hyperliquid, so that no order is ever above $1,000.";
    expect(verdict(P, BIG_SOL)).not.toBe("ALLOW");
  });
});
