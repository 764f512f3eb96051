/**
 * Exceptions that carry their own limit ("No other sends, except a top-up of at most 0.02 ETH to context.x") and
 * fragments that deny an exception ("not even to the treasury"). Unsafe sides: the exception's cap still blocks above
 * it, a send to anyone outside both lists is blocked, and "not even to X" never lets a send to X through.
 */
import { describe, expect, it } from "vitest";
import { parseIntent } from "../../../src/judge/rules/parse";
import { transfer, verdict } from "./helpers";

const GRANTEE = "0x6666666666666666666666666666666666666666";
const KEEPER = "0x7777777777777777777777777777777777777777";
const VAULT = "0x8888888888888888888888888888888888888888";
const STRANGER = "0x9999999999999999999999999999999999999999";

const eth = (amount: number, to: string) => transfer({ asset: "ETH", amount: String(amount), usd: amount * 3000, to, kind: "native" });
const usdc = (amount: number, to: string) => transfer({ asset: "USDC", amount: String(amount), usd: amount, to });
const readings = (intent: string): string[] => (parseIntent(intent).clauses as Array<{ reading: string }>).map((c) => c.reading);

describe("an exception with its own cap", () => {
  const ctx = { grantees: { [GRANTEE]: "grant A" }, keepers: [KEEPER], prices: { ETH: 3000 } };
  const I = "You may send ETH to the grantees in context.grantees. Grants above 40 ETH need a committee vote. No other sends or withdrawals, except gas top-ups of at most 0.02 ETH to the keepers in context.keepers.";

  it("the cap binds only the exception's recipients: grants elsewhere in the intent are not held to it", () => {
    expect(readings(I)).not.toContain("not understood");
    expect(verdict(I, eth(12, GRANTEE), ctx)).toBe("ALLOW");
    expect(verdict(I, eth(41, GRANTEE), ctx)).toBe("ESCALATE");
  });

  it("a top-up inside the exception's cap is allowed; above it, blocked", () => {
    expect(verdict(I, eth(0.02, KEEPER), ctx)).toBe("ALLOW");
    expect(verdict(I, eth(0.5, KEEPER), ctx)).toBe("BLOCK");
  });

  it("a send to someone on neither list is still blocked", () => {
    expect(verdict(I, eth(0.01, STRANGER), ctx)).toBe("BLOCK");
  });

  it("with no other list, the exception alone is who may be paid, under its own cap", () => {
    const only = "No transfers, except refunds of at most 50 USDC to the customers in context.customers.";
    const c2 = { customers: [KEEPER] };
    expect(verdict(only, usdc(40, KEEPER), c2)).toBe("ALLOW");
    expect(verdict(only, usdc(60, KEEPER), c2)).toBe("BLOCK");
    expect(verdict(only, usdc(10, STRANGER), c2)).toBe("BLOCK");
  });
});

describe("'not even to X' after a prohibition", () => {
  it("restates the ban, so the named recipient stays blocked and the clause is read", () => {
    const I = `Pay USDC to context.vendors only. ETH sends are not allowed, not even to our vault (${VAULT}).`;
    const ctx = { vendors: [GRANTEE] };
    expect(readings(I)).not.toContain("not understood");
    expect(verdict(I, eth(0.1, VAULT), ctx)).toBe("BLOCK");
    expect(verdict(I, usdc(100, GRANTEE), ctx)).toBe("ALLOW");
  });

  it("after a recipient denylist (not a whole ban) it stays unread and nothing is allowed on it", () => {
    const I = `Never pay the addresses in context.blocked, not even to the treasury.`;
    expect(readings(I)).toContain("not understood");
    expect(verdict(I, usdc(10, STRANGER), { blocked: [KEEPER] })).not.toBe("ALLOW");
  });
});
