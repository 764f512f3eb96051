/**
 * Venue adapter warnings carry a code and a severity (src/venues/warnings.ts), and the rules engine acts on
 * the severity: `block` refuses, `warn` asks a human, `info` decides nothing, and a warning no catalogue entry
 * knows escalates instead of being dropped (it once was: three regular expressions in the engine sorted the
 * English text, and a warning matching none vanished).
 */
import { describe, expect, it } from "vitest";
import { evaluateRules } from "../../src/judge/rules/engine";
import { detectAction } from "../../src/venues/registry";
import { UNCLASSIFIED, VENUE_WARNING_CODES, venueWarning } from "../../src/venues/warnings";
import { input, orderFacts } from "../judge/rules/helpers";

const HL = "Trade only BTC and ETH perpetuals on Hyperliquid. Max notional $2,000 per order. Leverage at most 5x. Never withdraw or transfer funds.";

describe("the warning catalogue", () => {
  it("gives every code one of the known severities", () => {
    for (const [code, severity] of VENUE_WARNING_CODES) {
      expect(code).toMatch(/^[a-z][a-z0-9_]*$/);
      expect(["info", "warn", "block"]).toContain(severity);
    }
  });

  it.each([
    ["the authorization value 2000000 differs from the accepted amount 1000000", "payload_contradiction", "block"],
    ["unlimited approval of USDC to 0x1111111111111111111111111111111111111111", "broad_permission", "warn"],
    ["unknown token 0x2222222222222222222222222222222222222222 on 8453: symbol and decimals not known", "unknown_asset", "warn"],
    ["amountOutMinimum is zero: no slippage protection", "no_slippage_protection", "warn"],
    ["no context price for WIF: USD value unknown", "price_unknown", "info"],
    ["full balance (amount = max uint256)", "full_balance", "info"],
    // Wordings that matched none of the engine's old expressions, and so were dropped unread:
    ["approveAgent grants an agent wallet trading rights over the whole account", "broad_permission", "warn"],
    ["requestWithdrawals sent to 0x3333333333333333333333333333333333333333, which is not the Lido withdrawal queue", "wrong_contract", "warn"],
    ["no decodable swap in the Universal Router commands", "not_decoded", "warn"],
  ])("%s -> %s (%s)", (message, code, severity) => {
    expect(venueWarning(message)).toEqual({ code, severity, message });
  });

  it("gives a wording it does not know the code unclassified and severity warn", () => {
    expect(venueWarning("the moon is in the seventh house")).toEqual({ code: UNCLASSIFIED, severity: "warn", message: "the moon is in the seventh house" });
  });
});

describe("the rules engine acts on the severity", () => {
  const clean = orderFacts({ notionalUsd: 1_941 });
  const withWarning = (w: string) => ({ ...clean, warnings: [w] });

  it("allows the clean order, and still allows it with an info warning", () => {
    expect(evaluateRules(input(HL, {}, clean, null)).verdict).toBe("ALLOW");
    expect(evaluateRules(input(HL, {}, withWarning("no context price for BTC: USD value unknown"), null)).verdict).toBe("ALLOW");
  });

  it("escalates on a warn warning and on one the catalogue does not know, naming it", () => {
    const known = evaluateRules(input(HL, {}, withWarning("leverage missing or not a number"), null));
    expect(known.verdict).toBe("ESCALATE");
    const unknown = evaluateRules(input(HL, {}, withWarning("the moon is in the seventh house"), null));
    expect(unknown.verdict).toBe("ESCALATE");
    expect(unknown.reasoning).toContain("the moon is in the seventh house");
  });

  it("blocks on a block warning (the payload contradicts itself)", () => {
    const r = evaluateRules(input(HL, {}, withWarning("the authorization value 2000000 differs from the accepted amount 1000000"), null));
    expect(r.verdict).toBe("BLOCK");
    expect(r.reasoning).toMatch(/contradicts itself/);
  });

  it("no longer drops a real adapter's warning: an approveAgent the intent does not mention escalates", () => {
    const action = { type: "approveAgent", hyperliquidChain: "Mainnet", signatureChainId: "0xa4b1", agentAddress: "0x7cD9eF0a1B2c3D4e5F6a7B8c9D0e1F2a3B4c5D6e", agentName: "x", nonce: 1 };
    const facts = detectAction(action, "hyperliquid", null);
    expect(facts?.warnings).toContain("approveAgent grants an agent wallet trading rights over the whole account");
    const r = evaluateRules(input("Trade BTC perps on Hyperliquid.", action, facts, null));
    expect(r.verdict).not.toBe("ALLOW");
    // The warning itself is now weighed (before, only the permission check caught this action).
    expect(r.unknowns).toContain("The venue adapter warns: approveAgent grants an agent wallet trading rights over the whole account.");
  });
});
