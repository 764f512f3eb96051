/**
 * A limit on what is open "across the account" is a running total, not a second per-order cap: the order is added
 * to the open figure the context names, and without that figure the limit cannot be checked. Found by a sealed set
 * (session 20), where "max open notional across the acct" had been read as a per-order cap of the same figure and
 * was hidden only because another clause was unread. Our own wording.
 */
import { describe, expect, it } from "vitest";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { buildJudgeInput } from "../../../src/judge/eval/cli";

const order = (a: number, px: string, sz: string) => ({ type: "order", orders: [{ a, b: true, p: px, s: sz, r: false, t: { limit: { tif: "Gtc" } } }], grouping: "na" });
const hl = (intent: string, action: unknown, context: Record<string, unknown>) =>
  evaluateRules(buildJudgeInput({ id: "t", intent, action, venue: "hyperliquid", context, expected: "ALLOW", acceptable: ["ALLOW"], tags: [] } as never));
const base = { assets: { "0": "BTC", "3": "LINK" }, prices: { BTC: 90_000, LINK: 20 } };

describe.each([
  "LINK and BTC perps. up to $3k per order; $20k max open notional across the whole book (context.open_usd has what is open).",
  "LINK and BTC perps. up to $3k per order. Max $20k open notional, account-wide (context.open_usd).",
  "LINK and BTC perps, at most 3k usd an order, 20k usd total across the account (context.open_usd)",
])("%s", (intent) => {
  it("allows an order that keeps the open figure inside the limit", () => {
    expect(hl(intent, order(3, "20", "100"), { ...base, open_usd: 15_000 }).verdict).toBe("ALLOW");
  });

  it("refuses an order that is small alone but takes the open figure past the limit", () => {
    const r = hl(intent, order(3, "20", "100"), { ...base, open_usd: 18_500 });
    expect(r.verdict).toBe("BLOCK");
    expect(r.violations.join(" ")).toContain("20,000");
  });

  it("asks a human when the context does not say what is open", () => {
    expect(hl(intent, order(3, "20", "100"), base).verdict).toBe("ESCALATE");
  });
});

describe("a limit on open positions with no figure of what is open", () => {
  it("is never read as one more per-order cap: without current positions a human decides", () => {
    const intent = "LINK and BTC perps. up to $3k per order. Account-wide, open positions stay under $20k notional (context.open_usd).";
    expect(hl(intent, order(3, "20", "100"), { ...base, open_usd: 18_500 }).verdict).not.toBe("ALLOW");
  });
});
