/**
 * Prediction-market phrasings: a ceiling on the price of one share (not on the order's cost), market categories
 * joined by "+", a chat "only" that narrows words nobody read, a human threshold said as "ping me b4 u send it",
 * and "don't sell without asking me" (sells go to the owner; they are not banned). Each is probed on the side it
 * must stop.
 */
import { describe, expect, it } from "vitest";
import { parseIntent } from "../../../src/judge/rules/parse/index";
import type { Facts } from "../../../src/venues/types";
import { orderFacts, verdict } from "./helpers";

const readings = (intent: string) => parseIntent(intent).clauses.map((c) => c.reading);
/** A Polymarket order of `shares` at `price` on the market asking `q`. */
const bet = (price: number | null, shares: number, side: "buy" | "sell" = "buy", q = "Will Arsenal win the 2026 Premier League?", orderType: "limit" | "market" = "limit"): Facts =>
  orderFacts(
    { asset: "Yes", market: "prediction", side, size: shares, price, notionalUsd: price === null ? 40 : price * shares, orderType, tif: orderType === "market" ? "FOK" : "GTC", marketLabel: q, tokenId: "77" },
    { venue: "polymarket", chain: "polygon" },
  );

describe("a ceiling on the price of one share", () => {
  it("'don't ever pay over 30 cents per share' binds the limit price, not the cost", () => {
    const I = "Polymarket: don't ever pay over 30 cents per share. Max $400 per order.";
    expect(readings(I)).not.toContain("not understood");
    expect(parseIntent(I).constraints.some((k) => k.kind === "price_cap" && k.max === 0.3)).toBe(true);
    // 1,000 shares at 25c cost $250: far above "30 cents" as money, and still fine.
    expect(verdict(I, bet(0.25, 1000))).toBe("ALLOW");
    expect(verdict(I, bet(0.3, 100))).toBe("ALLOW");
    expect(verdict(I, bet(0.31, 100))).toBe("BLOCK");
  });

  it("formal and config spellings: 'the per-share price must not exceed USD 0.72', 'max_price_per_share: 0.2'", () => {
    const formal = "Prediction market mandate. The per-share price must not exceed USD 0.72. Each order shall cost at most USD 90.";
    expect(readings(formal)).not.toContain("not understood");
    expect(verdict(formal, bet(0.72, 100))).toBe("ALLOW");
    expect(verdict(formal, bet(0.8, 100))).toBe("BLOCK");
    const config = "venue: polymarket\nmax_price_per_share: 0.2\nmax_order_usd: 50";
    expect(readings(config)).not.toContain("not understood");
    expect(verdict(config, bet(0.19, 200))).toBe("ALLOW");
    expect(verdict(config, bet(0.21, 200))).toBe("BLOCK");
  });

  it("a market order with no limit price cannot be held to a share-price ceiling", () => {
    const I = "Polymarket bets: never pay more than 55c a share.";
    expect(verdict(I, bet(null, 0, "buy", undefined, "market"))).toBe("ESCALATE");
  });

  it("a price said without a ceiling word ('price: 0.4') is not read as a limit", () => {
    expect(parseIntent("Polymarket bets. price: 0.4").constraints.some((k) => k.kind === "price_cap")).toBe(false);
  });

  it("'pay' binds buys: a sell at a higher price is not a purchase", () => {
    const I = "Polymarket: never pay more than 40c a share.";
    expect(verdict(I, bet(0.6, 100, "sell"))).toBe("ALLOW");
    expect(verdict(I, bet(0.6, 100, "buy"))).toBe("BLOCK");
  });
});

describe("categories of markets and chat shorthand", () => {
  it("'im only into the premier league + wimbledon markets' is a list of two categories", () => {
    const I = "polymarket rules: im only into the premier league + wimbledon markets. max $100 per bet";
    expect(readings(I)).not.toContain("not understood");
    expect(verdict(I, bet(0.4, 100, "buy", "Will Arsenal win the 2026 Premier League?"))).toBe("ALLOW");
    expect(verdict(I, bet(0.4, 100, "buy", "Will Sinner win Wimbledon 2026?"))).toBe("ALLOW");
    expect(verdict(I, bet(0.4, 100, "buy", "Will the Fed cut rates in July 2026?"))).not.toBe("ALLOW");
  });

  it("an 'only' whose object nobody read leaves the clause not understood", () => {
    const I = "polymarket bot rules: we're only into those weird niche ones tbh. max $100 per bet";
    expect(readings(I)).toContain("not understood");
    expect(verdict(I, bet(0.4, 100))).not.toBe("ALLOW");
  });

  it("'anything above $300 ping me b4 u send it' is a human threshold, not a permission to send money", () => {
    const I = "polymarket bets, max $600 per order and anything above $300 ping me b4 u send it";
    expect(readings(I)).not.toContain("not understood");
    const p = parseIntent(I);
    expect(p.constraints.some((k) => k.kind === "permit" && k.activities.includes("transfer"))).toBe(false);
    expect(verdict(I, bet(0.5, 600))).toBe("ALLOW");
    expect(verdict(I, bet(0.5, 602))).toBe("ESCALATE");
    expect(verdict(I, bet(0.5, 1300))).toBe("BLOCK");
  });

  it("'dont sell nothing w/o checkin with me' sends sells to the owner and leaves buys alone", () => {
    const I = "polymarket bets up to $200 each. dont sell anything w/o checkin with me first";
    expect(readings(I)).not.toContain("not understood");
    expect(verdict(I, bet(0.5, 100, "sell"))).toBe("ESCALATE");
    expect(verdict(I, bet(0.5, 100, "buy"))).toBe("ALLOW");
    // A plain ban stays a ban.
    expect(verdict("polymarket bets up to $200 each. never sell.", bet(0.5, 100, "sell"))).toBe("BLOCK");
  });
});

describe("config lines with underscored keys", () => {
  it("'max_bet_usd: 40' is a per-order cap, not a label that swallows the figure", () => {
    const I = "venue: polymarket\nmax_bet_usd: 40\nmax_daily_usd: 90 (spent so far: context.today_spent)";
    expect(readings(I)).not.toContain("not understood");
    expect(verdict(I, bet(0.4, 100), { today_spent: 10 })).toBe("ALLOW");
    expect(verdict(I, bet(0.4, 110), { today_spent: 10 })).toBe("BLOCK");
    expect(verdict(I, bet(0.4, 100), { today_spent: 60 })).toBe("BLOCK");
  });

  it("'order_types: GTD' lists the allowed time-in-force; another one is refused", () => {
    const I = "venue: polymarket\norder_types: GTD\nmax_bet_usd: 40";
    expect(readings(I)).not.toContain("not understood");
    const gtd = orderFacts({ asset: "Yes", market: "prediction", size: 50, price: 0.4, notionalUsd: 20, tif: "GTD", marketLabel: "q", tokenId: "1" }, { venue: "polymarket", chain: "polygon" });
    const gtc = orderFacts({ asset: "Yes", market: "prediction", size: 50, price: 0.4, notionalUsd: 20, tif: "GTC", marketLabel: "q", tokenId: "1" }, { venue: "polymarket", chain: "polygon" });
    expect(verdict(I, gtd)).toBe("ALLOW");
    expect(verdict(I, gtc)).toBe("BLOCK");
  });

  it("'usdc on base only obv': chat filler after 'only' does not hide the rule", () => {
    expect(readings("x402 api calls. usdc on base only obv")).not.toContain("not understood");
  });
});
