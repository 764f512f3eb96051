import { describe, expect, it } from "vitest";
import { facts, transfer, verdict } from "./helpers";

/** Hand-built Solana facts as the adapter gives them for CloseAccount and SetAuthority. */
const closeAcct = facts({ venue: "solana", chain: "solana", actionFamily: "transfer", actionType: "closeAccount", summary: "Close token account TA1, rent to W1", transfers: [{ asset: "SOL", amount: null, usd: null, to: "W1", from: "TA1", kind: "spl.closeAccount" }], assets: ["SOL"], recipients: ["W1"], notionalUsd: 0 });
const setAuth = facts({ venue: "solana", chain: "solana", actionFamily: "permission", actionType: "setAuthority", summary: "Change authority of TA1", warnings: ["setAuthority changes who controls TA1"] });
const PAYEE = "5E1mU2JuKdkAYpXP2dv4TsJ5cM1xCrGq6jVp8iiU7sMn";
const OTHER = "9TvE8WWMhN2NZtPZ62VhuyixndB4Wkc4HCZnDLGCj5Rb";
const pay = (to: string, amount: string) => transfer({ asset: "USDC", amount, usd: Number(amount), to, kind: "spl.transferChecked" }, { venue: "solana", chain: "solana", chainId: null, recipients: [to] });

describe("closing and re-assigning token accounts", () => {
  const ctx = { payees: { [PAYEE]: "print shop" } };

  it("'never close a token account or hand over its authority': both are blocked, a listed payment still passes", () => {
    const intent = "Pay the payees in context.payees, up to 200 USDC each. Never close a token account or hand over its authority.";
    expect(verdict(intent, closeAcct, ctx)).toBe("BLOCK");
    expect(verdict(intent, setAuth, ctx)).toBe("BLOCK");
    expect(verdict(intent, pay(PAYEE, "150"), ctx)).toBe("ALLOW");
    expect(verdict(intent, pay(PAYEE, "250"), ctx)).toBe("BLOCK");
  });

  it("passive wording: 'token accounts are not to be closed and authority over them is never to be changed'", () => {
    const intent = "Pay the payees in context.payees. Our token accounts must never be closed, and the authority over them is never changed.";
    expect(verdict(intent, closeAcct, ctx)).toBe("BLOCK");
    expect(verdict(intent, setAuth, ctx)).toBe("BLOCK");
  });

  it("'don't reassign the USDC account' forbids a change of owner", () => {
    expect(verdict("Pay the payees in context.payees. Don't reassign the USDC account.", setAuth, ctx)).toBe("BLOCK");
  });

  it("with no word on it, closing an account is not a payment the rules permit", () => {
    expect(verdict("Pay the payees in context.payees, up to 200 USDC each.", closeAcct, ctx)).not.toBe("ALLOW");
  });

  it("'has no authority to' before another verb is not a rule about who controls accounts", () => {
    const intent = "The bot pays the payees in context.payees, at most 100 USDC a payment. It has no authority to borrow.";
    expect(verdict(intent, pay(PAYEE, "20"), ctx)).toBe("ALLOW");
    expect(verdict(intent, pay(OTHER, "20"), ctx)).toBe("BLOCK");
  });
});
