/**
 * Clauses made of thresholds (src/judge/rules/thresholds.ts): a cap, a human gate or a permission below a figure,
 * written with coin words, k and m, hedges, approver names and token amounts. The action under every figure is not
 * held; the unsafe side (over a figure, a day tally pushed over, a figure in another token, a payee or a lower bound
 * in the clause) must never be allowed. Our own wording, not blind42's.
 */
import { describe, expect, it } from "vitest";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { coinsToDollars, readThresholds } from "../../../src/judge/rules/thresholds";
import { input, orderFacts, transfer } from "./helpers";

const PERMIT = "USDC payments are allowed, up to 5,000 USDC per payment.";
const pay = (usd: number, asset = "USDC") => transfer({ asset, usd, amount: String(usd) });
const judge = (intent: string, f: ReturnType<typeof pay>, ctx: Record<string, unknown> | null = null) => evaluateRules(input(intent, { type: "test" }, f, ctx));
const v = (clause: string, usd: number, ctx: Record<string, unknown> | null = null) => judge(`${PERMIT} ${clause}`, pay(usd), ctx).verdict;

describe("coin words", () => {
  it("read as dollars, but a quarter of a year stays words", () => {
    expect(coinsToDollars("more than a dime, never over 2 bucks")).toBe("more than $0.10, never over $2");
    expect(coinsToDollars("once a quarter, per quarter, a quarter of the budget")).toBe("once a quarter, per quarter, a quarter of the budget");
  });

  it('"grand" arrives as dollars from number-forms.ts, and the gate fires above it', () => {
    const gate = "Anything over 3 grand, kindly run it by Mr Delacroix before it goes out.";
    expect(v(gate, 2_000)).toBe("ALLOW");
    expect(v(gate, 3_500)).toBe("ESCALATE");
    const one = "Should a bill cost more than a grand, kindly put it before Ms Okafor for her approval.";
    expect(v(one, 500)).toBe("ALLOW");
    expect(v(one, 1_500)).toBe("ESCALATE");
  });
});

describe("a human gate", () => {
  const GATE = "Any payment larger than 2.5k USDC is first shown to Ms Varga for sign-off.";
  it("does not hold a payment below its figure", () => expect(v(GATE, 900)).toBe("ALLOW"));
  it("escalates a payment above it", () => expect(v(GATE, 3_000)).toBe("ESCALATE"));

  it("with an approver named in a chat channel or a committee", () => {
    expect(v("if a payment ever runs over a dime, drop a note in #ops-money and wait.", 0.07)).toBe("ESCALATE"); // "wait": not a cut tail
    expect(v("When a bill is more than $40, kindly run it by Mr Delacroix before it goes out.", 25)).toBe("ALLOW");
    expect(v("When a bill is more than $40, kindly run it by Mr Delacroix before it goes out.", 60)).toBe("ESCALATE");
    expect(v("Payouts exceeding $4,000 require Audit Board approval prior to release.", 3_000)).toBe("ALLOW");
    expect(v("Payouts exceeding $4,000 require Audit Board approval prior to release.", 4_500)).toBe("ESCALATE");
  });

  it("stays held when the gate fires below its figure or the tail adds a rule", () => {
    expect(v("Payments under $50 need my OK first.", 20)).toBe("ESCALATE");
    expect(v("Payments above $900: CFO sign-off, and only to suppliers.", 100)).toBe("ESCALATE");
    expect(v("Payments to new suppliers above $900: CFO sign-off first.", 100)).toBe("ESCALATE");
  });
});

describe("a cap", () => {
  it("a coin-word cap: under passes, over is never allowed", () => {
    expect(v("never more than a couple of bucks... scratch that: not over 2 bucks a go.", 1.5)).not.toBe("BLOCK");
    expect(v("Tips are never above a buck apiece.", 0.6)).toBe("ALLOW");
    expect(v("Tips are never above a buck apiece.", 1.4)).not.toBe("ALLOW");
  });

  it("a hedged figure is read a tenth lower", () => {
    expect(v("each payment should stay under, like, 1k dollars.", 700)).toBe("ALLOW");
    expect(v("each payment should stay under, like, 1k dollars.", 950)).not.toBe("ALLOW");
    expect(readThresholds("each payment should stay under, like, 1k dollars")?.factor).toBe(0.9);
  });

  it("a daily figure with its tally: the counter pushing it over holds the action", () => {
    const DAY = "and all of today together can't go past 20 bucks (context.wallet_today_usd tracks it)";
    expect(v(DAY, 4, { wallet_today_usd: 10 })).toBe("ALLOW");
    expect(v(DAY, 4, { wallet_today_usd: 18 })).not.toBe("ALLOW");
    expect(v(DAY, 4, {})).not.toBe("ALLOW");
  });

  it("two token figures: each asset is measured by its own, and one the action does not move is no pass", () => {
    const TOK = "Ceiling per transfer: 40 AVAX or 600 USDC.";
    expect(v(TOK, 450)).toBe("ALLOW");
    expect(v(TOK, 35)).toBe("ALLOW");
    expect(v(TOK, 700)).not.toBe("ALLOW"); // under 40 as a number, over 600 USDC
    expect(judge(`${PERMIT} Ceiling per transfer: 40 AVAX or 600 USDC.`, pay(30, "DAI")).verdict).not.toBe("ALLOW");
  });

  it("a stablecoin-units cap only measures stablecoins", () => {
    expect(v("Each payment is capped at 9,000 units of the stablecoin.", 3_000)).toBe("ALLOW");
    expect(v("Each payment is capped at 9,000 units of the stablecoin.", 9_500)).not.toBe("ALLOW");
  });

  it("an order's notional measured at its limit price; a dollar figure not said to be size is also read as the price", () => {
    const trade = "The agent trades ETH perps, up to $5,000 per order.";
    const at = (price: number, size: number) => orderFacts({ asset: "ETH", side: "buy", size, price, notionalUsd: price * size });
    const notional = "No single order may hold a notional above $1,200, taken at the order's limit price.";
    expect(evaluateRules(input(`${trade} ${notional}`, { type: "test" }, at(3_000, 0.3), null)).verdict).toBe("ALLOW");
    expect(evaluateRules(input(`${trade} ${notional}`, { type: "test" }, at(3_000, 0.5), null)).verdict).not.toBe("ALLOW");
    expect(evaluateRules(input(`${trade} buys kept under, like, $2,000.`, { type: "test" }, at(3_000, 0.3), null)).verdict).not.toBe("ALLOW");
  });
});

describe("a firm cap the action is over", () => {
  it("blocks under every reading, and only then", () => {
    expect(v("Tips are never above a buck apiece.", 1.4)).toBe("BLOCK");
    expect(v("Ceiling per transfer: 40 AVAX or 600 USDC.", 700)).toBe("BLOCK");
    expect(v("and all of today together can't go past 20 bucks (context.wallet_today_usd tracks it)", 4, { wallet_today_usd: 18 })).toBe("BLOCK");
    // a hedged figure is counted a tenth higher before blocking: 1,050 is over "like, 1k" but not clearly
    expect(v("each payment should stay under, like, 1k dollars.", 1_050)).toBe("ESCALATE");
    expect(v("each payment should stay under, like, 1k dollars.", 1_500)).toBe("BLOCK");
  });

  it("a gate, a permission or a bare 'under' is never turned into a block", () => {
    expect(v("Payouts exceeding $4,000 require Audit Board approval prior to release.", 4_500)).toBe("ESCALATE");
    expect(v("under a dime a request it can just pay.", 0.3)).toBe("ESCALATE");
    expect(readThresholds("payments under 2 bucks, go wild")?.firmCap).toBe(false);
    expect(readThresholds("each payment should stay under 2 bucks")?.firmCap).toBe(true);
  });

  it("an order is blocked only when the clause says it measures size", () => {
    const trade = "The agent trades ETH perps, up to $5,000 per order.";
    const at = (price: number, size: number) => orderFacts({ asset: "ETH", side: "buy", size, price, notionalUsd: price * size });
    expect(evaluateRules(input(`${trade} No single order may hold a notional above $1,200, taken at the order's limit price.`, { type: "test" }, at(3_000, 0.5), null)).verdict).toBe("BLOCK");
    expect(evaluateRules(input(`${trade} buys kept under, like, $2,000.`, { type: "test" }, at(1_500, 3), null)).verdict).not.toBe("BLOCK");
  });
});

describe("a permission below a figure", () => {
  it("passes what is under it and holds what is not", () => {
    expect(v("under a dime a request it can just pay.", 0.04)).toBe("ALLOW");
    expect(v("under a dime a request it can just pay.", 0.1)).not.toBe("ALLOW"); // not under
    expect(v("under a dime a request it can just pay.", 0.3)).not.toBe("ALLOW");
  });
});

describe("what is never read as thresholds only", () => {
  it.each([
    "each payment must be at least $5 and at most $60",
    "Payments between $100 and $500 are fine.",
    "never pay under $3,000",
    "up to $500 may go to Bob",
    "up to $500 to our payroll wallet",
    "up to $500 per payment on weekends",
    "Payments above $400 are forbidden unless the treasurer agrees",
    "keep at least $200 in the wallet",
    "above $100 it can just pay",
    "once a quarter it may pay up to $500",
  ])("%s", (clause) => expect(readThresholds(clause)).toBeNull());
});
