/**
 * Minimums and ranges (parse/ranges.ts, checks/ranges.ts): a range is a cap at its top and a floor at its bottom,
 * a minimum is never a maximum, a share-price range bounds prediction orders both ways, and a floor on what must
 * remain in a wallet or a human threshold ("at least $X needs sign-off") is not read as a minimum per action.
 */
import { describe, expect, it } from "vitest";
import { parseIntent } from "../../../src/judge/rules/parse/index";
import { facts, orderFacts, transfer, verdict } from "./helpers";

const usdc = (amount: number) => transfer({ asset: "USDC", amount: String(amount), usd: amount });
const kinds = (intent: string) => parseIntent(intent).constraints.map((k) => k.kind);

describe("a range of amounts per action", () => {
  const intent = "USDC transfers only. Every payout must be from 20 to 300 USDC (both ends included).";
  it("allows both ends and what lies between", () => {
    expect(verdict(intent, usdc(20))).toBe("ALLOW");
    expect(verdict(intent, usdc(300))).toBe("ALLOW");
    expect(verdict(intent, usdc(125.5))).toBe("ALLOW");
  });

  it("blocks below the bottom (a small amount is not inside a range) and above the top", () => {
    expect(verdict(intent, usdc(19.99))).toBe("BLOCK");
    expect(verdict(intent, usdc(0.01))).toBe("BLOCK");
    expect(verdict(intent, usdc(300.000001))).toBe("BLOCK");
  });

  it("takes a dollar sign on either end as the unit", () => {
    const d = "USDC transfers only. Each payment between $10 and 90.";
    expect(verdict(d, usdc(9))).toBe("BLOCK");
    expect(verdict(d, usdc(91))).toBe("BLOCK");
    expect(verdict(d, usdc(50))).toBe("ALLOW");
  });

  it("an exclusive range is not guessed at", () => {
    expect(verdict("USDC transfers only. Each payment strictly between 10 and 90 USDC.", usdc(50))).not.toBe("ALLOW");
  });
});

describe("a minimum alone", () => {
  it('"min payment: 25 USDC" blocks 24 and allows any larger amount the other rules allow', () => {
    const intent = "USDC transfers only.\nmin payment: 25 USDC\nmax per payment: 400 USDC";
    expect(verdict(intent, usdc(24))).toBe("BLOCK");
    expect(verdict(intent, usdc(25))).toBe("ALLOW");
    expect(verdict(intent, usdc(400))).toBe("ALLOW");
    expect(verdict(intent, usdc(401))).toBe("BLOCK");
  });

  it("a balance to keep is not a minimum per payment (and stays unread)", () => {
    const intent = "USDC transfers only. Always keep at least 500 USDC in the wallet per payment cycle.";
    expect(kinds(intent)).not.toContain("floor");
    expect(verdict(intent, usdc(100))).not.toBe("ALLOW");
  });

  it('"transfers of at least $1,000 need my sign-off" is a human threshold, not a minimum', () => {
    const intent = "USDC transfers only. Transfers of at least $1,000 need my sign-off.";
    expect(kinds(intent)).not.toContain("floor");
    expect(verdict(intent, usdc(200))).toBe("ALLOW");
    expect(verdict(intent, usdc(1500))).toBe("ESCALATE");
  });

  it("a minimum share of slippage is not an amount", () => {
    expect(kinds("Swap on Jupiter. Each swap: minimum output at least 99% of the quote.")).not.toContain("floor");
  });
});

describe("a range of share prices on a prediction market", () => {
  const pm = (price: number | null) =>
    facts({ venue: "polymarket", chain: "polygon", actionFamily: "order", actionType: "order", orders: [{ asset: "tok", market: "prediction", side: "buy", size: 100, price: price as number, notionalUsd: price === null ? null : 100 * price, reduceOnly: false, orderType: "limit", tif: "GTC" }], assets: [] });
  const intent = "Polymarket orders only.\nshare price: from 0.10 to 0.75 per share";
  it("bounds the limit price at both ends", () => {
    expect(verdict(intent, pm(0.1))).toBe("ALLOW");
    expect(verdict(intent, pm(0.75))).toBe("ALLOW");
    expect(verdict(intent, pm(0.09))).toBe("BLOCK");
    expect(verdict(intent, pm(0.76))).toBe("BLOCK");
  });

  it("an order without a limit price escalates", () => {
    expect(verdict(intent, pm(null))).not.toBe("ALLOW");
  });
});

describe("the floor's unit", () => {
  it("a USDC minimum does not hold a perp order measured in coins (nothing to compare), and a USD one does", () => {
    const intent = "Trade BTC perps. Orders between $100 and $2,000 notional.";
    expect(verdict(intent, orderFacts({ notionalUsd: 50, size: 0.0005 }))).toBe("BLOCK");
    expect(verdict(intent, orderFacts({ notionalUsd: 1000, size: 0.01 }))).toBe("ALLOW");
  });
});
