/**
 * Words a careful reader may leave because a constraint of the same clause carries their role (a restated limit
 * word beside a cap, a closer beside a list of its kind, a reason after a prohibition, a caution beside a limit,
 * "more with my ok" after a cap), and the words it must not leave (a second figure, a closer with no list to
 * restate, a reason beside a permission, a caution with no limit). Typos of closing and negating words are read as
 * those words, never ignored. Judged end to end on native payloads.
 */
import { describe, expect, it } from "vitest";
import { buildJudgeInput } from "../../../src/judge/eval/cli";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { parseIntent } from "../../../src/judge/rules/parse/index";
import { transfer, verdict } from "./helpers";

const HL = { assets: { "0": "BTC", "1": "ETH", "5": "SOL" }, prices: { BTC: 100000, ETH: 4000, SOL: 200 } };
const judge = (intent: string, action: unknown, context: Record<string, unknown> = HL, venue = "hyperliquid") =>
  evaluateRules(buildJudgeInput({ id: "t", intent, action, venue, context, expected: "ALLOW", acceptable: ["ALLOW"], tags: [], why: "" })).verdict;
const unread = (intent: string) => parseIntent(intent).clauses.filter((c) => c.reading === "not understood").map((c) => c.clause);

const sig = { hyperliquidChain: "Mainnet", signatureChainId: "0xa4b1" };
const buy = (a: number, p: string, s: string) => ({ type: "order", orders: [{ a, b: true, p, s, r: false, t: { limit: { tif: "Gtc" } } }], grouping: "na" });
const lev = (asset: number, leverage: number) => ({ type: "updateLeverage", asset, isCross: true, leverage });
const withdraw = (amount: string) => ({ type: "withdraw3", ...sig, amount, time: 1, destination: "0x5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e" });
const agent = { type: "approveAgent", ...sig, agentAddress: "0x6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f", agentName: "x", nonce: 1 };
const delegate = (validator: string, hype: number, isUndelegate = false) => ({ type: "tokenDelegate", ...sig, validator, isUndelegate, wei: hype * 1e8, nonce: 1 });

const PAYEE = "0x7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a";
const STRANGER = "0x8b8b8b8b8b8b8b8b8b8b8b8b8b8b8b8b8b8b8b8b";
const usdc = (amount: number, to: string) => transfer({ asset: "USDC", amount: String(amount), usd: amount, to });

describe("typos of closing and negating words", () => {
  it("a typo'd negation forbids: it is never read past into a permission", () => {
    expect(judge("The agent trades BTC perps. Withdrawals are nto permitted.", withdraw("50"))).toBe("BLOCK");
    expect(judge("bot trades BTC perps and can nevr withdraw", withdraw("50"))).toBe("BLOCK");
  });
  it("a typo'd closer restates the list", () => {
    const I = "ETH perps only, nothng else";
    expect(unread(I)).toEqual([]);
    expect(judge(I, buy(1, "4000", "0.1"))).toBe("ALLOW");
    expect(judge(I, buy(5, "200", "1"))).toBe("BLOCK");
  });
});

describe("a limit word restated beside a cap", () => {
  it("'that is the hard cap' adds nothing to the cap just read", () => {
    const I = "BTC perps. Orders stay below 3k usd, that is the hard cap";
    expect(unread(I)).toEqual([]);
    expect(judge(I, buy(0, "100000", "0.02"))).toBe("ALLOW");
    expect(judge(I, buy(0, "100000", "0.04"))).toBe("BLOCK");
  });
  it("a second figure beside it stays unread, so nothing is allowed on the first cap alone", () => {
    const I = "BTC perps. Orders stay below 3k usd, the cap is 5k on weekends";
    expect(unread(I).length).toBeGreaterThan(0);
    expect(judge(I, buy(0, "100000", "0.02"))).not.toBe("ALLOW");
  });
});

describe("a closer beside a list of its kind", () => {
  it("'and to no other address' restates the recipient list", () => {
    const I = "USDC payments are allowed only to the addresses in context.payees and to no other address";
    const ctx = { payees: [PAYEE] };
    expect(unread(I)).toEqual([]);
    expect(verdict(I, usdc(100, PAYEE), ctx)).toBe("ALLOW");
    expect(verdict(I, usdc(100, STRANGER), ctx)).toBe("BLOCK");
  });
  it("a closer naming a kind no list of the clause gives is not read past", () => {
    const I = "USDC payments are allowed only to the addresses in context.payees and to no other chain";
    expect(unread(I).length).toBeGreaterThan(0);
    expect(verdict(I, usdc(100, PAYEE), { payees: [PAYEE] })).not.toBe("ALLOW");
  });
  it("'no other coins' on its own is still a prohibition, not a closer", () => {
    const I = "It may buy the BTC perp. Please no other coins.";
    expect(judge(I, buy(1, "4000", "0.1"))).toBe("BLOCK");
  });
});

describe("a reason after a prohibition", () => {
  const I = "BTC perps only. Never register api wallets, we got drained that way before.";
  it("is dropped: the prohibition holds and the rest of the mandate is read", () => {
    expect(unread(I)).toEqual([]);
    expect(judge(I, agent)).toBe("BLOCK");
    expect(judge(I, buy(0, "100000", "0.01"))).toBe("ALLOW");
  });
  it("a reason that could be a rule of its own ('only', an asset) stays unread", () => {
    expect(unread("BTC perps only. never bridge, cuz only the mainnet pool is audited").length).toBeGreaterThan(0);
  });
  it("after a permission it stays unread (a 'because' there could narrow what is allowed)", () => {
    const P = "You may withdraw USDC, because the hot wallet only holds what we trade with";
    expect(unread(P).length).toBeGreaterThan(0);
    expect(judge(P, withdraw("50"))).not.toBe("ALLOW");
  });
});

describe("a caution beside a limit", () => {
  it("'just don't go crazy' after a leverage cap adds nothing", () => {
    const I = "BTC perps. Leverage up to 4x is ok, just don't go crazy";
    expect(unread(I)).toEqual([]);
    expect(judge(I, lev(0, 4))).toBe("ALLOW");
    expect(judge(I, lev(0, 6))).toBe("BLOCK");
  });
  it("with no limit to lean on, the caution is a rule nobody read", () => {
    const I = "BTC perps. don't go crazy with leverage";
    expect(judge(I, lev(0, 20))).not.toBe("ALLOW");
  });
});

describe("'more with my ok' after a cap", () => {
  const I = "BTC perps. max 2k usd per order, more with my ok";
  it("under the cap is allowed; above it a human decides (never an ALLOW)", () => {
    expect(unread(I)).toEqual([]);
    expect(judge(I, buy(0, "100000", "0.015"))).toBe("ALLOW");
    expect(judge(I, buy(0, "100000", "0.03"))).toBe("ESCALATE");
  });
});

describe("'anything bigger needs my approval' after a cap", () => {
  const I = "BTC perps. orders up to 1k usd, anything bigger needs my approval";
  it("is the threshold for a human, and never a permission to approve tokens", () => {
    expect(unread(I)).toEqual([]);
    expect(judge(I, buy(0, "100000", "0.005"))).toBe("ALLOW");
    expect(judge(I, buy(0, "100000", "0.02"))).toBe("ESCALATE");
    const approve = { chainId: 1, from: PAYEE, to: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", value: "0", data: "0x095ea7b3" + STRANGER.slice(2).padStart(64, "0") + "f".repeat(64) };
    const alone = "orders up to 1k usd, anything bigger needs my approval";
    expect(parseIntent(alone).permitted).not.toContain("approval");
    expect(judge(alone, approve, {}, "evm")).not.toBe("ALLOW");
  });
  it("after a cap per day (not per order) it is not read past", () => {
    expect(unread("BTC perps. max 2k usd per day, more with my ok").length).toBeGreaterThan(0);
  });
});

describe("a comment restating a list", () => {
  it("'# the only destination' after a recipient list adds nothing", () => {
    const I = "USDC payments allowed\nrecipient: context.cold   # the only destination";
    const ctx = { cold: [PAYEE] };
    expect(unread(I)).toEqual([]);
    expect(verdict(I, usdc(100, PAYEE), ctx)).toBe("ALLOW");
    expect(verdict(I, usdc(100, STRANGER), ctx)).toBe("BLOCK");
  });
});

describe("fragments that restate the rule before them, and emphasis after a comma", () => {
  it("'no more' after a cap, 'not even once' after a ban, ', seriously' after a ban", () => {
    const I = "BTC and SOL perps. orders up to $500 each, no more. never withdraw, not even once. never bridge funds, seriously";
    expect(unread(I)).toEqual([]);
    expect(judge(I, buy(5, "200", "2"))).toBe("ALLOW");
    expect(judge(I, buy(5, "200", "3"))).toBe("BLOCK");
    expect(judge(I, withdraw("10"))).toBe("BLOCK");
  });
  it("a parenthetical reason after a ban: '(too volatile)'", () => {
    const I = "perps are fine. Don't touch SOL (too volatile)";
    expect(unread(I)).toEqual([]);
    expect(judge(I, buy(5, "200", "1"))).toBe("BLOCK");
  });
  it("a fragment with a figure of its own is a second rule, not a restatement", () => {
    const I = "BTC perps. orders up to $500 each, no more than 3 per day";
    expect(unread(I).length).toBeGreaterThan(0);
    expect(judge(I, buy(0, "100000", "0.004"))).not.toBe("ALLOW");
  });
  it("emphasis is taken only after a comma or a dash: a final 'ok' stays the permission", () => {
    expect(parseIntent("withdrawals to context.cold are ok").permitted).toContain("withdrawal");
  });
});

describe("words that head or close a list the clause produced", () => {
  it("a config key naming the list's kind ('chains = ...', 'recipients: ...') adds nothing", () => {
    const I = "USDC payments are fine\nchains = ethereum, arbitrum\nrecipients: context.payees only";
    const ctx = { payees: [PAYEE] };
    expect(unread(I)).toEqual([]);
    expect(verdict(I, usdc(50, PAYEE), ctx)).toBe("ALLOW");
    expect(verdict(I, transfer({ asset: "USDC", amount: "50", usd: 50, to: PAYEE }, { chain: "base", chainId: 8453 }), ctx)).toBe("BLOCK");
  });
  it("'only' beside a list is not read past while another leftover could be a rule ('variable rate')", () => {
    expect(unread("borrow: USDC only, variable rate").length).toBeGreaterThan(0);
  });
  it("a key word naming another kind than the list produced stays unread", () => {
    expect(unread("approvals exact, spender = uniswap").length).toBeGreaterThan(0);
  });
  it("'no agents' and 'never agents' forbid agent wallets", () => {
    expect(judge("BTC perps. no agents", agent)).toBe("BLOCK");
    expect(judge("BTC perps. never agents", agent)).toBe("BLOCK");
  });
  it("'isolated or cross both fine' beside a leverage cap says there is no margin rule", () => {
    const I = "BTC perps. leverage at most 3x, isolated or cross both fine";
    expect(unread(I)).toEqual([]);
    expect(judge(I, { type: "updateLeverage", asset: 0, isCross: false, leverage: 3 })).toBe("ALLOW");
    expect(judge(I, { type: "updateLeverage", asset: 0, isCross: false, leverage: 4 })).toBe("BLOCK");
  });
});

describe("a validator list bound to undelegating", () => {
  const KEEP = "0x1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c";
  const LEAVE = "0x2d2d2d2d2d2d2d2d2d2d2d2d2d2d2d2d2d2d2d2d";
  const ctx = { validators: { [KEEP]: "keep", [LEAVE]: "leave" }, leaving: { [LEAVE]: "leave" } };
  const I = "The bot may delegate HYPE to the validators in context.validators. Undelegating is fine, but only from the validators in context.leaving.";
  it("checks the validator the undelegation leaves (it had never been checked)", () => {
    expect(judge(I, delegate(LEAVE, 10, true), ctx)).toBe("ALLOW");
    expect(judge(I, delegate(KEEP, 10, true), ctx)).toBe("BLOCK");
  });
});
