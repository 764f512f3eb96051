/**
 * Prohibitions worded with words the vocabulary does not need: where the activity happens ("on this account",
 * "out of the main wallet"), who starts it ("initiate", "carry out"), what kind it is ("NFT approvals", "spot-perp
 * class transfers"), emphasis ("no exceptions"). Reading past those words forbids more, never less; each phrasing
 * is probed from the side it must still stop.
 */
import { describe, expect, it } from "vitest";
import { parseIntent } from "../../../src/judge/rules/parse/index";
import type { Facts } from "../../../src/venues/types";
import { facts, orderFacts, transfer, verdict } from "./helpers";

const readings = (intent: string) => parseIntent(intent).clauses.map((c) => c.reading);
const withdraw = (asset = "USDC"): Facts =>
  facts({ actionFamily: "withdrawal", actionType: "withdraw3", transfers: [{ asset, amount: "50", usd: 50, to: "0x2222222222222222222222222222222222222222", kind: "withdraw" }], summary: "withdraw" });
const approval = (kind: "erc20" | "setApprovalForAll"): Facts =>
  facts({
    venue: "ethereum",
    chain: "ethereum",
    chainId: 1,
    actionFamily: "permission",
    actionType: "approve",
    approvals: [{ token: "USDC", spender: "0x3333333333333333333333333333333333333333", amount: "1", amountBase: "1000000", unlimited: false, usd: 1, kind }],
    assets: ["USDC"],
  });

describe("prohibitions with words that only place or qualify the activity", () => {
  it("'must not carry out withdrawals, ETH sends or bridge transfers' forbids all three, for every token", () => {
    const I = "Hyperliquid BTC perps only. The bot must not carry out withdrawals, ETH sends or bridge transfers.";
    expect(readings(I)).not.toContain("not understood");
    expect(verdict(I, orderFacts({ asset: "BTC" }))).toBe("ALLOW");
    expect(verdict(I, withdraw("USDC"))).toBe("BLOCK");
    expect(verdict(I, transfer({ asset: "USDC" }))).toBe("BLOCK");
  });

  it("a token written after every verb still narrows the prohibition to that token", () => {
    const I = "You may pay USDC to 0x1111111111111111111111111111111111111111. Never send or bridge WBTC.";
    expect(verdict(I, transfer({ asset: "USDC" }))).toBe("ALLOW");
    expect(verdict(I, transfer({ asset: "WBTC", usd: 100 }))).toBe("BLOCK");
  });

  it("'no USDT transfers out of the main wallet' is a prohibition on USDT transfers", () => {
    const I = "Pay vendors in context.vendors. No USDT transfers out of the main wallet.";
    expect(readings(I)).not.toContain("not understood");
    expect(verdict(I, transfer({ asset: "USDT" }), { vendors: ["0x1111111111111111111111111111111111111111"] })).toBe("BLOCK");
  });

  it("'spot is off the table on this account' style: a market type with no verb is banned for orders", () => {
    const I = "Trade BTC and ETH on Hyperliquid. No spot in this wallet.";
    expect(readings(I)).not.toContain("not understood");
    expect(verdict(I, orderFacts({ asset: "ETH", market: "perp" }))).toBe("ALLOW");
    expect(verdict(I, orderFacts({ asset: "ETH", market: "spot" }))).toBe("BLOCK");
  });

  it("'taking SOL out of staking' is unstaking; 'to a different address' is anyone", () => {
    const I = "Stake SOL with validators in context.validators. Unstaking, taking SOL out of staking, or moving SOL to a different address: forbidden.";
    const p = parseIntent(I);
    expect(p.clauses.map((c) => c.reading)).not.toContain("not understood");
    const forbid = p.constraints.find((k) => k.kind === "forbid");
    expect(forbid && forbid.kind === "forbid" ? forbid.activities : []).toEqual(expect.arrayContaining(["unstake", "transfer"]));
  });

  it("NFT and token approvals with 'no exceptions' are approvals forbidden, and the emphasis is no second rule", () => {
    const I = "Pay USDC only to 0x1111111111111111111111111111111111111111. Do not approve anything: no NFT approvals, no token approvals, no exceptions.";
    expect(readings(I)).not.toContain("not understood");
    expect(verdict(I, approval("setApprovalForAll"))).toBe("BLOCK");
    expect(verdict(I, approval("erc20"))).toBe("BLOCK");
    expect(verdict(I, transfer({ asset: "USDC" }))).toBe("ALLOW");
  });

  it("a prohibition whose object is unknown still escalates instead of becoming a blanket ban", () => {
    const I = "Trade BTC and ETH perps on Hyperliquid. Never trade the illiquid stuff on this account.";
    expect(verdict(I, orderFacts({ asset: "BTC" }))).toBe("ESCALATE");
  });
});

describe("context list entries whose status is not plainly good", () => {
  const A = "0x4444444444444444444444444444444444444444";
  const I = "Delegate HYPE only to validators in context.validators.";
  const del = facts({ actionFamily: "staking", actionType: "tokenDelegate", staking: { asset: "HYPE", amount: "10", usd: null, direction: "delegate", validator: A }, assets: ["HYPE"], summary: "delegate" });
  it("'active' passes; a free-text status ('jailed since May', 'under review') is for a human", () => {
    expect(verdict(I, del, { validators: { [A]: { status: "active" } } })).toBe("ALLOW");
    expect(verdict(I, del, { validators: { [A]: { status: "jailed since 2026-05-01" } } })).toBe("ESCALATE");
    expect(verdict(I, del, { validators: { [A]: { status: "under review" } } })).toBe("ESCALATE");
  });
});

describe("restated recipients and handing over keys", () => {
  const agent = facts({ actionFamily: "permission", actionType: "approveAgent", approvals: [{ token: "ACCOUNT", spender: "0x8888888888888888888888888888888888888888", amount: null, amountBase: null, unlimited: true, usd: null, kind: "agent" }], summary: "approve agent" });

  it("'never move funds out, not to me, not to anybody else' restates the prohibition", () => {
    const I = "Hyperliquid BTC perps only. Never move funds out, not to me, not to anybody else.";
    expect(readings(I)).not.toContain("not understood");
    expect(verdict(I, orderFacts({ asset: "BTC" }))).toBe("ALLOW");
    expect(verdict(I, withdraw())).toBe("BLOCK");
  });

  it("'not to me' after a prohibition narrowed to one token is not absorbed", () => {
    const I = "Hyperliquid BTC perps only. Never send USDC out, not to me.";
    expect(readings(I)).toContain("not understood");
  });

  it("'do not give the trading keys to anyone' forbids approving agents", () => {
    const I = "Hyperliquid BTC perps only. Do not give the trading keys to anyone.";
    expect(readings(I)).not.toContain("not understood");
    expect(verdict(I, agent)).toBe("BLOCK");
    expect(verdict(I, orderFacts({ asset: "BTC" }))).toBe("ALLOW");
  });
});
