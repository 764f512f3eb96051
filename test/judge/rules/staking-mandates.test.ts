/**
 * Staking mandates of a DAO: the total delegated is read from the context figure named for it (never a shorter
 * sibling such as the spot balance under the same parent), "stake only with an approved validator" restates a list
 * given earlier, "unstaking needs a fresh proposal and is thus forbidden" forbids, "SOLX must never leave our
 * wallets" forbids sends and withdrawals. Judged end to end on native Hyperliquid payloads.
 */
import { describe, expect, it } from "vitest";
import { buildJudgeInput } from "../../../src/judge/eval/cli";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { parseIntent } from "../../../src/judge/rules/parse/index";

const GOOD = "0x1212121212121212121212121212121212121212";
const OTHER = "0x3434343434343434343434343434343434343434";
const CTX = { staking: { spot_hype: 50, delegated_hype: 700 }, validators: { ok: { [GOOD]: { name: "Good", status: "active" } }, rest: { [OTHER]: { name: "Other", status: "active" } } } };
const judge = (intent: string, action: unknown, context: Record<string, unknown> = CTX) =>
  evaluateRules(buildJudgeInput({ id: "t", intent, action, venue: "hyperliquid", context, expected: "ALLOW", acceptable: ["ALLOW"], tags: [], why: "" })).verdict;
const delegate = (validator: string, hype: number, isUndelegate = false) =>
  ({ type: "tokenDelegate", hyperliquidChain: "Mainnet", signatureChainId: "0xa4b1", validator, isUndelegate, wei: hype * 1e8, nonce: 1 });
const unread = (intent: string) => parseIntent(intent).clauses.filter((c) => c.reading === "not understood").map((c) => c.clause);

const I =
  "HYPE is staked only with the validators the council lists in context.validators.ok. The keeper may delegate HYPE to an approved validator. " +
  "At most 800 HYPE delegated in total. Unstaking needs a fresh proposal and is thus forbidden. HYPE must never leave our wallets.";

describe("a DAO's staking mandate", () => {
  it("reads every sentence", () => {
    expect(unread(I)).toEqual([]);
    expect(judge(I, delegate(GOOD, 100))).toBe("ALLOW");
  });
  it("the total counts what is delegated (700), not the spot balance under the same parent (50)", () => {
    expect(judge(I, delegate(GOOD, 150))).toBe("BLOCK");
  });
  it("the restated list still binds, and the prohibitions hold", () => {
    expect(judge(I, delegate(OTHER, 10))).toBe("BLOCK");
    expect(judge(I, delegate(GOOD, 10, true))).toBe("BLOCK");
    const send = { type: "spotSend", hyperliquidChain: "Mainnet", signatureChainId: "0xa4b1", destination: OTHER, token: "HYPE:0x0d01dc56dcaaca66ad901c959b4011ec", amount: "5", time: 1 };
    expect(judge(I, send)).toBe("BLOCK");
  });
  it("'an approved validator' with no list anywhere is not read past", () => {
    expect(unread("The keeper may delegate HYPE to an approved validator.").length).toBeGreaterThan(0);
  });
});
