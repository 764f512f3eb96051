/**
 * A document's title on its own line ("Motion 9 of the Lantern Co-op", "Data Purchasing Policy (Ops, rev. 2)") is
 * not a rule; an abbreviation before a number ("rev. 2") does not end a sentence; a host from a context list keeps
 * its hyphens (a host that differs only in "-" vs "." is another host). x402 payloads go through the real adapter.
 */
import { describe, expect, it } from "vitest";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { parseIntent } from "../../../src/judge/rules/parse/index";
import { detectAction, resolveVenue } from "../../../src/venues/registry";

const readings = (intent: string) => parseIntent(intent).clauses.map((c) => c.reading);
const USDC_BASE = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const PAYEE = "0x4b2C9e0a5D71f3E8a6c1B0d9E2f3A4b5C6d7E8f9";
const payment = (url: string, amount: string) => ({
  x402Version: 2,
  resource: { url, description: "report", mimeType: "application/json" },
  accepted: { scheme: "exact", network: "eip155:8453", amount, asset: USDC_BASE, payTo: PAYEE, maxTimeoutSeconds: 60, extra: { name: "USD Coin", version: "2" } },
  payload: {
    signature: `0x${"ab".repeat(65)}`,
    authorization: { from: "0x1111111111111111111111111111111111111111", to: PAYEE, value: amount, validAfter: "1", validBefore: "9999999999", nonce: `0x${"cd".repeat(32)}` },
  },
});
const judge = (intent: string, action: unknown, context: Record<string, unknown>) =>
  evaluateRules({ intent, action, facts: detectAction(action, resolveVenue("x402"), context), context, reference: null, note: null, preset: "generic" }).verdict;

describe("document titles", () => {
  it("'Motion 9 of the Lantern Co-op' and 'Data Purchasing Policy (Ops, rev. 2)' are titles, not unread limits", () => {
    expect(readings("Motion 9 of the Lantern Co-op. Pay only hosts in context.hosts, at most 0.05 USDC per call.")[0]).toBe("descriptive");
    const I = "Data Purchasing Policy (Ops, rev. 2).\nSection 1. Pay only the hosts in context.hosts.\nSection 2. A single payment shall not exceed USD 0.40.";
    expect(readings(I)).not.toContain("not understood");
  });

  it("a title-shaped line that carries a limit is still read as a rule", () => {
    expect(readings("Spending Policy 4: never above $50 a day")).not.toContain("descriptive");
    expect(readings("Motion 3 of the Co-op: max $20 per call")[0]).not.toBe("descriptive");
  });
});

describe("hosts with hyphens from a context list", () => {
  const I = "x402 rules. Pay only the hosts listed in context.hosts. At most 0.40 USDC per call.";
  const ctx = { hosts: ["feeds.rate-desk.example", "tiles.map-co.example"] };

  it("a listed hyphenated host is allowed", () => {
    expect(judge(I, payment("https://feeds.rate-desk.example/v1/eur", "300000"), ctx)).toBe("ALLOW");
  });

  it("a host that differs only in '-' vs '.' is not the listed one", () => {
    expect(judge(I, payment("https://feeds.rate.desk.example/v1/eur", "300000"), ctx)).toBe("BLOCK");
    expect(judge(I, payment("https://feeds-rate-desk.example/v1/eur", "300000"), ctx)).toBe("BLOCK");
  });

  it("the per-call cap still binds a listed host", () => {
    expect(judge(I, payment("https://tiles.map-co.example/z/1", "410000"), ctx)).toBe("BLOCK");
  });
});
