/**
 * How owners lay their rules out: numbered sections of a policy ("Article 3 (Limits)."), `snake_case` config keys
 * with a unit in the key, a line that only names the bot, a definition of notional, "the margin mode shall be",
 * "no triggers", a running total described as "sold so far today". Judged end to end on native Hyperliquid
 * payloads, each probed on the side it must stop.
 */
import { describe, expect, it } from "vitest";
import { buildJudgeInput } from "../../../src/judge/eval/cli";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { parseIntent } from "../../../src/judge/rules/parse/index";

const CTX = { assets: { "0": "BTC", "1": "ETH", "7": "ARB" }, prices: { BTC: 60000, ETH: 2000, ARB: 0.5 } };
const judge = (intent: string, action: unknown, context: Record<string, unknown> = CTX) =>
  evaluateRules(buildJudgeInput({ id: "t", intent, action, venue: "hyperliquid", context, expected: "ALLOW", acceptable: ["ALLOW"], tags: [], why: "" }));
const buy = (a: number, p: string, s: string, tif = "Gtc") => ({ type: "order", orders: [{ a, b: true, p, s, r: false, t: { limit: { tif } } }], grouping: "na" });
const lev = (asset: number, isCross: boolean, leverage: number) => ({ type: "updateLeverage", asset, isCross, leverage });
const unread = (intent: string) => parseIntent(intent).clauses.filter((c) => c.reading === "not understood").map((c) => c.clause);

describe("numbered sections of a policy", () => {
  const I =
    "Article 1 (Purpose). This document governs the trading agent.\nArticle 2. Only ETH and ARB perpetuals may be traded.\n" +
    "Article 3 (Size). No order may exceed USD 1,000 in notional.";
  it("a heading and its plain title are not rules", () => {
    expect(unread(I)).toEqual([]);
    expect(judge(I, buy(1, "2000", "0.4")).verdict).toBe("ALLOW");
  });
  it("the sections still bind", () => {
    expect(judge(I, buy(0, "60000", "0.01")).verdict).toBe("BLOCK");
    expect(judge(I, buy(1, "2000", "0.6")).verdict).toBe("BLOCK");
  });
  it("a title that is itself a rule is kept as one", () => {
    const T = "Article 1 (No BTC).\nArticle 2. Orders up to $5,000 are fine.";
    expect(judge(T, buy(0, "60000", "0.01")).verdict).toBe("BLOCK");
  });
});

describe("config lines", () => {
  const C = "bot_name: arb-runner-7\nallowed_markets: ETH, ARB\nmax_notional_per_order_usd: 1.5k\nmax_leverage: 4\nreduce_only_exits: required";
  it("snake_case keys read as words, the unit of a key goes onto its figure, a bare leverage figure is a multiple", () => {
    expect(unread(C)).toEqual([]);
    expect(judge(C, buy(7, "0.5", "2000")).verdict).toBe("ALLOW");
    expect(judge(C, lev(1, true, 4)).verdict).toBe("ALLOW");
  });
  it("and still limit", () => {
    expect(judge(C, buy(7, "0.5", "3100")).verdict).toBe("BLOCK");
    expect(judge(C, lev(1, true, 5)).verdict).toBe("BLOCK");
    expect(judge(C, buy(0, "60000", "0.001")).verdict).toBe("BLOCK");
  });
  it("a name line with a rule word in it is not a name", () => {
    expect(unread("bot: never-withdraw\nmax_leverage: 4").length + parseIntent("bot: never-withdraw").constraints.length).toBeGreaterThan(0);
  });
  it("required reduce-only exits: a sell closing a long without the flag is refused", () => {
    const ctx = { ...CTX, positions: { ETH: { szi: "1", entryPx: "1900" } } };
    const sell = { type: "order", orders: [{ a: 1, b: false, p: "2010", s: "0.5", r: false, t: { limit: { tif: "Gtc" } } }], grouping: "na" };
    expect(judge(C, sell, ctx).verdict).toBe("BLOCK");
  });
});

describe("definitions and spellings inside a rule", () => {
  it("'calculated as size times the limit price' defines notional; the cap still binds", () => {
    const I = "Only ETH perps. Each order's notional, calculated as size times the limit price, must stay at most $900.";
    expect(unread(I)).toEqual([]);
    expect(judge(I, buy(1, "2000", "0.45")).verdict).toBe("ALLOW");
    expect(judge(I, buy(1, "2000", "0.46")).verdict).toBe("BLOCK");
  });
  it("'the margin mode shall be cross' is a margin-mode rule", () => {
    const I = "ETH perps only; leverage for all markets must not exceed 3x and the margin mode shall be cross.";
    expect(unread(I)).toEqual([]);
    expect(judge(I, lev(1, true, 3)).verdict).toBe("ALLOW");
    expect(judge(I, lev(1, false, 2)).verdict).toBe("BLOCK");
    expect(judge(I, lev(1, true, 4)).verdict).toBe("BLOCK");
  });
  it("'no triggers' bans trigger orders", () => {
    const I = "ETH perps only. Limit orders only; no triggers.";
    const stop = { type: "order", orders: [{ a: 1, b: false, p: "1800", s: "0.1", r: true, t: { trigger: { isMarket: true, triggerPx: "1850", tpsl: "sl" } } }], grouping: "na" };
    expect(judge(I, stop).verdict).toBe("BLOCK");
    expect(judge(I, buy(1, "2000", "0.1")).verdict).toBe("ALLOW");
  });
  it("a running total described as 'bought so far today' belongs to the daily cap", () => {
    const I = "ETH perps only. daily cap: $3k (bought so far today: context.stats.bought_today_usd)";
    expect(unread(I)).toEqual([]);
    expect(judge(I, buy(1, "2000", "0.5"), { ...CTX, stats: { bought_today_usd: 1900 } }).verdict).toBe("ALLOW");
    expect(judge(I, buy(1, "2000", "0.6"), { ...CTX, stats: { bought_today_usd: 1900 } }).verdict).toBe("BLOCK");
    expect(judge(I, buy(1, "2000", "0.5"), CTX).verdict).toBe("ESCALATE");
  });
});
