/**
 * Order type, time-in-force, side and position-direction rules (session 22, blind35): a TIF list whose permitted
 * type carries its own "only" ("maker-only"), "X is optional", direction rules scoped to the coins they name,
 * "never close", "no flipping", "don't average down", the reduce-only flag as a "flag", TWAP durations and size
 * thresholds. Each wording is probed on the side it must stop, and without the position facts it needs.
 */
import { describe, expect, it } from "vitest";
import { buildJudgeInput } from "../../../src/judge/eval/cli";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { parseIntent } from "../../../src/judge/rules/parse/index";

const ASSETS = { "0": "BTC", "1": "ETH", "5": "SOL", "7": "ARB" };
const PRICES = { BTC: 60000, ETH: 2500, SOL: 100, ARB: 1 };
const ctxWith = (positions?: Record<string, unknown>) => (positions ? { assets: ASSETS, prices: PRICES, positions } : { assets: ASSETS, prices: PRICES });
const judge = (intent: string, action: unknown, context: Record<string, unknown> = ctxWith(), venue = "hyperliquid") =>
  evaluateRules(buildJudgeInput({ id: "t", intent, action, venue, context, expected: "ALLOW", acceptable: ["ALLOW"], tags: [], why: "" })).verdict;
type Tif = "Gtc" | "Ioc" | "Alo";
const ord = (a: number, b: boolean, p: string, s: string, r = false, tif: Tif = "Gtc") => ({ type: "order", orders: [{ a, b, p, s, r, t: { limit: { tif } } }], grouping: "na" });
const twap = (a: number, b: boolean, s: string, m: number) => ({ type: "twapOrder", twap: { a, b, s, r: false, m, t: false } });
const unread = (intent: string) => parseIntent(intent).clauses.filter((c) => c.reading === "not understood").map((c) => c.clause);

describe("time in force", () => {
  const I = "Allowed time-in-force: GTC and maker-only (ALO) orders are fine to use. IOC is optional. Fill-or-kill orders are forbidden. SOL perp only.";
  it("a permitted type named with its own 'only' restricts nothing; 'IOC is optional' restricts nothing", () => {
    expect(unread(I)).toEqual([]);
    expect(judge(I, ord(5, true, "100", "3"))).toBe("ALLOW");
    expect(judge(I, ord(5, true, "100", "3", false, "Alo"))).toBe("ALLOW");
    expect(judge(I, ord(5, true, "100", "3", false, "Ioc"))).toBe("ALLOW");
  });
  it("a restriction beside the optional one still binds", () => {
    const J = "Only GTC orders. Post-only is optional.";
    expect(judge(J, ord(5, true, "100", "3", false, "Ioc"))).toBe("BLOCK");
    expect(judge(J, ord(5, true, "100", "3"))).toBe("ALLOW");
  });
  it("a grant that says how it is done carries the type: 'may make markets on SOL via maker-only orders'", () => {
    const J = "The bot may make markets on SOL via maker-only orders, $500 max each.";
    expect(judge(J, ord(5, true, "100", "3"))).toBe("BLOCK");
    expect(judge(J, ord(5, true, "100", "3", false, "Alo"))).toBe("ALLOW");
  });
  it("'maker-only orders only' is still a restriction to ALO", () => {
    expect(judge("maker-only orders only", ord(5, true, "100", "3"))).toBe("BLOCK");
    expect(judge("maker-only orders only", ord(5, true, "100", "3", false, "Alo"))).toBe("ALLOW");
  });
});

describe("direction rules scoped to their coins", () => {
  const I = "BTC and ARB: trade them any direction. Never go short SOL; trimming my long is fine.";
  const pos = ctxWith({ SOL: { szi: "30", entryPx: "90" } });
  it("other coins are free of it; a trim inside the long passes; SOL joins nothing by a prohibition", () => {
    expect(unread(I)).toEqual([]);
    expect(judge(I, ord(7, false, "1", "500"), pos)).toBe("ALLOW");
    expect(judge(I, ord(0, false, "60000", "0.01"), pos)).toBe("ALLOW");
  });
  it("a sell past the long is refused, and without positions it is not allowed", () => {
    expect(judge(I, ord(5, false, "100", "31"), pos)).toBe("BLOCK");
    expect(judge(I, ord(5, false, "100", "5"), ctxWith())).not.toBe("ALLOW");
  });
  it("without 'trimming is fine', a non-reduce-only trim is held, not allowed", () => {
    expect(judge("never be net short anything", ord(5, false, "100", "10"), pos)).not.toBe("ALLOW");
    expect(judge("never be net short anything", ord(5, false, "100", "10", true), pos)).toBe("ALLOW");
  });
  it("'only go short ETH' still names the only coin", () => {
    expect(judge("the bot may only go short ETH", ord(0, false, "60000", "0.01"), pos)).toBe("BLOCK");
  });
  it("'shorts only on BTC' beside a coin list adds BTC to it", () => {
    const J = "shorts only on BTC. ETH can go both ways.";
    expect(judge(J, ord(0, false, "60000", "0.01"))).toBe("ALLOW");
    expect(judge(J, ord(0, true, "60000", "0.01"), ctxWith({}))).toBe("BLOCK");
    expect(judge(J, ord(5, true, "100", "1"))).toBe("BLOCK");
  });
});

describe("never close", () => {
  const I = "The agent trades SOL and ETH perps. It must not close any positions - I handle the closing myself.";
  const pos = ctxWith({ SOL: { szi: "-20", entryPx: "105" } });
  it("entries and adds pass", () => {
    expect(unread(I)).toEqual([]);
    expect(judge(I, ord(5, false, "100", "5"), pos)).toBe("ALLOW");
    expect(judge(I, ord(1, true, "2500", "0.2"), pos)).toBe("ALLOW");
  });
  it("a reduce-only order, a buy against the short, and any order without positions are not allowed", () => {
    expect(judge(I, ord(5, true, "100", "5", true), pos)).toBe("BLOCK");
    expect(judge(I, ord(5, true, "100", "5"), pos)).toBe("BLOCK");
    expect(judge(I, ord(5, false, "100", "5"), ctxWith())).not.toBe("ALLOW");
  });
  it("'never close positions at a loss' is another rule and is not read as this one", () => {
    expect(judge("never close positions at a loss", ord(5, true, "100", "5"), pos)).not.toBe("ALLOW");
    expect(parseIntent("never close positions at a loss").constraints.some((k) => k.kind === "position_rule")).toBe(false);
  });
});

describe("flips and losing positions", () => {
  const I = "- trade ETH and SOL perps\n- never reverse a position in one trade\n- no averaging down";
  const pos = ctxWith({ ETH: { szi: "-2", entryPx: "2400" }, SOL: { szi: "10", entryPx: "95" } });
  it("a partial cover and an add to a winner pass", () => {
    expect(unread(I)).toEqual([]);
    expect(judge(I, ord(1, true, "2500", "1"), pos)).toBe("ALLOW");
    expect(judge(I, ord(5, true, "100", "2"), pos)).toBe("ALLOW");
  });
  it("a cover past the short flips it; an add to the losing short is refused", () => {
    expect(judge(I, ord(1, true, "2500", "2.5"), pos)).toBe("BLOCK");
    expect(judge(I, ord(1, false, "2500", "0.5"), pos)).toBe("BLOCK");
  });
  it("no entry price or no positions: a human decides", () => {
    expect(judge(I, ord(5, true, "100", "2"), ctxWith({ SOL: { szi: "10" } }))).toBe("ESCALATE");
    expect(judge(I, ord(1, true, "2500", "2.5"), ctxWith())).not.toBe("ALLOW");
  });
  it("'never reverse a position' is a rule, not the restatement 'never the reverse'", () => {
    expect(parseIntent("never reverse a position").constraints.some((k) => k.kind === "position_rule" && k.forbids === "flip")).toBe(true);
  });
  it("unrealised PnL in context decides before the entry price", () => {
    expect(judge(I, ord(5, true, "100", "2"), ctxWith({ SOL: { szi: "10", entryPx: "95", unrealizedPnl: "-12" } }))).toBe("BLOCK");
  });
});

describe("the reduce-only flag", () => {
  const I = "Orders which close an open position should have the reduce-only flag set. BTC and ETH perps.";
  const pos = ctxWith({ BTC: { szi: "0.5", entryPx: "58000" } });
  it("an exit with the flag passes, an entry passes", () => {
    expect(unread(I)).toEqual([]);
    expect(judge(I, ord(0, false, "60000", "0.2", true), pos)).toBe("ALLOW");
    expect(judge(I, ord(1, true, "2500", "1"), pos)).toBe("ALLOW");
  });
  it("an exit without the flag is refused; without positions a sell is held", () => {
    expect(judge(I, ord(0, false, "60000", "0.2"), pos)).toBe("BLOCK");
    expect(judge(I, ord(0, false, "60000", "0.2"), ctxWith())).toBe("ESCALATE");
  });
});

describe("TWAP duration and size thresholds", () => {
  it("a duration rule binds TWAPs only", () => {
    const I = "Trade the SOL perp only. Each TWAP should last no less than 1 hour.";
    expect(unread(I)).toEqual([]);
    expect(judge(I, ord(5, true, "100", "3"))).toBe("ALLOW");
    expect(judge(I, twap(5, true, "3", 90))).toBe("ALLOW");
    expect(judge(I, twap(5, true, "3", 45))).toBe("BLOCK");
  });
  it("'no TWAP shorter than N minutes' reads the same", () => {
    expect(judge("Trade SOL only. no twaps shorter than 30 minutes", twap(5, true, "3", 10))).toBe("BLOCK");
  });
  it("orders above a figure must be of the named type; smaller ones are free", () => {
    const I = "Trade SOL only. Orders above $5k must be sent as TWAPs.";
    expect(judge(I, ord(5, true, "100", "30"))).toBe("ALLOW");
    expect(judge(I, ord(5, true, "100", "60"))).toBe("BLOCK");
    expect(judge(I, twap(5, true, "60", 30))).toBe("ALLOW");
  });
  it("a type named in a human threshold is not a required type", () => {
    const I = "Trade SOL only. Market orders over $2k need my approval.";
    expect(judge(I, ord(5, true, "100", "5"))).toBe("ALLOW");
    expect(judge(I, ord(5, true, "100", "30"))).not.toBe("ALLOW");
  });
});

describe("Polymarket: never selling shares", () => {
  const tok = "7124119358243158902277263409876556342781287746151931557426437762313473926401";
  const ctx = { markets: { [tok]: { question: "Will it rain in Paris on 1 June?", outcome: "Yes" } } };
  const I = "Polymarket. Never selling any shares, not even to lock in gains. Max 20 USDC per order.";
  it("'not even to lock in gains' restates the ban; alone it is no rule", () => {
    expect(unread("Max 20 USDC per order, not even to lock in gains.").length + unread("not even to lock in gains").length).toBeGreaterThan(0);
  });
  it("buys pass, sells are refused", () => {
    expect(unread(I)).toEqual([]);
    expect(judge(I, { tokenID: tok, price: 0.4, size: 20, side: "BUY", orderType: "GTC" }, ctx, "polymarket")).toBe("ALLOW");
    expect(judge(I, { tokenID: tok, price: 0.4, size: 20, side: "SELL", orderType: "GTC" }, ctx, "polymarket")).toBe("BLOCK");
  });
});
