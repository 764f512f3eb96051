/**
 * How owners write figures (number-forms.ts): digit groups of other countries, the unit before the figure, spoken
 * amounts and comparison words, and a lone "1.500" whose two readings are never guessed between. Each unsafe side
 * sits beside the control that passes.
 */
import { describe, expect, it } from "vitest";
import { readSeparators } from "../../../src/judge/rules/number-forms";
import { orderFacts, transfer, verdict } from "./helpers";

const usdc = (amount: number) => transfer({ asset: "USDC", amount: String(amount), usd: amount });
const notional = (usd: number) => orderFacts({ asset: "SOL", size: usd / 100, price: 100, notionalUsd: usd });

describe("digit groups", () => {
  it("dot thousands with a comma decimal, several dot groups, spaces and apostrophes are one figure", () => {
    expect(readSeparators("at most 12.500,00 USD")).toBe("at most 12500.00 USD");
    expect(readSeparators("cap 1.250.000 USDC")).toBe("cap 1250000 USDC");
    expect(readSeparators("no more than 2 000 USDC")).toBe("no more than 2000 USDC");
    expect(readSeparators("limit 1'500 CHF, 1’250 USDC")).toBe("limit 1500 CHF, 1250 USDC");
  });

  it("a cap in dot thousands binds at its real size", () => {
    const intent = "USDC payments only. No single payment may exceed 7.500,00 USDC.";
    expect(verdict(intent, usdc(7400))).toBe("ALLOW");
    expect(verdict(intent, usdc(7600))).toBe("BLOCK");
  });

  it("space thousands with the currency code first", () => {
    const intent = "Pay in USDC only. Hard limit USDC 3 000 per transfer.";
    expect(verdict(intent, usdc(2999))).toBe("ALLOW");
    expect(verdict(intent, usdc(3001))).toBe("BLOCK");
    expect(verdict("Pay in USDC only. USD 750 max per payment.", usdc(800))).toBe("BLOCK");
  });
});

describe("a lone 1.500", () => {
  const lone = "USDC payments only. Max 1.500 USDC per payment.";

  it("is not read as 1,500: an amount between the two readings is held for a human", () => {
    expect(verdict(lone, usdc(1400))).toBe("ESCALATE");
    expect(verdict(lone, usdc(900))).toBe("ESCALATE");
  });

  it("is not read as 1.5 either: a minimum in that form never lets a small amount through", () => {
    expect(verdict("USDC payments only. Each payment at least 2.500 USDC.", usdc(10))).not.toBe("ALLOW");
    expect(verdict("USDC payments only. Each payment at least 2.500 USDC.", usdc(2000))).not.toBe("ALLOW");
  });

  it("allows what is under both readings of a cap", () => {
    expect(verdict(lone, usdc(1))).toBe("ALLOW");
  });

  it("is settled by the writer's other figures: a decimal comma makes it thousands", () => {
    const eu = "USDC payments only. Max 1.500 USDC per payment, and fees under 0,5 USDC are fine.";
    expect(readSeparators(eu)).toContain("Max 1500 USDC");
    const conflicting = "Max 1.500 USDC per payment; gas 0,5 ETH; lev 2.5x";
    expect(readSeparators(conflicting)).not.toContain("1500");
  });

  it("comma thousands elsewhere make it a decimal point", () => {
    expect(readSeparators("max 2,000 USDC per day, 1.250 ETH per week")).toBe("max 2,000 USDC per day, 1.250 ETH per week");
    // Both conventions in one text: nothing settles it.
    expect(readSeparators("max 12.500,00 USD per day, 1.500 per order, 2,500 per week")).toContain("\u20511.500\u2051");
  });

  it("is settled by a restatement beside it, which is then said once", () => {
    const intent = "USDC payments only. The maximum per payment is 1.500 USDC (one thousand five hundred, as we write it in Spain).";
    expect(verdict(intent, usdc(1400))).toBe("ALLOW");
    expect(verdict(intent, usdc(1600))).toBe("BLOCK");
    expect(readSeparators("weekly cap 25.000 (25,000) USDC")).toBe("weekly cap 25000 USDC");
  });
});

describe("spoken amounts and comparison words", () => {
  it('"north of five grand needs a human" is a threshold of $5,000', () => {
    const intent = "SOL perps on Hyperliquid only. Anything north of five grand notional per order needs my sign-off.";
    expect(verdict(intent, notional(4000))).toBe("ALLOW");
    expect(verdict(intent, notional(5200))).toBe("ESCALATE");
  });

  it('"in excess of" is strict: the figure itself needs no sign-off', () => {
    const intent = "USDC payments only, at most 2,000 USDC each. Anything in excess of 1,000 USDC needs my sign-off.";
    expect(verdict(intent, usdc(1000))).toBe("ALLOW");
    expect(verdict(intent, usdc(1000.5))).toBe("ESCALATE");
  });

  it('"one and a half thousand" is 1,500; "grand total" is not a thousand', () => {
    const intent = "USDC payments only. Not more than one and a half thousand dollars per payment.";
    expect(verdict(intent, usdc(1450))).toBe("ALLOW");
    expect(verdict(intent, usdc(1550))).toBe("BLOCK");
    expect(verdict("USDC payments only. Grand total of 3k USDC per month.", usdc(900))).not.toBe("ALLOW");
  });

  it("a comparison with no consequence the reader knows is held, whatever word says it", () => {
    for (const said of ["over", "above", "north of", "in excess of"]) {
      const intent = `USDC payments only. Payments ${said} 2,500 USDC want a countersign from the board.`;
      expect(verdict(intent, usdc(3000))).toBe("ESCALATE");
      expect(verdict(intent, usdc(2000))).toBe("ALLOW");
    }
  });

  it("a vague amount stays unread", () => {
    expect(verdict("USDC payments only. Keep each payment to a couple hundred bucks.", usdc(150))).toBe("ESCALATE");
  });

  it("a currency the action cannot be measured in is never passed", () => {
    expect(verdict("Pay in USDC only. Max EUR 500 per payment.", usdc(5000))).not.toBe("ALLOW");
    expect(verdict("Pay in USDC only. Max 500 € per payment.", usdc(5000))).not.toBe("ALLOW");
  });
});

describe("a range, and the bound said again in words", () => {
  const intent = "SOL perps on Hyperliquid only. Keep every order between $200 and $1k notional, nothing smaller (fees eat it) and nothing bigger.";

  it("reads the range and the restatements", () => {
    expect(verdict(intent, notional(600))).toBe("ALLOW");
    expect(verdict(intent, notional(150))).toBe("BLOCK");
    expect(verdict(intent, notional(1200))).toBe("BLOCK");
  });

  it('"nothing bigger" with no cap before it, or with a reason that could be a rule, stays unread', () => {
    expect(verdict("SOL perps on Hyperliquid only. Orders of at least $200, nothing bigger.", notional(600))).toBe("ESCALATE");
    expect(verdict("SOL perps on Hyperliquid only. Orders between $200 and $1k, nothing smaller (except on Fridays).", notional(600))).toBe("ESCALATE");
  });

  it('"keep at least ... in the wallet" is still a balance, not a minimum per order', () => {
    expect(verdict("USDC payments only. Keep at least 200 USDC in the wallet, payments between 10 and 50 USDC.", usdc(30))).not.toBe("ALLOW");
  });
});
