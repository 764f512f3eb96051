/**
 * Limits written as settings (config-lines.ts): the unit or the period in the key, a two-column table, a
 * "counting ..." tail naming the running total, numbered policy lines, margin and swap mode keys. Each shape is
 * probed inside and outside its limit, and where the rule names a counter, with the counter missing.
 */
import { describe, expect, it } from "vitest";
import { parseIntent } from "../../../src/judge/rules/parse/index";
import type { Facts } from "../../../src/venues/types";
import { facts, orderFacts, transfer, verdict } from "./helpers";

const readings = (intent: string) => parseIntent(intent).clauses.map((c) => c.reading);
const usdc = (amount: number) => transfer({ asset: "USDC", amount: String(amount), usd: amount });
const perpOrder = (notional: number) => orderFacts({ asset: "ETH", size: notional / 2000, price: 2000, notionalUsd: notional });
const swapFacts = (sell: string, buy: string, sellAmount: number, sellUsd: number, slippageBps = 20): Facts =>
  facts({
    venue: "jupiter",
    chain: "solana",
    actionFamily: "swap",
    actionType: "swap",
    swap: { sell: { asset: sell, amount: String(sellAmount), usd: sellUsd }, buy: { asset: buy, amount: "1", minAmount: "1", usd: null }, slippageBps, recipient: null },
    assets: [sell, buy],
    notionalUsd: sellUsd,
    details: { swapMode: "ExactIn" },
  });

describe("the unit written in the key", () => {
  const hl = "markets: ETH perps\nmax order notional (usd): 2500\nlev max 3x";
  it("a dollar key makes its bare figure dollars, and still blocks above it", () => {
    expect(readings(hl)).not.toContain("not understood");
    expect(verdict(hl, perpOrder(2400))).toBe("ALLOW");
    expect(verdict(hl, perpOrder(2500))).toBe("ALLOW");
    expect(verdict(hl, perpOrder(2501))).toBe("BLOCK");
  });

  it("a bps key is a slippage ceiling in basis points", () => {
    const jup = "Jupiter, SOL and USDC only\nslippage max bps = 40";
    expect(verdict(jup, swapFacts("USDC", "SOL", 100, 100, 30))).toBe("ALLOW");
    expect(verdict(jup, swapFacts("USDC", "SOL", 100, 100, 41))).toBe("BLOCK");
  });

  it("a value that names its own unit is left alone", () => {
    // "(usd)" beside a figure already in SOL: no rewrite, the SOL figure stands.
    expect(parseIntent("max per send (usd): 2 SOL").constraints.some((k) => k.kind === "cap" && k.limit.unit === "USD")).toBe(false);
  });
});

describe("the period or scope as the key", () => {
  const weekly = "USDC transfers only.\nper payment: 300 USDC\nper week: 2k USDC in total, counting context.vendor_paid_week_usdc";
  it("reads a per-payment cap and a weekly budget with its named counter", () => {
    expect(readings(weekly)).not.toContain("not understood");
    expect(verdict(weekly, usdc(300), { vendor_paid_week_usdc: 1000 })).toBe("ALLOW");
    expect(verdict(weekly, usdc(301), { vendor_paid_week_usdc: 0 })).toBe("BLOCK");
    expect(verdict(weekly, usdc(250), { vendor_paid_week_usdc: 1800 })).toBe("BLOCK");
    expect(verdict(weekly, usdc(200), { vendor_paid_week_usdc: 1800 })).toBe("ALLOW");
  });

  it("a counter the rule names but the context lacks escalates (never allowed, never another counter)", () => {
    expect(verdict(weekly, usdc(100), {})).toBe("ESCALATE");
    expect(verdict(weekly, usdc(100), { spent_this_week_usdc: 0 })).toBe("ESCALATE");
  });

  it("a counting tail may describe the counter before naming it", () => {
    const intent = "USDC transfers only.\nper day: $500 total, counting what already left the wallet today (context.out_today_usd)";
    expect(readings(intent)).not.toContain("not understood");
    expect(verdict(intent, usdc(100), { out_today_usd: 400 })).toBe("ALLOW");
    expect(verdict(intent, usdc(101), { out_today_usd: 400 })).toBe("BLOCK");
    expect(verdict(intent, usdc(1), {})).toBe("ESCALATE");
  });

  it('"Monthly total $300" is a monthly budget', () => {
    const intent = "USDC transfers only. Monthly total $300 (month to date: context.invoices_month_usd).";
    expect(verdict(intent, usdc(50), { invoices_month_usd: 200 })).toBe("ALLOW");
    expect(verdict(intent, usdc(150), { invoices_month_usd: 200 })).toBe("BLOCK");
  });

  it('a tail that narrows what is counted ("counting only ...") is not taken as the counter', () => {
    const intent = "Pay vendors in USDC.\nper day: 500 USDC, counting only card refunds in context.refunds_today_usdc";
    expect(verdict(intent, usdc(100), { refunds_today_usdc: 0 })).not.toBe("ALLOW");
  });

  it('"up to and including N% of context.x" stays a share of that figure, not a running total', () => {
    const intent = "Trade ETH perps. Each order up to and including 5% of context.book.value_usd.";
    expect(verdict(intent, perpOrder(600), { book: { value_usd: 10_000 } })).toBe("BLOCK");
    expect(verdict(intent, perpOrder(500), { book: { value_usd: 10_000 } })).toBe("ALLOW");
  });
});

describe("tables, numbered lines, mode keys", () => {
  const table = "Escrow limits\n\n| setting | value |\n|---|---|\n| asset | USDC |\n| max per payment | 200 USDC |";
  it("a two-column table of settings reads as its rows", () => {
    expect(verdict(table, usdc(150))).toBe("ALLOW");
    expect(verdict(table, usdc(250))).toBe("BLOCK");
  });

  it("a wider table is not guessed at", () => {
    const wide = "| what | min | max |\n|---|---|---|\n| payment | 10 USDC | 200 USDC |";
    expect(verdict(wide, usdc(150))).not.toBe("ALLOW");
  });

  it('"§3 Daily budget: ..." is a numbered line, not a figure 3', () => {
    const intent = "§1 Transfers of USDC only.\n§3 Daily budget: $90 in total, counting context.paid_today_usd.";
    expect(readings(intent)).not.toContain("not understood");
    expect(verdict(intent, usdc(40), { paid_today_usd: 50 })).toBe("ALLOW");
    expect(verdict(intent, usdc(41), { paid_today_usd: 50 })).toBe("BLOCK");
  });

  it('"margin type = isolated" is the mode a leverage change must keep', () => {
    const intent = "BTC perps only.\nmargin type = isolated\nleverage max 4x";
    const lev = (isCross: boolean) => facts({ actionFamily: "margin", actionType: "updateLeverage", leverage: { asset: "BTC", value: 3, isCross }, assets: ["BTC"] });
    expect(verdict(intent, lev(false))).toBe("ALLOW");
    expect(verdict(intent, lev(true))).toBe("BLOCK");
  });

  it('"swap mode: exact output" binds the swap mode (it had been read as a label)', () => {
    const intent = "Jupiter, SOL and USDC only\nswap mode: exact output";
    expect(verdict(intent, swapFacts("USDC", "SOL", 100, 100))).toBe("BLOCK");
  });
});

describe("a swap into the stablecoin a cap is written in", () => {
  it("is sized by the value sold (it had passed USDC caps unmeasured)", () => {
    const intent = "Swap between SOL and USDC on Jupiter, max 1,000 USDC per swap.";
    expect(verdict(intent, swapFacts("SOL", "USDC", 5, 900))).toBe("ALLOW");
    expect(verdict(intent, swapFacts("SOL", "USDC", 8, 1440))).toBe("BLOCK");
  });
});
