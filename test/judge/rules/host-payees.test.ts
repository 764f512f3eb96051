/**
 * x402 with a payee per host: the payment for a resource must go to the address the rules or the context map give
 * for that resource's host. An address that is listed, but for another host, is refused; so is a host asking to be
 * paid somewhere new. A conditional restatement ("if a seller asks ... elsewhere, don't pay") is not a blanket ban.
 */
import { describe, expect, it } from "vitest";
import { detectAction, resolveVenue } from "../../../src/venues/registry";
import { evaluateRules } from "../../../src/judge/rules/engine";

const USDC_BASE = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const A = "0x1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a";
const B = "0x2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b";
const C = "0x3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c";

function pay(url: string, payTo: string, value = "100000") {
  return {
    x402Version: 2,
    resource: { url, description: "data", mimeType: "application/json" },
    accepted: { scheme: "exact", network: "eip155:8453", amount: value, asset: USDC_BASE, payTo, maxTimeoutSeconds: 60, extra: { name: "USD Coin", version: "2" } },
    payload: { signature: "0x" + "ab".repeat(65), authorization: { from: "0x4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d", to: payTo, value, validAfter: "1800000000", validBefore: "1800000060", nonce: "0x" + "cd".repeat(32) } },
  };
}

function judge(intent: string, action: unknown, context: Record<string, unknown> | null = null): string {
  const facts = detectAction(action, resolveVenue("x402"), context ?? {});
  return evaluateRules({ intent, action, facts, context, reference: null, note: null, preset: "generic" }).verdict;
}

describe("payees per host from a context map", () => {
  const I = "x402 payments in USDC on Base. Only the hosts in context.vendors, each paid at the payee given for that host. At most $0.25 per call.";
  const ctx = { vendors: { "tides.example": { payTo: A }, "pollen.example": { pay_to: B } } };

  it("allows each host paid at its own payee", () => {
    expect(judge(I, pay("https://tides.example/v1/now", A), ctx)).toBe("ALLOW");
    expect(judge(I, pay("https://pollen.example/v1/index", B), ctx)).toBe("ALLOW");
  });

  it("refuses a listed host asking to be paid at the other host's payee", () => {
    expect(judge(I, pay("https://tides.example/v1/now", B), ctx)).toBe("BLOCK");
  });

  it("refuses a listed host asking to be paid at a new address", () => {
    expect(judge(I, pay("https://pollen.example/v1/index", C), ctx)).toBe("BLOCK");
  });

  it("a host map given as plain addresses works the same way", () => {
    const flat = { vendors: { "tides.example": A, "pollen.example": B } };
    expect(judge(I, pay("https://tides.example/v1/now", A), flat)).toBe("ALLOW");
    expect(judge(I, pay("https://tides.example/v1/now", B), flat)).toBe("BLOCK");
  });

  it("without the map the payee cannot be checked", () => {
    expect(judge(I, pay("https://tides.example/v1/now", A), {})).not.toBe("ALLOW");
  });
});

describe("payees per host written in the rules", () => {
  const I = `The assistant pays two feeds (x402, USDC on Base): tides.example, which bills to ${A}, and pollen.example (payTo ${B}). Never more than $0.25 a call.`;

  it("allows each host at its written payee", () => {
    expect(judge(I, pay("https://tides.example/v1/now", A))).toBe("ALLOW");
    expect(judge(I, pay("https://pollen.example/v1/index", B))).toBe("ALLOW");
  });

  it("refuses the pairs crossed, though both the host and the address are listed somewhere", () => {
    expect(judge(I, pay("https://tides.example/v1/now", B))).toBe("BLOCK");
    expect(judge(I, pay("https://pollen.example/v1/index", A))).toBe("BLOCK");
  });

  it("a subdomain of a listed host is not that host", () => {
    expect(judge(I, pay("https://eu.tides.example/v1/now", A))).not.toBe("ALLOW");
  });
});

describe("the conditional restatement", () => {
  const base = `Pay (x402, USDC on Base) only tides.example, which bills to ${A}. Max $0.25 per call.`;

  it("reads as the payee rule again, not as a ban on all payments", () => {
    const I = `${base} If a seller asks to be paid somewhere else, don't pay.`;
    expect(judge(I, pay("https://tides.example/v1/now", A))).toBe("ALLOW");
    expect(judge(I, pay("https://tides.example/v1/now", C))).toBe("BLOCK");
  });

  it("with no payee rule to restate it is not understood, so nothing is allowed", () => {
    const I = "Pay for data with x402 in USDC on Base, up to $0.25 per call. If a service asks to be paid to another address, do not pay it.";
    expect(judge(I, pay("https://tides.example/v1/now", A))).not.toBe("ALLOW");
  });
});
