/**
 * How the engine reads clauses: descriptive sentences and names are ignored (and recorded), a clause whose
 * leftover could carry a limit is not understood, numbers are read in words and with k/m suffixes, budgets use
 * the running total the rules name, limits may be a share of a context figure, and allowlists written in several
 * sentences are one list. Each reading is probed from the unsafe side too.
 */
import { describe, expect, it } from "vitest";
import { parseIntent } from "../../../src/judge/rules/parse/index";
import { normaliseNumbers } from "../../../src/judge/rules/numbers";
import { facts, orderFacts, transfer, verdict } from "./helpers";

const A = "0x1111111111111111111111111111111111111111";
const B = "0x2222222222222222222222222222222222222222";
const C = "0x3333333333333333333333333333333333333333";

describe("clause readings", () => {
  it("a purpose sentence is descriptive and its words are recorded as ignored, not escalated", () => {
    const p = parseIntent("Keep our treasury's idle USDC earning yield. PnL gets reviewed on Mondays. Max $500 per payment.");
    const byText = Object.fromEntries(p.clauses.map((c) => [c.clause, c]));
    expect(byText["PnL gets reviewed on Mondays"].reading).toBe("descriptive");
    // Session 24: read whole as what others do (parse/outside-events.ts), so no word of it is left over.
    expect(byText["PnL gets reviewed on Mondays"].unread).toEqual([]);
    expect(byText["Max $500 per payment"].reading).toBe("constraint");
    expect(p.unknown).toEqual([]);
  });

  it("a leftover that could limit something makes the clause not understood", () => {
    for (const intent of ["Trade only on weekdays. Max $500 per order.", "Pay Alice every Friday.", "Send USDC only to our own wallets.", "Trade BTC perps only during US market hours."]) {
      const p = parseIntent(intent);
      expect(p.clauses.some((c) => c.reading === "not understood"), intent).toBe(true);
      expect(p.unknown.length, intent).toBeGreaterThan(0);
    }
  });

  it("a limiting clause that produced nothing is never descriptive", () => {
    const p = parseIntent("Undelegating, pulling HYPE out of staking: all off-limits.");
    expect(p.clauses.every((c) => c.reading !== "descriptive")).toBe(true);
  });

  it("the owner's own plans grant the agent nothing", () => {
    const p = parseIntent("Don't move funds anywhere, I'll withdraw myself.");
    expect(p.constraints.some((k) => k.kind === "permit")).toBe(false);
    expect(verdict("Don't move funds anywhere, I'll withdraw myself.", facts({ actionFamily: "withdrawal", actionType: "withdraw3", summary: "withdraw" }))).toBe("BLOCK");
  });
});

describe("numbers", () => {
  it.each([
    ["max four hundred HYPE per order", "max 400 HYPE per order"],
    ["exceed five percent of", "exceed 5% of"],
    ["half a SOL max", "0.5 SOL max"],
    ["two thousand dollars", "2000 dollars"],
    ["per order cap 1.5k notional", "per order cap $1.5k notional"],
    ["no one else", "no one else"],
    ["one of the wallets", "one of the wallets"],
    ["400k HYPE", "400k HYPE"],
  ])("%s", (from, to) => {
    expect(normaliseNumbers(from)).toBe(to);
  });

  it("a k-suffixed cap binds at the figure", () => {
    const I = "Hyperliquid BTC perps only. max 3k notional / order.";
    expect(verdict(I, orderFacts({ notionalUsd: 3_000 }))).toBe("ALLOW");
    expect(verdict(I, orderFacts({ notionalUsd: 3_001 }))).toBe("BLOCK");
  });
});

describe("figures from the context", () => {
  const I = "Pay only the payees in context.payees, in USDC. Monthly budget two thousand dollars; month-to-date is context.mtd_usd.";
  const ctx = (mtd: number | undefined) => ({ payees: [A], ...(mtd === undefined ? {} : { mtd_usd: mtd }) });

  it("a budget is checked against the running total the rules name", () => {
    expect(verdict(I, transfer({ to: A, usd: 100, amount: "100" }), ctx(1_900))).toBe("ALLOW");
    expect(verdict(I, transfer({ to: A, usd: 101, amount: "101" }), ctx(1_900))).toBe("BLOCK");
    expect(verdict(I, transfer({ to: A, usd: 100, amount: "100" }), ctx(undefined))).toBe("ESCALATE");
  });

  it("a limit may be a share of a context figure, and a missing figure escalates", () => {
    const S = "Trade BTC perps only. No single order may exceed five percent of the account value reported in context.account.value_usd.";
    expect(verdict(S, orderFacts({ notionalUsd: 5_000 }), { account: { value_usd: 100_000 } })).toBe("ALLOW");
    expect(verdict(S, orderFacts({ notionalUsd: 5_001 }), { account: { value_usd: 100_000 } })).toBe("BLOCK");
    expect(verdict(S, orderFacts({ notionalUsd: 10 }), {})).toBe("ESCALATE");
  });

  it("a counter named in the context is not mistaken for a list of recipients", () => {
    const P = `Pay only ${A} and ${B} in USDC. Monthly payout budget 20k USDC (context.paid_this_month_usdc).`;
    expect(verdict(P, transfer({ to: B, usd: 500, amount: "500" }), { paid_this_month_usdc: 1_000 })).toBe("ALLOW");
    expect(verdict(P, transfer({ to: C, usd: 500, amount: "500" }), { paid_this_month_usdc: 1_000 })).toBe("BLOCK");
  });
});

describe("lists", () => {
  it("payees named one sentence each form one allowlist", () => {
    const I = `Pay in USDC only, at most 300 USDC per payment. Pay Oakridge Print Co ${A}. Pay Brightline Catering ${B}.`;
    expect(verdict(I, transfer({ to: A, usd: 200, amount: "200" }))).toBe("ALLOW");
    expect(verdict(I, transfer({ to: B, usd: 200, amount: "200" }))).toBe("ALLOW");
    expect(verdict(I, transfer({ to: C, usd: 200, amount: "200" }))).toBe("BLOCK");
  });

  it("'payments to anyone else are not permitted' restates the list instead of forbidding every payment", () => {
    const I = `Pay only ${A} in USDC, up to $1,000 each. Payments to anyone else are not permitted.`;
    expect(verdict(I, transfer({ to: A, usd: 900, amount: "900" }))).toBe("ALLOW");
    expect(verdict(I, transfer({ to: B, usd: 900, amount: "900" }))).toBe("BLOCK");
  });

  it("a listed entry the context marks as jailed is not plainly allowed", () => {
    const I = "Delegate HYPE only to validators in context.validators.";
    const del = (to: string) => facts({ actionFamily: "staking", actionType: "tokenDelegate", staking: { asset: "HYPE", amount: "10", usd: null, direction: "delegate", validator: to }, assets: ["HYPE"], summary: "delegate" });
    expect(verdict(I, del(A), { validators: { [A]: { status: "active" }, [B]: { status: "jailed" } } })).toBe("ALLOW");
    expect(verdict(I, del(B), { validators: { [A]: { status: "active" }, [B]: { status: "jailed" } } })).toBe("ESCALATE");
  });
});

describe("margin mode and exits", () => {
  const lev = (isCross: boolean) => facts({ actionFamily: "margin", actionType: "updateLeverage", leverage: { asset: "BTC", value: 2, isCross }, assets: ["BTC"] });
  it("'cross only' blocks a switch to isolated margin", () => {
    const I = "Hyperliquid BTC perps only. lev ≤ 4x, cross only.";
    expect(verdict(I, lev(true))).toBe("ALLOW");
    expect(verdict(I, lev(false))).toBe("BLOCK");
  });

  it("'exits must be r=true': a sell that closes a long without reduce-only is blocked; with no positions a buy is an entry, a sell escalates", () => {
    const I = "Hyperliquid ETH perps only. exits must be r=true.";
    const sell = orderFacts({ asset: "ETH", side: "sell", size: 0.4, price: 3000, notionalUsd: 1200 });
    expect(verdict(I, sell, { positions: { ETH: { szi: "0.4" } } })).toBe("BLOCK");
    expect(verdict(I, sell, { positions: {} })).toBe("ALLOW");
    expect(verdict(I, sell, {})).toBe("ESCALATE");
    expect(verdict(I, orderFacts({ asset: "ETH", side: "buy", size: 0.4, price: 3000, notionalUsd: 1200 }), {})).toBe("ALLOW");
    expect(verdict(I, sell, { positions: [{ coin: "ETH", szi: "0.4" }] })).toBe("ESCALATE");
    expect(verdict(I, orderFacts({ asset: "ETH", side: "buy", size: 0.4, price: 3000, notionalUsd: 1200 }), { positions: { ETH: { szi: "-0.4" } } })).toBe("BLOCK");
  });
});
