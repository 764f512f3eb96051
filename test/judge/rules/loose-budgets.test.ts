/**
 * Budgets over a period said in passing, with the running total named loosely (parse/loose-budgets.ts): "monthly
 * budget is 900", "the programme has 40k overall", "we've got 12 bucks for the whole day", "never more than 600
 * in total a month", "the season's pool is 5,000 STRK". Inside the budget with the counter: ALLOW; past it: BLOCK;
 * no counter in the context: ESCALATE (never ALLOW). Our own wording, not a blind set's.
 */
import { describe, expect, it } from "vitest";
import { parseIntent } from "../../../src/judge/rules/parse";
import { transfer, verdict } from "./helpers";

const TO = "0x1111111111111111111111111111111111111111";
const pay = (usd: number, asset = "USDC") => transfer({ asset, usd, amount: String(usd) });
const coin = (amount: number, asset: string) => transfer({ asset, usd: null, amount: String(amount) });

describe("a budget said in passing, with its running total", () => {
  const cases: Array<[string, string, string, (n: number) => ReturnType<typeof pay>]> = [
    ["budget is, bare figure, counter in dollars", "Pay the freelancers in context.payees in USDC, max 300 USDC each. monthly budget is 900, context.month_paid_usd shows what we sent so far this month.", "month_paid_usd", pay],
    ["the period has X overall", "Pay the grantees in context.payees in USDC. the programme has 40k overall; context.programme_paid_usdc = paid out so far.", "programme_paid_usdc", pay],
    ["we have X for the whole day", "tips to context.payees in USDC, max 5 USDC a tip. we've got 12 bucks for the whole day (context.tipped_today_usd).", "tipped_today_usd", pay],
    ["never more than X in total a period", "Pay the suppliers in context.payees in USDC. never pay more than 600 in total a month - running total is context.month_spent_usd", "month_spent_usd", pay],
    ["the period's pool, in a token", "Pay the grantees in context.payees in STRK. The season's pool is 5,000 STRK; context.season_paid_strk holds what has been disbursed so far.", "season_paid_strk", (n) => coin(n, "STRK")],
  ];
  const limits: Record<string, number> = { month_paid_usd: 900, programme_paid_usdc: 40_000, tipped_today_usd: 12, month_spent_usd: 600, season_paid_strk: 5_000 };
  for (const [name, intent, counter, act] of cases) {
    const limit = limits[counter];
    const ctx = (spent?: number) => ({ payees: [TO], ...(spent === undefined ? {} : { [counter]: spent }) });
    it(`${name}: inside passes, past it is blocked, no counter is held`, () => {
      const small = Math.min(limit / 10, 4);
      expect(verdict(intent, act(small), ctx(limit / 2))).toBe("ALLOW");
      expect(verdict(intent, act(small), ctx(limit - small / 2))).toBe("BLOCK");
      expect(verdict(intent, act(small), ctx())).toBe("ESCALATE");
    });
  }

  it("the counter is the budget's: the parse names it, and the budget is not a per-action cap", () => {
    const p = parseIntent("Pay the grantees in context.payees in USDC. the programme has 40k overall; context.programme_paid_usdc = paid out so far.");
    const caps = p.constraints.filter((k) => k.kind === "cap");
    expect(caps).toEqual([expect.objectContaining({ period: "total", counterRef: "context.programme_paid_usdc", limit: { value: 40_000, unit: "USD" } })]);
    expect(p.unknown).toEqual([]);
  });

  it("a bare figure with no unit anywhere (no $ word, no counter suffix, other tokens) stays unread and holds", () => {
    const intent = "Pay the grantees in context.payees in STRK or ETH. weekly budget is 300, context.week_payouts has what went out.";
    expect(verdict(intent, coin(1, "STRK"), { payees: [TO], week_payouts: 10 })).not.toBe("ALLOW");
  });

  it("a path that counts nothing is never taken as the running total", () => {
    const intent = "Pay context.payees in USDC, the round has 2,000 USDC in total.";
    const p = parseIntent(intent);
    expect(p.constraints.find((k) => k.kind === "cap")).toMatchObject({ period: "total", counterRef: undefined });
    // With no running total the budget cannot be checked: held.
    expect(verdict(intent, pay(10), { payees: [TO] })).toBe("ESCALATE");
  });
});
