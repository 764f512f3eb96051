/**
 * Leftover leverage / margin / side / budget shapes (parse/settings-words.ts, margin-words.ts AFTER_CAP,
 * side-words.ts HOLD_TO_RESOLUTION, loose-budgets.ts SLASHED, spelling.ts): a bare mode after the cap, a copula
 * before a bounded multiple, a frozen setting, the exits' flag as a key, a sell refusal followed by a plan to hold,
 * and a period glued to the figure with a slash. Our own wording; each with its unsafe side.
 */
import { describe, expect, it } from "vitest";
import { buildJudgeInput } from "../../../src/judge/eval/cli";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { parseIntent } from "../../../src/judge/rules/parse/index";
import { transfer, verdict } from "./helpers";

const HL = { assets: { "1": "ETH", "5": "SOL" }, prices: { ETH: 3000, SOL: 150 }, positions: { ETH: { szi: "2", entryPx: "2900" } } };
const judge = (intent: string, action: unknown, context: Record<string, unknown> = HL, venue = "hyperliquid") =>
  evaluateRules(buildJudgeInput({ id: "t", intent, action, venue, context, expected: "ALLOW", acceptable: ["ALLOW"], tags: [], why: "" })).verdict;
const unread = (intent: string) => parseIntent(intent).clauses.filter((c) => c.reading === "not understood").map((c) => c.clause);
const lev = (isCross: boolean, leverage: number) => ({ type: "updateLeverage", asset: 1, isCross, leverage });
const ord = (a: number, b: boolean, p: string, s: string, r = false) => ({ type: "order", orders: [{ a, b, p, s, r, t: { limit: { tif: "Gtc" } } }], grouping: "na" });

describe("a bare margin mode after the leverage figure", () => {
  for (const [I, want] of [
    ["ETH perps only. risk cfg: leverage at most 4x, isolated", false],
    ["ETH perps only. desk settings: lev 4x max, cross", true],
  ] as Array<[string, boolean]>) {
    it(`'${I}' requires ${want ? "cross" : "isolated"}`, () => {
      expect(unread(I)).toEqual([]);
      expect(judge(I, lev(want, 3))).toBe("ALLOW");
      expect(judge(I, lev(!want, 3))).toBe("BLOCK");
      expect(judge(I, lev(want, 5))).toBe("BLOCK");
    });
  }
  it("'cross or isolated fine' after the cap still requires nothing", () => {
    const I = "ETH perps only. leverage 4x, cross or isolated fine";
    expect(parseIntent(I).constraints.some((k) => k.kind === "margin_mode")).toBe(false);
  });
});

describe("a copula before a bounded multiple", () => {
  for (const I of ["ETH perps only. Leverage remains at 3x or lower, cross margin only", "ETH perps only. leverage must stay at 3x max. cross only"]) {
    it(`'${I}' caps leverage at 3x`, () => {
      expect(unread(I)).toEqual([]);
      expect(judge(I, lev(true, 3))).toBe("ALLOW");
      expect(judge(I, lev(true, 4))).toBe("BLOCK");
      expect(judge(I, lev(false, 2))).toBe("BLOCK");
    });
  }
  it("without a bound word ('stays at 5x') it is not made a cap", () => {
    expect(unread("ETH perps only. leverage stays at 5x")).not.toEqual([]);
  });
});

describe("a frozen leverage / margin setting", () => {
  for (const I of ["ETH perps only, max 1 ETH per order. The leverage and margin settings must not be modified.", "ETH perps only, max 1 ETH per order. the leverage setting is not to be touched"]) {
    it(`'${I}' refuses a leverage change and leaves orders free`, () => {
      expect(unread(I)).toEqual([]);
      expect(judge(I, ord(1, true, "3000", "0.5"))).toBe("ALLOW");
      expect(judge(I, lev(true, 2))).toBe("BLOCK");
    });
  }
  it("with margin named, a margin adjustment is refused too", () => {
    const I = "ETH perps only. leverage/margin config shall never be changed";
    expect(parseIntent(I).constraints).toContainEqual(expect.objectContaining({ kind: "forbid", activities: ["leverage", "margin"] }));
  });
});

describe("the exits' flag as a key", () => {
  for (const I of ["ETH perps only, max 1 ETH per order. exits: reduce-only", "ETH perps only, max 1 ETH per order. desk cfg: closing orders = reduce only"]) {
    it(`'${I}': a flagged exit passes, an unflagged one is blocked, entries are free`, () => {
      expect(unread(I)).toEqual([]);
      expect(judge(I, ord(1, false, "3000", "1", true))).toBe("ALLOW");
      expect(judge(I, ord(1, false, "3000", "1", false))).toBe("BLOCK");
      expect(judge(I, ord(1, true, "3000", "0.5", false))).toBe("ALLOW");
    });
  }
});

describe("a sell refusal followed by a plan to hold to resolution", () => {
  const tok = "7124119358243158902277263409876556342781287746151931557426437762313473926401";
  const ctx = { markets: { [tok]: { question: "Will it snow in Oslo on 1 May?", outcome: "Yes" } } };
  for (const I of ["Polymarket, max 30 USDC per order. do not sell anythng, we keep it until resolution", "Polymarket, max 30 USDC per order. never sell - we're holding till it resolves"]) {
    it(`'${I}': buys pass, sells are blocked`, () => {
      expect(unread(I)).toEqual([]);
      expect(judge(I, { tokenID: tok, price: 0.4, size: 20, side: "BUY", orderType: "GTC" }, ctx, "polymarket")).toBe("ALLOW");
      expect(judge(I, { tokenID: tok, price: 0.4, size: 20, side: "SELL", orderType: "GTC" }, ctx, "polymarket")).toBe("BLOCK");
    });
  }
  it("the plan alone is no permission to sell", () => {
    expect(parseIntent("Polymarket. we hold it until resolution").constraints.some((k) => k.kind === "permit")).toBe(false);
  });
});

describe("a period glued to the figure with a slash", () => {
  const TO = "0x1111111111111111111111111111111111111111";
  const pay = (usd: number) => transfer({ asset: "USDC", usd, amount: String(usd) });
  for (const [I, counter, limit] of [
    ["Pay the vendors in context.payees in USDC, max 2k per payment. $7k/day total (context.day_out_usd = used so far)", "day_out_usd", 7000],
    ["Pay the vendors in context.payees in USDC, max 3 USDC per payment. $10/day (context.paid_today_usd)", "paid_today_usd", 10],
  ] as Array<[string, string, number]>) {
    it(`'${I}': inside passes, past it is blocked, no counter is held`, () => {
      expect(unread(I)).toEqual([]);
      const small = Math.min(limit / 10, 2);
      expect(verdict(I, pay(small), { payees: [TO], [counter]: limit / 2 })).toBe("ALLOW");
      expect(verdict(I, pay(small), { payees: [TO], [counter]: limit - small / 2 })).toBe("BLOCK");
      expect(verdict(I, pay(small), { payees: [TO] })).toBe("ESCALATE");
    });
  }
  it("a bare '$5/day' with no running total named stays unread", () => {
    expect(unread("Pay the vendors in context.payees in USDC. $5/day")).not.toEqual([]);
  });
});

describe("a switch set to off after another sentence on the same line", () => {
  it("'ETH perps. leverage changes: no' refuses leverage changes (the switch's key starts after the sentence end)", () => {
    const I = "ETH perps, max 1 ETH per order. leverage changes: no";
    expect(unread(I)).toEqual([]);
    expect(judge(I, ord(1, true, "3000", "0.5"))).toBe("ALLOW");
    // Unsafe side: read from the line's start, ETH was refused and "leverage changes" became a permission.
    expect(judge(I, lev(true, 2))).toBe("BLOCK");
    expect(judge(I, { type: "updateLeverage", asset: 5, isCross: true, leverage: 2 })).toBe("BLOCK");
  });
});
