/**
 * Session 22 (blind36): the structure and the paperwork around a mandate. Records of how the rules were adopted,
 * reports made after the fact, the route for exceptions and "ask me when unsure" restrict nothing (parse/procedure.ts);
 * a lead-in to the rule list is a label; settings nested under an activity's key bind that activity
 * (structure/sections.ts); a colon title over bullets scopes them with its polarity (structure/titles.ts); closers
 * close. Each block has its unsafe side: a record or report that carries a rule still binds, a human line that holds
 * the action first still escalates, a setting outside an activity section binds everything, a prohibiting title never
 * grants, and a closer with a figure is no closer.
 */
import { describe, expect, it } from "vitest";
import { encodeFunctionData, erc20Abi, type Hex } from "viem";
import { buildJudgeInput } from "../../../src/judge/eval/cli";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { parseIntent } from "../../../src/judge/rules/parse/index";
import { lineExempt } from "../../../src/judge/rules/parse/cap-activity";
import { isLeadIn, isProcedure } from "../../../src/judge/rules/parse/procedure";
import { readSections } from "../../../src/judge/rules/structure/sections";
import { protect, newRefs } from "../../../src/judge/rules/text";

const USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const WALLET = "0x2323232323232323232323232323232323232323";
const MEMBER = "0x3434343434343434343434343434343434343434";
const STRANGER = "0x4545454545454545454545454545454545454545";
const VAULT = "0x5656565656565656565656565656565656565656";
const pay = (to: string, usdc: number) => ({ chainId: 8453, from: WALLET, to: USDC, value: "0", data: encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [to as Hex, BigInt(Math.round(usdc * 1e6))] }) });
const approve = (spender: string, usdc: number) => ({ chainId: 8453, from: WALLET, to: USDC, value: "0", data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [spender as Hex, BigInt(usdc * 1e6)] }) });
const EVM = { wallet: WALLET, members: [MEMBER], vendors: [MEMBER], tokens: { [USDC]: { symbol: "USDC", decimals: 6 } } };

const sig = { hyperliquidChain: "Mainnet", signatureChainId: "0xa4b1" };
const HL = { assets: { "0": "BTC", "1": "ETH" }, prices: { BTC: 90000, ETH: 3000 }, vault: VAULT };
const order = (a: number, p: string, s: string) => ({ type: "order", orders: [{ a, b: true, p, s, r: false, t: { limit: { tif: "Gtc" } } }], grouping: "na" });
const withdraw = (destination: string, amount: string) => ({ type: "withdraw3", ...sig, amount, time: 1, destination: destination.toLowerCase() });
const twap = { type: "twapOrder", twap: { a: 0, b: true, s: "0.01", r: false, m: 20, t: false } };
const builderFee = { type: "approveBuilderFee", ...sig, maxFeeRate: "0.01%", builder: STRANGER.toLowerCase(), nonce: 1 };

const judge = (intent: string, action: unknown, venue: string, context: Record<string, unknown>) =>
  evaluateRules(buildJudgeInput({ id: "t", intent, action, venue, context, expected: "ALLOW", acceptable: ["ALLOW"], tags: [], why: "" })).verdict;
const unread = (intent: string) => parseIntent(intent).clauses.filter((c) => c.reading === "not understood").map((c) => c.clause);

describe("records of adoption, reports and procedure restrict nothing", () => {
  const MOTION = `Motion 12 of the Fernhill Collective (carried 40-3), passed by token vote on 9 May (quorum met, 92% in favour).
The payout agent may send USDC to the members in context.members, up to 300 USDC per transfer. Payouts above 250 USDC are disclosed to the members in arrears. Any deviation from these rules needs sign-off from the CFO. When in doubt, check with Priya.`;
  it("the mandate reads whole; its caps and payees still bind", () => {
    expect(unread(MOTION)).toEqual([]);
    expect(judge(MOTION, pay(MEMBER, 280), "evm", EVM)).toBe("ALLOW");
    expect(judge(MOTION, pay(MEMBER, 400), "evm", EVM)).toBe("BLOCK");
    expect(judge(MOTION, pay(STRANGER, 50), "evm", EVM)).toBe("BLOCK");
  });

  it("a record that carries a rule is a rule", () => {
    const I = "Motion 4 (carried 12-1): no payments above 100 USDC.\nThe agent may send USDC to context.members.";
    expect(judge(I, pay(MEMBER, 200), "evm", EVM)).toBe("BLOCK");
    expect(isProcedure("Motion 4 (carried 12-1): no payments above 100 USDC")).toBe(false);
  });

  it("a report that holds the action for someone first is a human line, not a report", () => {
    const I = "The agent may send USDC to context.members, up to 300 USDC per transfer. Payouts above 250 USDC are reported to the treasurer for approval first.";
    expect(judge(I, pay(MEMBER, 280), "evm", EVM)).not.toBe("ALLOW");
    expect(isProcedure("Payouts above 250 USDC are reported to the treasurer before they go out")).toBe(false);
    expect(isProcedure("Payouts above 250 USDC are reported to the treasurer, max 2 per day")).toBe(false);
  });

  it("a body that must see it first holds the action above its line", () => {
    const I = "The agent may send USDC to context.members. Payouts over 150 USDC require the stewards beforehand. Cap 400 USDC per payout.";
    expect(judge(I, pay(MEMBER, 100), "evm", EVM)).toBe("ALLOW");
    expect(judge(I, pay(MEMBER, 200), "evm", EVM)).toBe("ESCALATE");
    const J = "The agent may send USDC to context.members. Payouts over 150 USDC need board approval.";
    expect(judge(J, pay(MEMBER, 200), "evm", EVM)).toBe("ESCALATE");
  });
});

describe("a lead-in to the rules is a label", () => {
  it("pointers at what follows restrict nothing", () => {
    expect(isLeadIn("Following the board meeting, the bot must observe the following rules:")).toBe(true);
    expect(isLeadIn("Per the ops review, here are the updated rules for the desk bot:")).toBe(true);
    expect(isLeadIn("Acting for the Moreau trust you are empowered to run its Hyperliquid account under these limits:")).toBe(true);
  });
  it("a lead-in that itself limits is no lead-in", () => {
    expect(isLeadIn("You may only send USDC within these limits:")).toBe(false);
    expect(isLeadIn("Weekly x402 budget:")).toBe(false);
    expect(isLeadIn("Never go beyond these limits:")).toBe(false);
  });
  it("the rules after a lead-in bind", () => {
    const I = "Following the board meeting, the bot must observe the following rules:\n- only BTC perps\n- max $5k notional per order";
    expect(judge(I, order(0, "90000", "0.05"), "hyperliquid", HL)).toBe("ALLOW");
    expect(judge(I, order(1, "3000", "0.5"), "hyperliquid", HL)).toBe("BLOCK");
    expect(judge(I, order(0, "90000", "0.1"), "hyperliquid", HL)).toBe("BLOCK");
  });
});

describe("settings under an activity's key bind that activity", () => {
  const CFG = "asset: USDC\npayments:\n  max: 400\n  needs_owner_approval_over: 250\n  recipient: context.vendors";
  it("cap, human line and recipient are the payments' own", () => {
    expect(readSections(CFG)).toContain("Payments above 250 USDC require human approval.");
    expect(judge(CFG, pay(MEMBER, 200), "evm", EVM)).toBe("ALLOW");
    expect(judge(CFG, pay(MEMBER, 300), "evm", EVM)).toBe("ESCALATE");
    expect(judge(CFG, pay(MEMBER, 500), "evm", EVM)).toBe("BLOCK");
    expect(judge(CFG, pay(STRANGER, 100), "evm", EVM)).toBe("BLOCK");
  });
  it("a human line under withdrawals does not hold an order; it holds a withdrawal", () => {
    const I = "trading: BTC perps only, max $5k notional per order\nwithdrawals:\n  to: context.vault\n  require human above: 1000 USDC";
    expect(judge(I, order(0, "90000", "0.04"), "hyperliquid", HL)).toBe("ALLOW");
    expect(judge(I, withdraw(VAULT, "600"), "hyperliquid", HL)).toBe("ALLOW");
    expect(judge(I, withdraw(VAULT, "1500"), "hyperliquid", HL)).toBe("ESCALATE");
    expect(judge(I, withdraw(STRANGER, "100"), "hyperliquid", HL)).toBe("BLOCK");
  });
  it("a threshold outside any activity section binds everything, and a bare figure takes no unit it was not given", () => {
    expect(readSections("alerts:\n  require human above: 100 USDC")).toContain("Anything above 100 USDC requires human approval.");
    expect(readSections("withdrawals:\n  require human above: 2000")).toContain("Withdrawals above 2000 require");
    const I = "The agent may send USDC to context.members.\nalerts:\n  require human above: 100 USDC   # hold for a human";
    expect(judge(I, pay(MEMBER, 200), "evm", EVM)).toBe("ESCALATE");
  });
  it("a comment that says more than the hold is kept", () => {
    expect(readSections("require human above: $50 # and never on weekends")).toContain("and never on weekends");
  });
  it("a line on withdrawals exempts only deposits into a pool", () => {
    expect(lineExempt("Withdrawals ")).toEqual(["supply", "vault_deposit"]);
    expect(lineExempt("Any withdrawal or transfer ")).toBeUndefined();
    expect(lineExempt("Deposits ")).toBeUndefined();
  });
  it("'none' says the thing is not done, but never on a limit key", () => {
    const I = "only BTC perps\nbuilder fees: none configured\napprovals: none";
    expect(judge(I, builderFee, "hyperliquid", HL)).toBe("BLOCK");
    expect(readSections("max slippage: none")).toBe("max slippage: none");
    expect(judge("The agent may send USDC to context.members.\napprovals: none", approve(STRANGER, 10), "evm", EVM)).toBe("BLOCK");
  });
  it("rows of a list are left to the row reader", () => {
    const rows = "transfers:\n  - token: USDC\n    to: context.members\n    max: 10";
    expect(readSections(rows)).toBe(rows);
  });
});

describe("titles ending in a colon over bullets", () => {
  it("a prohibiting title keeps its polarity with no blank line before it", () => {
    const I = "Permitted:\n- BTC perps\nNot permitted:\n- TWAP orders\n- withdrawals";
    expect(judge(I, order(0, "90000", "0.01"), "hyperliquid", HL)).toBe("ALLOW");
    expect(judge(I, twap, "hyperliquid", HL)).toBe("BLOCK");
    expect(judge(I, withdraw(VAULT, "10"), "hyperliquid", HL)).toBe("BLOCK");
  });
  it("an exception inside a prohibiting title names the only destination and grants nothing", () => {
    const I = "Withdrawals are fine.\nForbidden:\n- withdrawing to any address other than the vault (context.vault)";
    expect(judge(I, withdraw(VAULT, "100"), "hyperliquid", HL)).toBe("ALLOW");
    expect(judge(I, withdraw(STRANGER, "100"), "hyperliquid", HL)).toBe("BLOCK");
    const J = "Only BTC perps.\nForbidden:\n- withdrawing to any address other than the vault (context.vault)";
    expect(judge(J, withdraw(VAULT, "100"), "hyperliquid", HL)).not.toBe("ALLOW");
  });
  it("'anyone else' under a prohibiting title closes the list", () => {
    const I = "Allowed:\n- send USDC to context.members\nForbidden:\n- anyone else";
    expect(judge(I, pay(MEMBER, 20), "evm", EVM)).toBe("ALLOW");
    expect(judge(I, pay(STRANGER, 20), "evm", EVM)).toBe("BLOCK");
  });
});

describe("closers", () => {
  it("'everything else is off' and 'nothing in this mandate authorises X' close the permissions", () => {
    const I = "The agent may send USDC to context.members. Everything else is off.";
    expect(judge(I, pay(MEMBER, 20), "evm", EVM)).toBe("ALLOW");
    expect(judge(I, approve(STRANGER, 20), "evm", EVM)).toBe("BLOCK");
    const J = "The agent may send USDC to context.members. Nothing in this mandate authorises approvals to third parties.";
    expect(judge(J, approve(STRANGER, 20), "evm", EVM)).toBe("BLOCK");
  });
  it("a 'nothing authorises' line with a figure is no closer", () => {
    const I = "The agent may send USDC to context.members. Nothing in this mandate authorises payments above 100 USDC.";
    expect(judge(I, pay(MEMBER, 150), "evm", EVM)).not.toBe("ALLOW");
  });
});

it("'... only' at a line's end, then a paragraph opening 'If', is not 'only I'", () => {
  const s = protect("USDC on Base only\n\nIf a payment is over $50, ask me.", newRefs());
  expect(s).not.toMatch(/never/);
  expect(judge("The agent may send USDC to context.members, on Base only\n\nIf a payment is over $50, ask me.", pay(MEMBER, 60), "evm", EVM)).toBe("ESCALATE");
});
