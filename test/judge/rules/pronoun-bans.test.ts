/**
 * Prohibitions by pronoun: "them"/"it" resolved to the one activity the previous clause names. Unsafe sides: a
 * pronoun with two candidate activities, or a permission by pronoun, is never read as anything (the action escalates);
 * the resolved ban blocks the activity it names and nothing else.
 */
import { describe, expect, it } from "vitest";
import type { ApprovalFact } from "../../../src/venues/types";
import { parseIntent } from "../../../src/judge/rules/parse";
import { facts, transfer, verdict } from "./helpers";

const SPENDER = "0x2222222222222222222222222222222222222222";
const PAYEE = "0x5555555555555555555555555555555555555555";
const approval = () => {
  const a: ApprovalFact = { token: "USDC", spender: SPENDER, amount: "100", amountBase: null, unlimited: false, usd: 100, kind: "erc20" };
  return facts({ venue: "ethereum", chain: "ethereum", chainId: 1, actionFamily: "permission", actionType: "approve", summary: "approve 100 USDC", approvals: [a], assets: ["USDC"] });
};
const builderFee = () => {
  const a: ApprovalFact = { token: "FEE", spender: SPENDER, amount: "0.01%", amountBase: null, unlimited: false, usd: null, kind: "builderFee" };
  return facts({ actionFamily: "permission", actionType: "approveBuilderFee", summary: "approve builder fee", approvals: [a] });
};
const pay = () => transfer({ amount: "50", usd: 50, to: PAYEE });
const ctx = { payees: [PAYEE] };
const readings = (intent: string): string[] => (parseIntent(intent).clauses as Array<{ reading: string }>).map((c) => c.reading);

describe("a prohibition that points back", () => {
  it("'Allowances got us drained last spring. Never grant them.' bans approvals, not payments", () => {
    const I = "Pay USDC to context.payees only. Allowances got us drained last spring. Never grant them.";
    expect(verdict(I, approval(), ctx)).toBe("BLOCK");
    expect(readings(I).at(-1)).toBe("constraint");
  });

  it("'Bridges are another story; don't use them' after a payment permission", () => {
    const I = "Pay USDC to context.payees only. Bridging is another story; don't do it.";
    expect(verdict(I, pay(), ctx)).not.toBe("BLOCK");
    expect(readings(I).at(-1)).toBe("constraint");
  });

  it("'Builder fees, never approve them' and 'builder codes cost us, never approve fees for them'", () => {
    expect(verdict("Builder fees, never approve them.", builderFee())).toBe("BLOCK");
    expect(verdict("our builder codes cost us money, never approve fees for them.", builderFee())).toBe("BLOCK");
  });

  it("two candidate activities: the pronoun is left unread, nothing is allowed on it", () => {
    const I = "Pay USDC to context.payees only. Withdrawals and token approvals came up in the audit. Never do them.";
    expect(readings(I)).toContain("not understood");
    expect(verdict(I, pay(), ctx)).not.toBe("ALLOW");
  });

  it("a permission by pronoun ('go ahead and approve it') is never read as a permission", () => {
    const I = "Our new router will want an allowance. Go ahead and approve it.";
    expect(verdict(I, approval())).not.toBe("ALLOW");
  });
});
