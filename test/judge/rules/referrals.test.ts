/**
 * Decisions sent to a human in an owner's own words (a role, a channel, a first name, signers, a band), and actions
 * said to need nobody. Each shape is probed on the side it must stop: above a referral line the action is never
 * allowed and never refused as if the line were a cap; "no need to ask" never permits what no other rule permits;
 * a doubt about a list the rules do not check stays a question.
 */
import { describe, expect, it } from "vitest";
import { buildJudgeInput } from "../../../src/judge/eval/cli";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { parseIntent } from "../../../src/judge/rules/parse/index";
import { transfer } from "./helpers";
import { verdict as factsVerdict } from "./helpers";

const CTX = { assets: { "0": "BTC", "1": "ETH", "5": "SOL" }, prices: { BTC: 80000, ETH: 2500, SOL: 100 } };
const judge = (intent: string, action: unknown, context: Record<string, unknown> = CTX) =>
  evaluateRules(buildJudgeInput({ id: "t", intent, action, venue: "hyperliquid", context, expected: "ALLOW", acceptable: ["ALLOW"], tags: [], why: "" })).verdict;
/** A limit order worth `usd` dollars on asset index `a` (ETH at $2,500 unless said). */
const order = (usd: number, a = 1, buy = true, reduceOnly = false) => {
  const px = a === 0 ? 80000 : a === 5 ? 100 : 2500;
  return { type: "order", orders: [{ a, b: buy, p: String(px), s: String(usd / px), r: reduceOnly, t: { limit: { tif: "Gtc" } } }], grouping: "na" };
};
const cancel = { type: "cancel", cancels: [{ a: 1, o: 123 }] };
const withdraw = (amount: string) => ({ type: "withdraw3", hyperliquidChain: "Mainnet", signatureChainId: "0xa4b1", destination: "0x6666666666666666666666666666666666666666", amount, time: 1 });
const agent = { type: "approveAgent", hyperliquidChain: "Mainnet", signatureChainId: "0xa4b1", agentAddress: "0x5555555555555555555555555555555555555555", agentName: "k2", nonce: 1 };
const unread = (intent: string) => parseIntent(intent).clauses.filter((c) => c.reading === "not understood").map((c) => c.clause);

describe("a referral to a role, a channel, signers or a name is a human line, not a cap", () => {
  it("'has to be referred to the on-duty risk lead before it is placed': allowed under, held above, refused only above the hard cap", () => {
    const I = "ETH perps only. Max $10,000 notional per order. Any trade with a notional over $4,000 has to be referred to the on-duty risk lead before it is placed.";
    expect(unread(I)).toEqual([]);
    expect(judge(I, order(3000))).toBe("ALLOW");
    expect(judge(I, order(5000))).toBe("ESCALATE");
    expect(judge(I, order(12000))).toBe("BLOCK");
  });

  it("'submitted to the Safe signers for manual approval' is never read as permitting approvals or anything else", () => {
    const I = "Trade BTC and ETH perps. Orders above $6,000 are to be submitted to the Safe signers for manual approval prior to execution.";
    expect(judge(I, order(2000))).toBe("ALLOW");
    expect(judge(I, order(7000))).toBe("ESCALATE");
    expect(judge(I, agent)).not.toBe("ALLOW");
    expect(parseIntent(I).constraints.some((k) => k.kind === "permit" && k.activities.includes("approval"))).toBe(false);
  });

  it("a channel: 'escalate to #risk-desk before executing'; 'post in #ops and wait for a thumbs-up' never permits sending", () => {
    expect(judge("ETH perps only. Orders above $2k: escalate to #risk-desk before executing.", order(2500))).toBe("ESCALATE");
    expect(judge("ETH perps only. Orders above $2k: escalate to #risk-desk before executing.", order(1500))).toBe("ALLOW");
    const I = "ETH perp orders worth less than $1,500 it can simply place; for anything bigger please post in #ops and wait for a thumbs-up before sending it.";
    expect(judge(I, order(1000))).toBe("ALLOW");
    expect(judge(I, order(2000))).toBe("ESCALATE");
    expect(judge(I, withdraw("50"))).not.toBe("ALLOW");
  });

  it("a first name: 'check with Priya first' holds what is above the line, and a capitalised venue is not a person", () => {
    const I = "ETH perps only. For orders over $3,000, check with Priya first.";
    expect(judge(I, order(2000))).toBe("ALLOW");
    expect(judge(I, order(3500))).toBe("ESCALATE");
  });

  it("signing words: dual approval, the written approval of a head, a possessive desk, 'only after ... has signed off'", () => {
    expect(judge("Withdrawals are allowed. A single withdrawal above 5,000 USDC requires dual approval.", withdraw("6000"))).toBe("ESCALATE");
    expect(judge("Withdrawals are allowed. A single withdrawal above 5,000 USDC requires dual approval.", withdraw("4000"))).toBe("ALLOW");
    expect(judge("Withdrawals are allowed. Withdrawals over 2,000 USDC need the written approval of the Head of Treasury.", withdraw("2500"))).toBe("ESCALATE");
    expect(judge("Withdrawals are allowed. Withdrawals over 2,000 USDC need the treasury desk's sign-off.", withdraw("2500"))).toBe("ESCALATE");
    expect(judge("The bot trades perps. Withdrawals happen only after the ops lead has signed off.", withdraw("10"))).toBe("ESCALATE");
  });

  it("a line naming two kinds of action binds both ('Any order or withdrawal above $5,000 needs my sign-off' had let a $6,000 withdrawal through)", () => {
    const I = "Trade perps and withdraw USDC. Any order or withdrawal above $5,000 needs my sign-off.";
    expect(judge(I, withdraw("6000"))).toBe("ESCALATE");
    expect(judge(I, order(6000))).toBe("ESCALATE");
    expect(judge(I, withdraw("4000"))).toBe("ALLOW");
    expect(judge("Trade perps and withdraw USDC. Orders or withdrawals of $2,000-8,000: ask me first.", withdraw("3000"))).toBe("ESCALATE");
  });

  it("a payment over the line to a listed payee is held, under it is paid, and 'never alone' belongs to the referral", () => {
    const payee = "0x1111111111111111111111111111111111111111";
    const I = `Pay the vendor ${payee} in USDC. Over 2,500 USDC it needs the approval of the finance committee, never alone.`;
    expect(unread(I)).toEqual([]);
    expect(factsVerdict(I, transfer({ usd: 900, amount: "900", to: payee }))).toBe("ALLOW");
    expect(factsVerdict(I, transfer({ usd: 3000, amount: "3000", to: payee }))).toBe("ESCALATE");
  });
});

describe("bands: below pays, inside asks, above is never allowed", () => {
  it("'Orders of $500-1,500: ask me first' with no other line", () => {
    const I = "ETH perps only. Orders of $500-1500: ask me first.";
    expect(judge(I, order(400))).toBe("ALLOW");
    expect(judge(I, order(900))).toBe("ESCALATE");
    expect(judge(I, order(500))).toBe("ESCALATE");
    expect(judge(I, order(2000))).not.toBe("ALLOW");
  });

  it("'Up till 300 USDC pay directly. Between 300 and 900 USDC ask me before paying.': the direct line is not a refusal", () => {
    const payee = "0x2222222222222222222222222222222222222222";
    const I = `Pay ${payee} in USDC. Up till 300 USDC you can pay directly. Between 300 and 900 USDC you must ask me before paying.`;
    expect(factsVerdict(I, transfer({ usd: 250, amount: "250", to: payee }))).toBe("ALLOW");
    expect(factsVerdict(I, transfer({ usd: 600, amount: "600", to: payee }))).toBe("ESCALATE");
    expect(factsVerdict(I, transfer({ usd: 1200, amount: "1200", to: payee }))).not.toBe("ALLOW");
  });
});

describe("'no need to ask' never grants beyond the other rules", () => {
  const I = "SOL perps only, max $2k notional per order. Cancels and reduce-only closes never need my approval, just do them.";
  it("reads as background when orders are permitted elsewhere", () => {
    expect(unread(I)).toEqual([]);
    expect(judge(I, cancel)).toBe("ALLOW");
    expect(judge(I, order(1000, 5, false, true))).toBe("ALLOW");
  });
  it("a close of another asset, or one over the cap, is still refused", () => {
    expect(judge(I, order(1600, 0, false, true))).not.toBe("ALLOW");
    expect(judge(I, order(3000, 5, false, true))).not.toBe("ALLOW");
  });
  it("naming an activity nothing else permits leaves it for a human", () => {
    const J = "ETH perps only. Withdrawals don't need my sign-off.";
    expect(judge(J, withdraw("20"))).not.toBe("ALLOW");
    expect(judge("Cancels are always OK, no need to ask me.", cancel)).not.toBe("ALLOW");
  });
});

describe("doubt and restated lists", () => {
  const payee = "0x3333333333333333333333333333333333333333";
  const other = "0x4444444444444444444444444444444444444444";
  it("'when in doubt, ask me' adds nothing to rules that are clear", () => {
    const I = "ETH perps only, max $5k per order. When in doubt, ask me.";
    expect(judge(I, order(1000))).toBe("ALLOW");
    expect(judge(I, order(6000))).toBe("BLOCK");
  });
  it("a doubt about membership is read only when the list is checked", () => {
    const withList = `Pay only ${payee} in USDC. If you are unsure whether a wallet belongs to us, check with me first.`;
    expect(factsVerdict(withList, transfer({ to: payee }))).toBe("ALLOW");
    expect(factsVerdict(withList, transfer({ to: other }))).not.toBe("ALLOW");
    const noList = "Pay invoices in USDC. If you are unsure whether a wallet belongs to us, check with me first.";
    expect(factsVerdict(noList, transfer({ to: other }))).toBe("ESCALATE");
  });
  it("'If a vendor isn't on the list, don't pay, send it to me for review' restates a list, and alone is a question", () => {
    const I = `Pay the vendors in context.vendors in USDC. If a vendor isn't on the list, don't pay, send it to me for review.`;
    const ctx = { vendors: [payee] };
    expect(factsVerdict(I, transfer({ to: payee }), ctx)).toBe("ALLOW");
    expect(factsVerdict(I, transfer({ to: other }), ctx)).not.toBe("ALLOW");
    expect(factsVerdict("Pay invoices in USDC. If a vendor isn't on the list, don't pay, send it to me for review.", transfer({ to: other }))).toBe("ESCALATE");
  });
});

describe("'anything not covered: escalate' holds what no rule permits", () => {
  const I = "The bot trades perps, max $5k per order. Anything not covered above: escalate to the treasury committee.";
  it("a covered order is allowed; an uncovered action is held, neither allowed nor refused", () => {
    expect(judge(I, order(1000))).toBe("ALLOW");
    expect(judge(I, withdraw("10"))).toBe("ESCALATE");
    expect(judge(I, agent)).toBe("ESCALATE");
  });
  it("a covered action outside a rule is still refused", () => {
    expect(judge(I, order(6000))).toBe("BLOCK");
    expect(judge("Trade ETH perps only, max $5k per order. Anything not covered above: escalate to the treasury committee.", order(1000, 0))).toBe("BLOCK");
  });
});
