/**
 * Rules typed in a hurry or in a second language: misspelt rule words, "more then", "not more big than", "pass"
 * for exceed, a decimal comma, "N/order", "no wd", "at no time", "don't let it", "isn't forbidden", "ask me
 * before placing it", a double space between sentences, a reason clause ("since the bot will only ever be
 * buying ..."). Each read as its plain form; each probed on the side it must stop.
 */
import { describe, expect, it } from "vitest";
import { parseIntent } from "../../../src/judge/rules/parse/index";
import { facts, orderFacts, transfer, verdict } from "./helpers";

const readings = (intent: string) => parseIntent(intent).clauses.map((c) => c.reading);
const PAL = "0x6666666666666666666666666666666666666666";
const pay = (usd: number, to = PAL) => transfer({ asset: "USDC", amount: String(usd), usd, to }, { chain: "base", chainId: 8453 });

describe("typos and chat run-ons", () => {
  const I = `pay only my helper ${PAL} in usdc  never more then 400 usdc in one go. no aprovals ever. dont send to any other adress`;

  it("reads the misspelt words and the double-space break", () => {
    expect(readings(I)).not.toContain("not understood");
    expect(verdict(I, pay(390))).toBe("ALLOW");
  });

  it("the misspelt limits still stop", () => {
    expect(verdict(I, pay(420))).toBe("BLOCK");
    expect(verdict(I, pay(50, "0x7777777777777777777777777777777777777777"))).toBe("BLOCK");
  });
});

describe("a second language", () => {
  const I = "The agent pay only with USDC on Base network. For one payment not more big than 2,50 USDC. In one day the total is not allowed to pass 30 USDC, the spent until now is in context.paid_today.";

  it("a decimal comma is a decimal point, 'pass' is exceed", () => {
    expect(readings(I)).not.toContain("not understood");
    expect(verdict(I, pay(2.4), { paid_today: 10 })).toBe("ALLOW");
  });

  it("2,50 is two and a half, not two hundred and fifty", () => {
    expect(verdict(I, pay(3), { paid_today: 10 })).toBe("BLOCK");
    expect(verdict(I, pay(2), { paid_today: 29 })).toBe("BLOCK");
  });
});

describe("shorthand, double negatives and reasons", () => {
  const withdraw = facts({ actionFamily: "withdrawal", actionType: "withdraw3", transfers: [{ asset: "USDC", amount: "5", usd: 5, to: PAL, kind: "withdraw" }], summary: "withdraw" });

  it("'$300/order', 'no wd'", () => {
    const I = "hl: ETH only. $300/order max. no wd";
    expect(readings(I)).not.toContain("not understood");
    expect(verdict(I, orderFacts({ asset: "ETH", price: 3000, size: 0.09, notionalUsd: 270 }))).toBe("ALLOW");
    expect(verdict(I, orderFacts({ asset: "ETH", price: 3000, size: 0.2, notionalUsd: 600 }))).toBe("BLOCK");
    expect(verdict(I, withdraw)).toBe("BLOCK");
  });

  it("'isn't forbidden' permits, 'are never allowed' forbids", () => {
    const I = "Trading ETH perps on Hyperliquid isn't forbidden. Orders above $4,000 are never allowed.";
    expect(readings(I)).not.toContain("not understood");
    expect(verdict(I, orderFacts({ asset: "ETH", price: 3000, size: 1, notionalUsd: 3000 }))).toBe("ALLOW");
    expect(verdict(I, orderFacts({ asset: "ETH", price: 3000, size: 1.5, notionalUsd: 4500 }))).toBe("BLOCK");
  });

  it("a reason clause that says the bot only buys is a side rule", () => {
    const I = "Going away for a bit, and since the bot will only ever be buying ETH perps on Hyperliquid, I reckon it's fine, though please don't let it withdraw.";
    expect(verdict(I, orderFacts({ asset: "ETH", side: "sell", price: 3000, size: 0.1, notionalUsd: 300 }))).not.toBe("ALLOW");
    expect(verdict(I, withdraw)).toBe("BLOCK");
  });

  it("shorting is not allowed unless the sell only trims a long we hold", () => {
    const I = "ETH perps on Hyperliquid. Shorting is not permitted unless the sell just reduces an existing long and is reduce-only.";
    const positions = { positions: { ETH: { szi: "2", entryPx: "2800" } } };
    expect(verdict(I, orderFacts({ asset: "ETH", side: "sell", price: 3000, size: 0.5, notionalUsd: 1500, reduceOnly: true }), positions)).toBe("ALLOW");
    expect(verdict(I, orderFacts({ asset: "ETH", side: "sell", price: 3000, size: 0.5, notionalUsd: 1500 }), {})).toBe("BLOCK");
  });
});
