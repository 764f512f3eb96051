/**
 * A cap that is a share of a context figure named in parentheses ("at most half the float (context.float_usd)"),
 * "this month" as a period, and a running total written beside its budget while another share cap exists.
 */
import { describe, expect, it } from "vitest";
import { parseIntent } from "../../../src/judge/rules/parse/index";
import { transfer, verdict } from "./helpers";

const readings = (intent: string) => parseIntent(intent).clauses.map((c) => c.reading);
const TO = "0x8888888888888888888888888888888888888888";
const pay = (usd: number) => transfer({ asset: "USDC", amount: String(usd), usd, to: TO });

describe("a share of a figure given in parentheses", () => {
  const I = `Pay USDC only to ${TO}. A single payment may not be more than half the operating float (context.float_usd).`;

  it("is read and checked", () => {
    expect(readings(I)).not.toContain("not understood");
    expect(verdict(I, pay(4000), { float_usd: 9000 })).toBe("ALLOW");
    expect(verdict(I, pay(5000), { float_usd: 9000 })).toBe("BLOCK");
  });

  it("without the figure it is not guessed", () => {
    expect(verdict(I, pay(10), {})).not.toBe("ALLOW");
  });
});

describe("'this month' and the running total beside it", () => {
  const I = `Pay USDC only to ${TO}. Each payment is capped at 1% of the reserves (context.reserves_usd). Payments this month must stay within $20k (context.paid_mtd_usd).`;

  it("the month's budget counts the named running total", () => {
    expect(readings(I)).not.toContain("not understood");
    expect(verdict(I, pay(3000), { reserves_usd: 500000, paid_mtd_usd: 10000 })).toBe("ALLOW");
    expect(verdict(I, pay(3000), { reserves_usd: 500000, paid_mtd_usd: 18000 })).toBe("BLOCK");
    expect(verdict(I, pay(3000), { reserves_usd: 500000 })).not.toBe("ALLOW");
  });
});
