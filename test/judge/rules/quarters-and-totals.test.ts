/**
 * Running totals said in other words: a calendar or fiscal quarter (a total checked against the quarter-to-date
 * figure the rules name), and a non-native speaker's "not more of 2 ETH together, the amount sended today is
 * in context.x". Each is probed under, at and over its limit, and with the counter missing.
 */
import { describe, expect, it } from "vitest";
import { parseIntent } from "../../../src/judge/rules/parse/index";
import { transfer, verdict } from "./helpers";

const usdc = (amount: number) => transfer({ asset: "USDC", amount: String(amount), usd: amount });
const eth = (amount: number) => transfer({ asset: "ETH", amount: String(amount), usd: amount * 3000, kind: "native" });
const readings = (intent: string) => parseIntent(intent).clauses.map((c) => c.reading);

describe("a quarterly budget", () => {
  const intent = "USDC transfers only. Payouts per fiscal quarter may not exceed 9,000 USDC, counting context.q_paid_usdc.";
  it("counts the quarter-to-date figure the rule names", () => {
    expect(readings(intent)).not.toContain("not understood");
    expect(verdict(intent, usdc(1000), { q_paid_usdc: 8000 })).toBe("ALLOW");
    expect(verdict(intent, usdc(1000.01), { q_paid_usdc: 8000 })).toBe("BLOCK");
  });

  it("escalates when that figure is missing, even with another counter present", () => {
    expect(verdict(intent, usdc(10), {})).toBe("ESCALATE");
    expect(verdict(intent, usdc(10), { paid_today_usdc: 0 })).toBe("ESCALATE");
  });

  it("with no counter named, a quarterly cap is never allowed on a guess", () => {
    expect(verdict("USDC transfers only. Quarterly payouts capped at 9,000 USDC.", usdc(10), {})).toBe("ESCALATE");
  });
});

describe("a non-native speaker's day total", () => {
  const intent = "This wallet is for send ETH only. In one day not more of 2 ETH together, the amount sended today is in context.eth_out_today.";
  it("reads the cap and its counter", () => {
    expect(readings(intent)).not.toContain("not understood");
    expect(verdict(intent, eth(0.5), { eth_out_today: 1.5 })).toBe("ALLOW");
    expect(verdict(intent, eth(0.6), { eth_out_today: 1.5 })).toBe("BLOCK");
    expect(verdict(intent, eth(0.1), {})).toBe("ESCALATE");
  });

  it('"more of" is "more than" only before a figure', () => {
    expect(parseIntent("No more of the memecoins, ever.").constraints.some((k) => k.kind === "cap")).toBe(false);
  });
});
