/**
 * "pay Noor (0x...) or Tomas (0x...)": a name written before a parenthesised address names that address, as
 * "Noor 0x..." does (parse/items.ts). The payee list is the addresses; anyone else is still refused.
 */
import { describe, expect, it } from "vitest";
import { encodeFunctionData, erc20Abi, type Hex } from "viem";
import { buildJudgeInput } from "../../../src/judge/eval/cli";
import { evaluateRules } from "../../../src/judge/rules/engine";

const W: Hex = "0x1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a";
const NOOR: Hex = "0x2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b";
const TOMAS: Hex = "0x3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c";
const OTHER: Hex = "0x4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d";
const USDC: Hex = "0xaf88d065e77c8cC2239327C5EDb3A432268e5831";
const ctx = { wallet: W, tokens: { [USDC]: { symbol: "USDC", decimals: 6 } } };
const pay = (to: Hex, amount: bigint) => ({ chainId: 42161, from: W, to: USDC, value: "0", data: encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [to, amount] }) });
const judge = (intent: string, action: unknown) => evaluateRules(buildJudgeInput({ id: "t", intent, action, venue: "evm", context: ctx, expected: "ALLOW" } as never)).verdict;

describe("a name before a parenthesised address", () => {
  const I = `Arbitrum wallet. The agent may pay USDC to Noor (${NOOR}) and Tomas (${TOMAS}), up to 600 USDC a payment.`;
  it("the named addresses are the payees", () => {
    expect(judge(I, pay(NOOR, 450_000_000n))).toBe("ALLOW");
    expect(judge(I, pay(TOMAS, 600_000_000n))).toBe("ALLOW");
  });
  it("unsafe side: another address, or over the cap, is not allowed", () => {
    expect(judge(I, pay(OTHER, 10_000_000n))).toBe("BLOCK");
    expect(judge(I, pay(NOOR, 900_000_000n))).toBe("BLOCK");
  });
});
