import { describe, expect, it } from "vitest";
import { detectAction } from "../../src/venues/registry";
import { evaluateRules } from "../../src/judge/rules/engine";

const BRIDGED_USDC = "0x053c91253bc9682c04929ca02ed00b3e423f6710d2ee7e0d5ebb06f3ecf368a8";
const STRK = "0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d";
const BOB = "0x0512d4f8b1d21b3c44e1d1ad30c4f80dbd3bb9e6f2f1a3ae8a45fb21a3b4c111";
const EVE = "0x0677aa0f9d2d1a5d3b51d1d44f88b4f84c0ab1e1ec3a8f9aa1e0a6e6b3c5d222";

const transfer = (token: string, to: string, base: string) => ({ contractAddress: token, entrypoint: "transfer", calldata: [to, base, "0"] });

describe("starknet call shapes", () => {
  it("a lone Call object (not wrapped in an array) is decoded like a one-call multicall, with or without a venue", () => {
    const one = transfer(STRK, BOB, "7000000000000000000");
    for (const venue of [null, "starknet"] as const) {
      const f = detectAction(one, venue, {});
      expect(f).toMatchObject({ venue: "starknet", actionFamily: "transfer", recipients: [BOB] });
      expect(f?.transfers?.[0]).toMatchObject({ asset: "STRK", amount: "7" });
    }
  });

  it("an object that only looks partly like a Call is not taken for one", () => {
    expect(detectAction({ contractAddress: STRK, calldata: [] }, null, {})).toBeNull();
    expect(detectAction({ entrypoint: "transfer", calldata: [] }, null, {})).toBeNull();
  });

  it("bridged USDC is USDC when the owner's context calls it USDC, and stays USDC.E otherwise", () => {
    const call = [transfer(BRIDGED_USDC, BOB, "12000000")];
    expect(detectAction(call, "starknet", { tokens: { [BRIDGED_USDC]: { symbol: "USDC", decimals: 6 } } })?.transfers?.[0]).toMatchObject({ asset: "USDC", amount: "12" });
    expect(detectAction(call, "starknet", {})?.transfers?.[0].asset).toBe("USDC.E");
    // a context that names a registry token as something else does not rename it
    expect(detectAction([transfer(STRK, BOB, "1")], "starknet", { tokens: { [STRK]: { symbol: "USDC", decimals: 18 } } })?.transfers?.[0].asset).toBe("STRK");
  });
});

describe("rules over these shapes", () => {
  const judge = (intent: string, action: unknown, context: Record<string, unknown>) =>
    evaluateRules({ intent, action, facts: detectAction(action, "starknet", context), context, reference: null, note: null, preset: "generic" }).verdict;
  const ctx = { crew: { [BOB]: "bob" }, tokens: { [BRIDGED_USDC]: { symbol: "USDC", decimals: 6 } } };
  const intent = "Pay the people in context.crew in USDC, at most 500 USDC per transfer.";

  it("a lone call paying a listed person within the cap is allowed", () => {
    expect(judge(intent, transfer(BRIDGED_USDC, BOB, "480000000"), ctx)).toBe("ALLOW");
  });

  it("a lone call over the cap, or to someone unlisted, is blocked", () => {
    expect(judge(intent, transfer(BRIDGED_USDC, BOB, "500000001"), ctx)).toBe("BLOCK");
    expect(judge(intent, transfer(BRIDGED_USDC, EVE, "10000000"), ctx)).toBe("BLOCK");
  });

  it("STRK labelled USDC in context is still STRK to a USDC-only rule", () => {
    const fake = { ...ctx, tokens: { [STRK]: { symbol: "USDC", decimals: 6 } } };
    expect(judge(intent, transfer(STRK, BOB, "1000000"), fake)).not.toBe("ALLOW");
  });
});
