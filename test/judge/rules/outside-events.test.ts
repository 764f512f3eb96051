/**
 * Session 24: sentences about the people, processes and schedules around the agent ("the controller reconciles the
 * books on Fridays", "payroll is processed on the 5th and the 20th") describe what others do; they must neither hold
 * a clean action nor limit it (parse/outside-events.ts). Each block has its unsafe side: a schedule that binds the
 * agent, an approval the agent's action waits for, and a person's review above a figure still hold or refuse.
 */
import { describe, expect, it } from "vitest";
import { encodeFunctionData, erc20Abi, type Hex } from "viem";
import { buildJudgeInput } from "../../../src/judge/eval/cli";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { parseIntent } from "../../../src/judge/rules/parse/index";
import { isOutsideEvent } from "../../../src/judge/rules/parse/outside-events";

const USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const WALLET = "0x2323232323232323232323232323232323232323";
const VENDOR = "0x3434343434343434343434343434343434343434";
const STRANGER = "0x4545454545454545454545454545454545454545";
const pay = (to: string, usdc: number) => ({ chainId: 8453, from: WALLET, to: USDC, value: "0", data: encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [to as Hex, BigInt(Math.round(usdc * 1e6))] }) });
const EVM = { wallet: WALLET, vendors: [VENDOR], tokens: { [USDC]: { symbol: "USDC", decimals: 6 } } };
const judge = (intent: string, action: unknown = pay(VENDOR, 200)) =>
  evaluateRules(buildJudgeInput({ id: "t", intent, action, venue: "evm", context: EVM, expected: "ALLOW", acceptable: ["ALLOW"], tags: [], why: "" })).verdict;
const unread = (intent: string) => parseIntent(intent).clauses.filter((c) => c.reading === "not understood").map((c) => c.clause);

const RULES = "Pay vendors in context.vendors in USDC on Base, at most 400 USDC per payment.";

describe("what others do around the agent is background", () => {
  const LINES = [
    "Payroll is processed on the 5th and the 20th.",
    "The controller reconciles the books every Friday.",
    "Receipts get checked at 09:30 CET by Tomas.",
    "Quotes are signed off in Linear before they reach the agent.",
    "This policy is audited by the treasury committee twice a year and supersedes OPS-7.",
    "Most data APIs cost a fraction of a cent a request.",
    "Yield goes to our own treasury.",
    "The offsite runs 8-10 October.",
    "Dana updates the vendor sheet on Thursdays.",
  ];
  for (const line of LINES)
    it(line, () => {
      const I = `${RULES} ${line}`;
      expect(isOutsideEvent(line)).toBe(true);
      expect(unread(I)).toEqual([]);
      expect(judge(I)).toBe("ALLOW");
      // the rules around it still bind
      expect(judge(I, pay(VENDOR, 900))).toBe("BLOCK");
      expect(judge(I, pay(STRANGER, 50))).toBe("BLOCK");
    });
});

describe("unsafe side: the same shapes that bind the agent", () => {
  it("a schedule for the agent's own actions is not background", () => {
    for (const s of [
      "The agent pays only on Fridays",
      "Payments are processed on the 5th and the 20th only",
      "Payroll is processed on the 5th and 20th - never pay on other days",
      "Payroll is processed on the 5th and the 20th, not on other days",
      "the bot runs only at night",
      "We pay invoices on the 5th",
      "Salaries go out on the 25th",
      "Yield goes to 0x4545454545454545454545454545454545454545",
    ])
      expect(isOutsideEvent(s), s).toBe(false);
    expect(judge(`${RULES} Payroll is processed on the 5th and 20th - never pay on other days.`)).not.toBe("ALLOW");
    expect(judge(`${RULES} The agent pays only on Fridays.`)).not.toBe("ALLOW");
  });

  it("an approval the agent's action waits for holds it", () => {
    for (const s of ["Quotes must be signed off in Linear before you pay them", "Quotes are signed off in Linear before you pay them", "Quotes are approved by Dana", "Each payment is approved by Dana"])
      expect(isOutsideEvent(s), s).toBe(false);
    expect(judge(`${RULES} Quotes must be signed off in Linear before you pay them.`)).not.toBe("ALLOW");
    expect(judge(`${RULES} Quotes are approved by Dana.`)).not.toBe("ALLOW");
  });

  it("a person's review above a figure the action could exceed is no background", () => {
    for (const s of ["The controller reviews anything over $300", "Tomas checks payments above 300 USDC", "Most data APIs cost up to 2 USDC a request", "The controller reconciles 300 USDC every Friday"])
      expect(isOutsideEvent(s), s).toBe(false);
    expect(judge(`${RULES} The controller reviews anything over $300.`, pay(VENDOR, 350))).not.toBe("ALLOW");
  });
});
