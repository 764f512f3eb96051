/**
 * Approvals as owners scope them (spender named or pointed at, exact or bounded, unlimited ones banned after the noun)
 * and "a human decides" said as a signer, a countersignature, a co-signature or a four-eyes check. Each reading has its
 * unsafe side: a spender the rules do not name is never allowed, an approval cannot be confirmed "exact" without the
 * swap it serves, and nothing above a signing line is ever allowed.
 */
import { describe, expect, it } from "vitest";
import type { ApprovalFact } from "../../../src/venues/types";
import { parseIntent } from "../../../src/judge/rules/parse";
import { facts, transfer, verdict } from "./helpers";

const ROUTER = "0x2222222222222222222222222222222222222222";
const VAULT = "0x3333333333333333333333333333333333333333";
const STRANGER = "0x4444444444444444444444444444444444444444";
const PAYEE = "0x5555555555555555555555555555555555555555";

const approval = (spender: string, amount: number | null, token = "USDC"): ReturnType<typeof facts> => {
  const a: ApprovalFact = { token, spender, amount: amount === null ? null : String(amount), amountBase: null, unlimited: amount === null, usd: amount, kind: "erc20" };
  return facts({ venue: "ethereum", chain: "ethereum", chainId: 1, actionFamily: "permission", actionType: "approve", summary: `approve ${amount ?? "max"} ${token} to ${spender}`, approvals: [a], assets: [token] });
};

const readings = (intent: string): string[] => (parseIntent(intent).clauses as Array<{ reading: string }>).map((c) => c.reading);

describe("who may spend: the spender an approval clause names", () => {
  const I = `Rebalance USDC into WETH through the aggregator at ${ROUTER}, max 9,000 USDC per swap. Allowances: only to the aggregator, never unlimited.`;

  it("'only to the aggregator' is the one contract the intent named: another spender is blocked", () => {
    expect(readings(I)).not.toContain("not understood");
    expect(verdict(I, approval(STRANGER, 500))).toBe("BLOCK");
    expect(verdict(I, approval(ROUTER, null))).toBe("BLOCK");
  });

  it("with no exactness asked, a finite approval to the named aggregator is inside the rules", () => {
    expect(verdict(I, approval(ROUTER, 500))).toBe("ALLOW");
  });

  it("with 'exact amount' added and no swap to compare with, the same approval is not confirmed (never ALLOW)", () => {
    expect(verdict(I.replace("only to the aggregator", "exact amount, only to the aggregator"), approval(ROUTER, 500))).toBe("ESCALATE");
  });

  it("a definite noun with two candidate contracts is not resolved: the clause stays unread", () => {
    const two = `Swap through the router at ${ROUTER} or the router at ${VAULT}. Allowances: only to the router.`;
    expect(readings(two)).toContain("not understood");
    expect(verdict(two, approval(ROUTER, 100))).not.toBe("ALLOW");
  });

  it("'spender: context.x only' and '<address> as spender' name the spender directly", () => {
    const ctx = { pool: VAULT };
    const byPath = "Approvals: spender: context.pool only, never unlimited.";
    expect(verdict(byPath, approval(STRANGER, 10), ctx)).toBe("BLOCK");
    const byAddr = `Permit2 allowances with ${VAULT} as spender, no infinite ones.`;
    expect(verdict(byAddr, approval(STRANGER, 10))).toBe("BLOCK");
  });

  it("a recipient list bound to approvals checks the spender (it was never checked before)", () => {
    const I2 = "Token approvals only to context.pool; no unlimited approvals.";
    expect(verdict(I2, approval(STRANGER, 10), { pool: VAULT })).toBe("BLOCK");
  });
});

describe("the shape of an approval", () => {
  it("'unlimited allowances are prohibited' (the ban after the noun) blocks an unlimited one", () => {
    const I = `Swap via ${ROUTER} only. Unlimited allowances are prohibited.`;
    expect(readings(I)).not.toContain("not understood");
    expect(verdict(I, approval(ROUTER, null))).toBe("BLOCK");
  });

  it("'just enough for the swap' is read; an approval above the per-swap cap can be exact for no swap", () => {
    const I = `Swap via ${ROUTER} only, at most 2,000 USDC per swap. Approvals: just enough for the swap, ${ROUTER} as spender.`;
    expect(readings(I)).not.toContain("not understood");
    expect(verdict(I, approval(ROUTER, 2500))).toBe("BLOCK");
    expect(verdict(I, approval(ROUTER, 1500))).toBe("ESCALATE");
  });

  it("'exact amount' compares with the pending swap in context when there is one", () => {
    const I = `Swap via ${ROUTER} only. Approvals: exact amount, ${ROUTER} as spender.`;
    const ctx = { pending_swap: { tokenIn: "USDC", amountIn: 1200 } };
    expect(verdict(I, approval(ROUTER, 1200), ctx)).toBe("ALLOW");
    expect(verdict(I, approval(ROUTER, 1300), ctx)).toBe("BLOCK");
  });
});

describe("a human decides: signers, countersignatures, four eyes", () => {
  const pay = (usd: number) => transfer({ amount: String(usd), usd, to: PAYEE });
  const ctx = { payees: { [PAYEE]: "Ops vendor" } };

  for (const rule of [
    "Payments above 1,200 USDC need a human signer.",
    "Any payment above 1,200 USDC requires countersignature by the treasurer.",
    "Payments over 1,200 USDC must be co-signed by two directors.",
    "above 1,200 USDC: four-eyes check before sending",
    "Payments over 1,200 USDC need my go-ahead first.",
  ]) {
    it(`"${rule}" holds above the line and lets the line itself through`, () => {
      const I = `Pay USDC only to context.payees. ${rule}`;
      expect(readings(I)).not.toContain("not understood");
      expect(verdict(I, pay(1200), ctx)).toBe("ALLOW");
      expect(verdict(I, pay(1201), ctx)).toBe("ESCALATE");
      expect(verdict(I, pay(5000), ctx)).not.toBe("ALLOW");
    });
  }

  it("a signing rule without a figure holds every action of its kind", () => {
    const I = "Pay USDC only to context.payees. Every payment requires co-signature from the controller.";
    expect(verdict(I, pay(5), ctx)).toBe("ESCALATE");
  });
});
