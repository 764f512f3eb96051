/**
 * Chat and trading-desk phrasings: "my hl acct", "if u r exiting anything, check its reduce only so it cant turn
 * me long", "may only buy SOL (opening or adding to longs)", "sell out with reduce-only orders", "Trades worth 50k
 * or more are not allowed", "X is the purpose of this bot:". Judged end to end on native Hyperliquid payloads,
 * each probed on the side it must stop.
 */
import { describe, expect, it } from "vitest";
import { buildJudgeInput } from "../../../src/judge/eval/cli";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { parseIntent } from "../../../src/judge/rules/parse/index";

const CTX = { assets: { "0": "BTC", "5": "SOL" }, prices: { BTC: 60000, SOL: 100 }, positions: { SOL: { szi: "-40", entryPx: "110" } } };
const judge = (intent: string, action: unknown, context: Record<string, unknown> = CTX) =>
  evaluateRules(buildJudgeInput({ id: "t", intent, action, venue: "hyperliquid", context, expected: "ALLOW", acceptable: ["ALLOW"], tags: [], why: "" })).verdict;
const ord = (a: number, b: boolean, p: string, s: string, r = false) => ({ type: "order", orders: [{ a, b, p, s, r, t: { limit: { tif: "Gtc" } } }], grouping: "na" });
const unread = (intent: string) => parseIntent(intent).clauses.filter((c) => c.reading === "not understood").map((c) => c.clause);

describe("chat", () => {
  const I = "ok this is my main hl acct. shorts only pls. if u r exiting anything, check its reduce only so it cant turn me long";
  it("'hl acct' names the venue; 'if exiting, check it's reduce only' is the exits rule, its purpose is not another rule", () => {
    expect(unread(I)).toEqual([]);
    expect(judge(I, ord(5, true, "99", "10", true))).toBe("ALLOW");
  });
  it("an exit without the flag is refused, and a long is still refused", () => {
    expect(judge(I, ord(5, true, "99", "10"))).toBe("BLOCK");
    expect(judge(I, ord(5, true, "99", "60"))).toBe("BLOCK");
  });
});

describe("trading desk", () => {
  const I =
    "SOL longs are the purpose of this bot: it may only buy SOL (opening or adding to longs) and sell out with reduce-only orders. " +
    "Trades worth 50k or more are not allowed.";
  const ctx = { ...CTX, positions: { SOL: { szi: "40", entryPx: "90" } } };
  it("the gloss fixes the side, the exit phrase makes every sell reduce-only, 'X or more not allowed' is a cap below X", () => {
    expect(unread(I)).toEqual([]);
    expect(judge(I, ord(5, true, "100", "20"), ctx)).toBe("ALLOW");
    expect(judge(I, ord(5, false, "101", "20", true), ctx)).toBe("ALLOW");
  });
  it("and each still stops", () => {
    expect(judge(I, ord(5, false, "101", "20"), ctx)).toBe("BLOCK");
    expect(judge(I, ord(0, true, "60000", "0.1"), ctx)).toBe("BLOCK");
    expect(judge(I, ord(5, true, "100", "501"), ctx)).toBe("BLOCK");
    expect(judge(I, ord(5, true, "100", "500"), ctx)).not.toBe("ALLOW");
    expect(judge(I, ord(5, true, "100", "499.99"), ctx)).toBe("ALLOW");
  });
  it("a purpose sentence that carries a rule word is not dropped", () => {
    expect(unread("Never BTC is the point of this account: trade SOL.").length + parseIntent("Never BTC is the point of this account: trade SOL.").constraints.filter((k) => k.kind === "forbid" || k.kind === "deny").length).toBeGreaterThan(0);
  });
});
