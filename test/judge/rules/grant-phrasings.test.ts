/**
 * How owners write mandates of several permissions: sentences that close the list ("nothing else may leave this
 * wallet", "payments outside (a) or (b) ... shall not be executed"), section signs, a recipient list declared with
 * its token accounts, refunds, counted lists, "for us", "not more as". Each with the side it must not widen.
 */
import { describe, expect, it } from "vitest";
import { parseIntent } from "../../../src/judge/rules/parse/index";
import { orderFacts, transfer, verdict } from "./helpers";

const A = "0x1000000000000000000000000000000000000001";
const B = "0x2000000000000000000000000000000000000002";
const X = "0x3000000000000000000000000000000000000003";
const unread = (intent: string) => parseIntent(intent).clauses.filter((c) => c.reading === "not understood").map((c) => c.clause);
const closes = (intent: string) => parseIntent(intent).constraints.some((c) => c.kind === "only_listed");
const order = orderFacts({ asset: "ETH", size: 0.1, price: 3000, notionalUsd: 300 });

describe("sentences that close the list of permissions", () => {
  const pay = "Pay the suppliers in context.suppliers in USDC, up to 900 USDC each.";
  const ctx = { suppliers: { [A]: "s1" } };
  const closers = [
    "Nothing else may leave this treasury wallet.",
    "nothing else goes out",
    "Payments not covered above are prohibited.",
    "Any payment outside (a) or (b) needs a board vote and shall not be executed by the agent.",
    "deny: everything else",
    "Other transfers it must not do.",
    "That is all this bot does.",
  ];

  it.each(closers)("%s", (closer) => {
    const I = `${pay} ${closer}`;
    expect(closes(I)).toBe(true);
    expect(unread(I)).toEqual([]);
    // What is permitted stays permitted; what is not is refused, not merely unmentioned.
    expect(verdict(I, transfer({ amount: "500", usd: 500, to: A }), ctx)).toBe("ALLOW");
    expect(verdict(I, order, ctx)).toBe("BLOCK");
  });

  it("unsafe side: a closer never lifts a permission's own limits", () => {
    const I = `${pay} Nothing else may leave this wallet.`;
    expect(verdict(I, transfer({ amount: "950", usd: 950, to: A }), ctx)).toBe("BLOCK");
    expect(verdict(I, transfer({ amount: "10", usd: 10, to: X }), ctx)).toBe("BLOCK");
  });

  it("sentences that only look alike are not closers", () => {
    expect(closes("Pay vendors in context.v. Nothing else matters to me.")).toBe(false);
    expect(closes("Pay vendors in context.v. Transfers are reviewed monthly.")).toBe(false);
  });
});

describe("a section sign before a rule", () => {
  it("'§2 The agent may ...' reads as the rule, its number is no quantity", () => {
    expect(unread("§1 The agent may pay the vendors in context.vendors in USDC. §2 A single payment shall not exceed 700 USDC.")).toEqual([]);
    expect(verdict("§1 The agent may pay the vendors in context.vendors in USDC. §2 A single payment shall not exceed 700 USDC.", transfer({ amount: "800", usd: 800, to: A }), { vendors: { [A]: "v" } })).toBe("BLOCK");
  });
});

describe("a recipient list declared with its token accounts", () => {
  const I = "Scholars and their USDC token accounts are in context.scholars. Stipends are paid in USDC, at most 1,200 USDC each.";

  it("is the list of who may be paid, not a list of tokens", () => {
    const cs = parseIntent(I).constraints;
    expect(cs.some((c) => c.kind === "allow" && c.dim === "recipient" && c.refs?.includes("context.scholars"))).toBe(true);
    expect(cs.some((c) => c.kind === "allow" && c.dim === "asset" && c.refs?.length)).toBe(false);
    expect(verdict(I, transfer({ amount: "1000", usd: 1000, to: A }), { scholars: { [A]: { usdc_token_account: B } } })).toBe("ALLOW");
  });

  it("unsafe side: someone not on it is refused", () => {
    expect(verdict(I, transfer({ amount: "100", usd: 100, to: X }), { scholars: { [A]: { usdc_token_account: B } } })).toBe("BLOCK");
  });
});

describe("refunds, counted lists, 'for us', 'not more as'", () => {
  it("'refunds security deposits in ETH' is a payment, not a deposit into a pool", () => {
    const acts = parseIntent("The agent refunds security deposits in ETH to the tenants in context.tenants.").constraints.flatMap((c) => (c.kind === "permit" ? c.activities : []));
    expect(acts).toContain("payment");
    expect(acts).not.toContain("supply");
  });

  it("'our three relay wallets (context.relays)': the count introduces the list", () => {
    expect(unread("It can send ETH to our three relay wallets (context.relays), max 0.1 ETH each.")).toEqual([]);
  });

  it("'this bot does payroll for us' names whom it works for; 'withdraw for us' still asks who", () => {
    const I = "this bot does payroll for us. salaries go in USDC to the people in context.team only";
    expect(parseIntent(I).unknown).toEqual([]);
    expect(parseIntent("withdraw the profits for us").unknown.join(" ")).toMatch(/for us/);
  });

  it("'not more as 600 USDC for one payment' is a cap, and holds", () => {
    const I = "The agent may pay the people in context.team with USDC and not more as 600 USDC for one payment.";
    expect(unread(I)).toEqual([]);
    expect(verdict(I, transfer({ amount: "650", usd: 650, to: A }), { team: { [A]: "t" } })).toBe("BLOCK");
  });
});

describe("a contract's entrypoint names in a prohibition", () => {
  const I = "Pay the team in context.team in USDC. Never make approve or increaseAllowance calls.";

  it("'no approve or increase_allowance calls' forbids approvals and nothing else", () => {
    expect(unread(I)).toEqual([]);
    const cs = parseIntent(I).constraints;
    expect(cs.some((c) => c.kind === "forbid" && c.activities.includes("approval") && !c.activities.includes("transfer"))).toBe(true);
    expect(verdict(I, transfer({ amount: "50", usd: 50, to: A }), { team: { [A]: "t" } })).toBe("ALLOW");
  });
});

describe("a bare figure with a thousands comma", () => {
  it("unsafe side: 'never more than 3,000 per payout' is never read as a cap of 3", () => {
    const I = "Rebates are paid in USDC to the partners in context.partners, never more than 3,000 per payout.";
    const caps = parseIntent(I).constraints.filter((c) => c.kind === "cap");
    expect(caps.every((c) => c.kind === "cap" && c.limit.value !== 3)).toBe(true);
    // Session 22 reads the figure whole (open-figures.ts): 3,000 in dollars or in USDC, the same here, so a 2,500 USDC
    // payout is inside it and a 3,500 one over it (it had been left unread, escalating both).
    expect(verdict(I, transfer({ amount: "2500", usd: 2500, to: A }), { partners: { [A]: "p" } })).toBe("ALLOW");
    expect(verdict(I, transfer({ amount: "3500", usd: 3500, to: A }), { partners: { [A]: "p" } })).toBe("BLOCK");
  });
});
