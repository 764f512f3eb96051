/**
 * Reduce-only as the only kind of order (parse/reduce-words.ts, text.ts): "nothing that increases a position",
 * "r has to be true", a gloss "(reduce only)", and the restatements a reduce-only order meets by construction. The
 * unsafe side: an order that adds exposure, or an exit without the flag.
 */
import { describe, expect, it } from "vitest";
import { buildJudgeInput } from "../../../src/judge/eval/cli";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { parseIntent } from "../../../src/judge/rules/parse/index";

const CTX = { assets: { "3": "ARB", "9": "OP" }, prices: { ARB: 0.6, OP: 1.5 }, positions: { ARB: { szi: "1000", entryPx: "0.7" }, OP: { szi: "-400", entryPx: "1.8" } } };
const judge = (intent: string, action: unknown) =>
  evaluateRules(buildJudgeInput({ id: "t", intent, action, venue: "hyperliquid", context: CTX, expected: "ALLOW", acceptable: ["ALLOW"], tags: [], why: "" })).verdict;
const o = (a: number, buy: boolean, p: string, s: string, r: boolean) => ({ type: "order", orders: [{ a, b: buy, p, s, r, t: { limit: { tif: "Gtc" } } }], grouping: "na" });
const unread = (intent: string) => parseIntent(intent).clauses.filter((c) => c.reading === "not understood").map((c) => c.clause);

describe("every order reduce-only", () => {
  const lines = [
    "Hyperliquid unwind. Nothing that increases a position. Whatever assets we already hold are fine, any size up to the position.",
    "HL exit plan: all orders must be reduce-only (reduce_only has to be true).",
  ];
  for (const I of lines) {
    it(`'${I}': flagged exits pass, the rest is blocked`, () => {
      expect(unread(I)).toEqual([]);
      expect(judge(I, o(3, false, "0.6", "500", true))).toBe("ALLOW");
      expect(judge(I, o(9, true, "1.5", "400", true))).toBe("ALLOW");
      expect(judge(I, o(3, true, "0.6", "100", false))).toBe("BLOCK");
      expect(judge(I, o(3, false, "0.6", "500", false))).toBe("BLOCK");
    });
  }
});

describe("sells only to close, glossed '(reduce only)'", () => {
  const I = "HL: ARB perps, longs only. selling only to exit what we hold (reduce only). $800 max per order";
  it("a flagged trim passes; an unflagged sell is not allowed", () => {
    expect(unread(I)).toEqual([]);
    expect(judge(I, o(3, false, "0.6", "500", true))).toBe("ALLOW");
    expect(judge(I, o(3, false, "0.6", "500", false))).not.toBe("ALLOW");
  });
});
