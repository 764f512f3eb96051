/**
 * The layout rules arrive in: a JSON object, markdown, snake_case config switches, a title in capitals, legal
 * clause numbers, defined terms and a figure restated in words. Each is read as plain rules; each is also probed
 * on the side it must still stop.
 */
import { describe, expect, it } from "vitest";
import { parseIntent } from "../../../src/judge/rules/parse/index";
import type { Facts } from "../../../src/venues/types";
import { facts, orderFacts, transfer, verdict } from "./helpers";

const readings = (intent: string) => parseIntent(intent).clauses.map((c) => c.reading);
const PAYEE = "0x3333333333333333333333333333333333333333";
const OTHER = "0x4444444444444444444444444444444444444444";
const pay = (usd: number, to = PAYEE, asset = "USDC") => transfer({ asset, amount: String(usd), usd, to });
const approval: Facts = facts({
  venue: "ethereum", actionFamily: "permission", actionType: "approve", chain: "ethereum", summary: "approve",
  approvals: [{ token: "USDC", spender: OTHER, amount: "1000", amountBase: "1000000000", unlimited: false, usd: 1000, kind: "erc20" }],
});

describe("rules written as JSON", () => {
  const I = JSON.stringify({ purpose: "supplier-payments", token_list: ["USDC"], per_payment_max: "1.2k USDC", payees: "context.suppliers only", token_approvals: "forbidden" });
  const ctx = { suppliers: { [PAYEE]: "Acme Bolts" } };

  it("reads every field as a rule", () => {
    expect(readings(I)).not.toContain("not understood");
    expect(verdict(I, pay(1150), ctx)).toBe("ALLOW");
  });

  it("still stops what the fields forbid", () => {
    expect(verdict(I, pay(1250), ctx)).toBe("BLOCK");
    expect(verdict(I, pay(100, OTHER), ctx)).toBe("BLOCK");
    expect(verdict(I, pay(100, PAYEE, "DAI"), ctx)).toBe("BLOCK");
    expect(verdict(I, approval, ctx)).toBe("BLOCK");
  });

  it("a JSON value it cannot read is not dropped", () => {
    expect(readings(JSON.stringify({ payees: "context.suppliers only", odd_rule: "no payments to mixers" }))).toContain("not understood");
  });
});

describe("config switches and markdown", () => {
  const I = ["## perp-runner", "**venue**: hyperliquid", "`coins`: ETH, SOL", "order_size_usd: <= 900", "spot_send = false", "vault_deposits: off"].join("\n");
  const send: Facts = facts({ actionFamily: "transfer", actionType: "spotSend", transfers: [{ asset: "USDC", amount: "20", usd: 20, to: OTHER, kind: "spotSend" }], summary: "spot send" });

  it("a switch set to off is a prohibition, markup is not a word", () => {
    expect(readings(I)).not.toContain("not understood");
    expect(verdict(I, orderFacts({ asset: "SOL", price: 150, size: 5, notionalUsd: 750 }))).toBe("ALLOW");
    expect(verdict(I, send)).toBe("BLOCK");
    expect(verdict(I, orderFacts({ asset: "ETH", price: 3000, size: 0.4, notionalUsd: 1200 }))).toBe("BLOCK");
    expect(verdict(I, orderFacts({ asset: "BTC", price: 90000, size: 0.005, notionalUsd: 450 }))).toBe("BLOCK");
  });

  it("a limit switched off is not turned into a ban", () => {
    expect(parseIntent("max_leverage: none").constraints.some((k) => k.kind === "forbid" || k.kind === "leverage_cap")).toBe(false);
  });
});

describe("legal documents", () => {
  const I = [
    "ANNEX B - TREASURY DISBURSEMENT AGENT",
    "1. Definitions. \"Eligible Recipients\" means the wallets listed in context.eligible.",
    "2.1 The Agent shall only disburse USDC.",
    "2.2 The Agent shall not disburse funds to anyone other than an Eligible Recipient.",
    "2.3 A disbursement shall not exceed USD 2,000 (two thousand US dollars).",
    "3. This Annex is governed by the laws of Singapore.",
  ].join("\n");
  const ctx = { eligible: { [PAYEE]: "Lab A" } };

  it("clause numbers, the capitalised title and the restated figure are read past; the defined term is its list", () => {
    expect(readings(I)).not.toContain("not understood");
    expect(verdict(I, pay(2000), ctx)).toBe("ALLOW");
  });

  it("the defined list and the cap still bind", () => {
    expect(verdict(I, pay(500, OTHER), ctx)).toBe("BLOCK");
    expect(verdict(I, pay(2100), ctx)).toBe("BLOCK");
    expect(verdict(I, pay(500), {})).not.toBe("ALLOW");
  });

  it("a restated figure that differs is not merged", () => {
    expect(readings("Each payment is capped at $2,000 (20,000 dollars).")).toContain("not understood");
  });

  it("a line in capitals keeps its token symbols", () => {
    const shout = "ONLY TRADE ETH PERPS. NEVER WITHDRAW.";
    expect(verdict(shout, orderFacts({ asset: "ETH", price: 3000, size: 0.1, notionalUsd: 300 }))).toBe("ALLOW");
    expect(verdict(shout, orderFacts({ asset: "SOL", price: 150, size: 1, notionalUsd: 150 }))).toBe("BLOCK");
  });
});
