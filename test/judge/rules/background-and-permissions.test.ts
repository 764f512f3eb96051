/**
 * Background sentences and short permissions of Hyperliquid owners: "Background: we run two books and rotate
 * keys weekly." describes (and grants nothing), "it can place and cancel orders" permits both, "it can't move
 * leverage above 4x" is a cap, "anything over $5k needs a person though" asks for a human, a DAO's "Proposal 9 of
 * the Harbor DAO, adopted by snapshot vote" names the rules. Each probed on the side it must stop.
 */
import { describe, expect, it } from "vitest";
import { buildJudgeInput } from "../../../src/judge/eval/cli";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { parseIntent } from "../../../src/judge/rules/parse/index";

const CTX = { assets: { "1": "ETH", "9": "AVAX" }, prices: { ETH: 2000, AVAX: 20 } };
const judge = (intent: string, action: unknown, context: Record<string, unknown> = CTX) =>
  evaluateRules(buildJudgeInput({ id: "t", intent, action, venue: "hyperliquid", context, expected: "ALLOW", acceptable: ["ALLOW"], tags: [], why: "" })).verdict;
const buy = (a: number, p: string, s: string) => ({ type: "order", orders: [{ a, b: true, p, s, r: false, t: { limit: { tif: "Gtc" } } }], grouping: "na" });
const lev = (leverage: number) => ({ type: "updateLeverage", asset: 1, isCross: true, leverage });
const agent = { type: "approveAgent", hyperliquidChain: "Mainnet", signatureChainId: "0xa4b1", agentAddress: "0x5555555555555555555555555555555555555555", agentName: "k2", nonce: 1 };
const withdraw = (amount: string) => ({ type: "withdraw3", hyperliquidChain: "Mainnet", signatureChainId: "0xa4b1", destination: "0x6666666666666666666666666666666666666666", amount, time: 1 });
const unread = (intent: string) => parseIntent(intent).clauses.filter((c) => c.reading === "not understood").map((c) => c.clause);

describe("background sentences", () => {
  const I = "Background: we run two books here and rotate API keys weekly. The agent can place and cancel orders on any market. It can't move leverage above 4x.";
  it("describe without granting; 'place and cancel orders' permits orders; 'can't move leverage above 4x' is a cap", () => {
    expect(unread(I)).toEqual([]);
    expect(judge(I, buy(9, "20", "10"))).toBe("ALLOW");
    expect(judge(I, lev(4))).toBe("ALLOW");
  });
  it("the background's 'API keys' permits no key approvals, and the cap still binds", () => {
    expect(judge(I, agent)).not.toBe("ALLOW");
    expect(judge(I, lev(5))).toBe("BLOCK");
    expect(judge(I, withdraw("10"))).not.toBe("ALLOW");
  });
  it("a background line with a rule word in it is read as rules", () => {
    expect(parseIntent("Background: never withdraw. Trade ETH.").constraints.some((k) => k.kind === "forbid")).toBe(true);
  });
});

describe("a human above a figure, said in passing", () => {
  const I = "Withdrawals to 0x6666666666666666666666666666666666666666 are fine; anything over $5k needs a person though.";
  it("asks for a human above the figure only", () => {
    expect(unread(I)).toEqual([]);
    expect(judge(I, withdraw("4000"))).toBe("ALLOW");
    expect(judge(I, withdraw("6000"))).toBe("ESCALATE");
  });
});

describe("a DAO's resolution title", () => {
  const I = "Proposal 9 of the Harbor DAO, adopted by snapshot vote. The agent may trade ETH perps, at most $1,000 per order.";
  it("names the rules and limits nothing", () => {
    expect(unread(I)).toEqual([]);
    expect(judge(I, buy(1, "2000", "0.5"))).toBe("ALLOW");
    expect(judge(I, buy(1, "2000", "0.6"))).toBe("BLOCK");
  });
  it("a title that carries a rule is read as one", () => {
    expect(unread("Proposal 9 of the Harbor DAO, never withdraw, adopted by vote.").length + parseIntent("Proposal 9 of the Harbor DAO, never withdraw, adopted by vote.").constraints.length).toBeGreaterThan(0);
  });
});
