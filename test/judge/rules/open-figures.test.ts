/**
 * Figures whose meaning the owner left open (blind33): a cap or human line with no unit ("no single order bigger than
 * 250", "if one is above 20 check with me first"), where dollars, the coin's units or a prediction market's shares
 * are all plausible, and a European dot figure ("2.500 USDC": 2.5 or 2,500). Every reading is kept and the action is
 * decided only where they agree: inside all of them it passes, over all of them it is blocked, and in between it is
 * never allowed. A human line any reading reaches holds the action.
 */
import { describe, expect, it } from "vitest";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { detectAction, resolveVenue } from "../../../src/venues/registry";
import { transfer, verdict } from "./helpers";

function judge(intent: string, action: Record<string, unknown>, venue: string, context: Record<string, unknown> = {}): { verdict: string; reasoning: string } {
  const facts = detectAction(action, resolveVenue(venue), context);
  const r = evaluateRules({ intent, action, facts, context, reference: null, note: null, preset: "generic" });
  return { verdict: r.verdict, reasoning: r.reasoning };
}
const hlCtx = { assets: { "5": "SOL", "6": "AVAX" }, prices: { SOL: 150, AVAX: 25 } };
const buy = (a: number, p: string, s: string) => ({ type: "order", orders: [{ a, b: true, p, s, r: false, t: { limit: { tif: "Gtc" } } }], grouping: "na" });
const hl = (intent: string, a: number, p: string, s: string) => judge(intent, buy(a, p, s), "hyperliquid", hlCtx);
const TOKEN = "71321045679252212594626385532706912750332728571942532289631379312455583992563";
const pmCtx = { markets: { [TOKEN]: { question: "Will the ECB cut rates in December 2026?", outcome: "Yes" } } };
const bet = (intent: string, price: number, size: number) => judge(intent, { tokenID: TOKEN, price, size, side: "BUY", orderType: "GTC" }, "polymarket", pmCtx);

describe("a cap with no unit on a perp order: dollars of notional or coins", () => {
  const I = "Perps on AVAX only. No single order bigger than 250.";
  it("inside both readings it passes", () => {
    expect(hl(I, 6, "25", "4").verdict).toBe("ALLOW"); // $100, 4 AVAX
  });
  it("unsafe side: over $250 but under 250 AVAX is never allowed, and the reason names both readings", () => {
    const r = hl(I, 6, "25", "20"); // $500, 20 AVAX
    expect(r.verdict).toBe("ESCALATE");
    expect(r.reasoning).toMatch(/\$250 or 250 AVAX/);
  });
  it("over both readings it is blocked, quoting the rule", () => {
    const r = hl(I, 6, "25", "300");
    expect(r.verdict).toBe("BLOCK");
    expect(r.reasoning).toContain("No single order bigger than 250");
  });
  it("the figure before its cap word is read the same way", () => {
    expect(hl("AVAX perps only. 250 or below per order.", 6, "25", "4").verdict).toBe("ALLOW");
    expect(hl("AVAX perps only. 250 or below per order.", 6, "25", "20").verdict).toBe("ESCALATE");
  });
  it("unsafe side: the one coin a trading clause names is not taken as the figure's unit", () => {
    // "40 SOL" would let a $1,500 order through; "$40" forbids it.
    expect(hl("SOL perps only, orders up to 40.", 5, "150", "10").verdict).not.toBe("ALLOW");
    expect(hl("SOL perps only, orders up to 40.", 5, "150", "0.2").verdict).toBe("ALLOW");
  });
});

describe("a human line with no unit", () => {
  const I = "AVAX perps only. Orders up to $5,000 notional; if one is above 20 check with me first.";
  it("below every reading it passes", () => {
    expect(hl(I, 6, "25", "0.5").verdict).toBe("ALLOW"); // $12.50
  });
  it("unsafe side: a reading that reaches the line holds the action for the human", () => {
    expect(hl(I, 6, "25", "1").verdict).toBe("ESCALATE"); // $25 > 20 dollars, 1 AVAX < 20
    expect(hl(I, 6, "25", "30").verdict).toBe("ESCALATE"); // both readings
  });
  it("the hard cap beside it still blocks", () => {
    expect(hl(I, 6, "25", "240").verdict).toBe("BLOCK"); // $6,000
  });
});

describe("a cap with no unit on a prediction-market bet: dollars or shares", () => {
  const I = "Polymarket account. Not more than 150 on any one bet.";
  it("inside both readings it passes", () => {
    expect(bet(I, 0.5, 100).verdict).toBe("ALLOW"); // $50, 100 shares
  });
  it("unsafe side: under $150 but over 150 shares is not allowed", () => {
    expect(bet(I, 0.5, 200).verdict).toBe("ESCALATE"); // $100, 200 shares
  });
  it("over both readings it is blocked", () => {
    expect(bet(I, 0.6, 400).verdict).toBe("BLOCK"); // $240
  });
});

describe("where the readings coincide the figure decides", () => {
  const ctx = { payees: ["0x1111111111111111111111111111111111111111"] };
  const I = "USDC payouts to context.payees, at most 900 each.";
  it("a stablecoin is dollars and its own units alike", () => {
    expect(verdict(I, transfer({ asset: "USDC", amount: "850", usd: 850 }), ctx)).toBe("ALLOW");
    expect(verdict(I, transfer({ asset: "USDC", amount: "950", usd: 950 }), ctx)).toBe("BLOCK");
  });
  it("a human line on a stablecoin payment", () => {
    const L = "USDC payouts to context.payees. Anything above 1,000 ping me first.";
    expect(verdict(L, transfer({ asset: "USDC", amount: "800", usd: 800 }), ctx)).toBe("ALLOW");
    expect(verdict(L, transfer({ asset: "USDC", amount: "1200", usd: 1200 }), ctx)).toBe("ESCALATE");
  });
});

describe("a European dot figure with its unit: 2.5 or 2,500", () => {
  const ctx = { payees: ["0x1111111111111111111111111111111111111111"] };
  const I = "Pay the people in context.payees in USDC. Payments may not exceed 2.500 USDC each.";
  it("under both readings it passes", () => {
    expect(verdict(I, transfer({ asset: "USDC", amount: "2", usd: 2 }), ctx)).toBe("ALLOW");
  });
  it("unsafe side: between the readings it is never allowed", () => {
    expect(verdict(I, transfer({ asset: "USDC", amount: "2000", usd: 2000 }), ctx)).toBe("ESCALATE");
  });
  it("over both readings it is blocked", () => {
    expect(verdict(I, transfer({ asset: "USDC", amount: "3000", usd: 3000 }), ctx)).toBe("BLOCK");
  });
  it("a decimal comma elsewhere settles it as thousands", () => {
    const E = "Pay the people in context.payees in USDC. Payments may not exceed 2.500 USDC each, and 20.000,00 USDC per month in total (context.paid_month_usdc).";
    expect(verdict(E, transfer({ asset: "USDC", amount: "2000", usd: 2000 }), { ...ctx, paid_month_usdc: 0 })).toBe("ALLOW");
  });
});

describe("dollar and cent signs where owners put them", () => {
  const ctx = { payees: ["0x1111111111111111111111111111111111111111"] };
  it("5¢ is five cents", () => {
    const I = "USDC to context.payees, 5¢ at most per call.";
    expect(verdict(I, transfer({ asset: "USDC", amount: "0.04", usd: 0.04 }), ctx)).toBe("ALLOW");
    expect(verdict(I, transfer({ asset: "USDC", amount: "0.06", usd: 0.06 }), ctx)).toBe("BLOCK");
  });
  it("750$ is $750", () => {
    const I = "USDC to context.payees, max 750$ per transfer.";
    expect(verdict(I, transfer({ asset: "USDC", amount: "700", usd: 700 }), ctx)).toBe("ALLOW");
    expect(verdict(I, transfer({ asset: "USDC", amount: "800", usd: 800 }), ctx)).toBe("BLOCK");
  });
  it("'US dollars' is dollars", () => {
    const I = "USDC to context.payees, never more than 300 US dollars per transfer.";
    expect(verdict(I, transfer({ asset: "USDC", amount: "310", usd: 310 }), ctx)).toBe("BLOCK");
  });
});

describe("near misses stay unread", () => {
  const ctx = { payees: ["0x1111111111111111111111111111111111111111"] };
  it("a bare figure per period could count actions: held, never allowed", () => {
    expect(verdict("USDC to context.payees, max 3 per day.", transfer({ asset: "USDC", amount: "1", usd: 1 }), ctx)).not.toBe("ALLOW");
  });
  it("'each day' after a bare figure is a period, not 'each' action", () => {
    expect(verdict("USDC to context.payees, up to 3 each day.", transfer({ asset: "USDC", amount: "1", usd: 1 }), ctx)).not.toBe("ALLOW");
  });
  it("a bare figure in a clause about a price is not opened as an amount", () => {
    const r = bet("Polymarket account. Buy only when the price is below 0.5.", 0.6, 10);
    expect(r.reasoning).not.toMatch(/could mean/);
    expect(r.verdict).not.toBe("ALLOW");
  });
  it("a bare figure before a word that could be its unit is not read", () => {
    expect(verdict("USDC to context.payees, max 3 invoices.", transfer({ asset: "USDC", amount: "1", usd: 1 }), ctx)).not.toBe("ALLOW");
  });
});
