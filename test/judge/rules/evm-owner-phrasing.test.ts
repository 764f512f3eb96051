/**
 * How owners of EVM wallets word swap rules: a minimum-output ceiling said as "can't be more than X% under",
 * a direction written as "<token> in, <token> out", and the output sent "back to this wallet" when the intent
 * gives no address of its own (the wallet the transaction is sent from). Each is probed on the side it must stop.
 */
import { describe, expect, it } from "vitest";
import { parseIntent } from "../../../src/judge/rules/parse/index";
import type { Facts } from "../../../src/venues/types";
import { facts, verdict } from "./helpers";

const readings = (intent: string) => parseIntent(intent).clauses.map((c) => c.reading);
const ME = "0x5555555555555555555555555555555555555555";
const OTHER = "0x6666666666666666666666666666666666666666";
const swap = (sell: string, buy: string, o: { usd?: number; bps?: number; recipient?: string | null } = {}): Facts =>
  facts({
    venue: "uniswap",
    chain: "base",
    chainId: 8453,
    actionFamily: "swap",
    actionType: "exactInputSingle",
    swap: { sell: { asset: sell, amount: "1", usd: o.usd ?? 400 }, buy: { asset: buy, amount: null, minAmount: null, usd: null }, slippageBps: o.bps ?? 30, recipient: o.recipient === undefined ? ME : o.recipient },
    assets: [sell, buy],
    notionalUsd: o.usd ?? 400,
  });
const tx = (from: string | null) => ({ chainId: 8453, ...(from ? { from } : {}), to: "0x2626664c2603336E57B271c5C0b26F421741e481", value: "0", data: "0x04e45aaf" });

describe("a minimum-output ceiling said as a refusal of the minimum", () => {
  const I = "Rebalancer on Base: trade cbBTC and USDC. The minimum received must not be worse than 0.8% below the quoted price.";

  it("is read as a slippage cap, nothing left unread", () => {
    expect(readings(I)).not.toContain("not understood");
    expect(parseIntent(I).constraints).toContainEqual(expect.objectContaining({ kind: "slippage_cap", bps: 80 }));
  });

  it("allows a swap inside it and blocks one past it", () => {
    expect(verdict(I, swap("USDC", "CBBTC", { bps: 80 }), null, { action: tx(ME) })).toBe("ALLOW");
    expect(verdict(I, swap("USDC", "CBBTC", { bps: 81 }), null, { action: tx(ME) })).toBe("BLOCK");
  });

  it("'min out cannot be more than 2% under market' reads the same way", () => {
    const J = "Swap DAI and USDC on Base. min out cannot be more than 2% under market.";
    expect(readings(J)).not.toContain("not understood");
    expect(verdict(J, swap("DAI", "USDC", { bps: 250 }), null, { action: tx(ME) })).toBe("BLOCK");
  });
});

describe("a direction written as '<token> in, <token> out'", () => {
  const I = "Swaps on Base: DAI in, USDC out. Nothing else.";

  it("is a swap direction", () => {
    expect(readings(I)).not.toContain("not understood");
    expect(parseIntent(I).constraints).toContainEqual(expect.objectContaining({ kind: "swap_direction", sell: ["DAI"], buy: ["USDC"] }));
  });

  it("allows the named way and blocks the reverse", () => {
    expect(verdict(I, swap("DAI", "USDC"), null, { action: tx(ME) })).toBe("ALLOW");
    expect(verdict(I, swap("USDC", "DAI"), null, { action: tx(ME) })).toBe("BLOCK");
  });

  it("'input: WETH, output: USDC' too", () => {
    const J = "Base swaps only. input: WETH, output: USDC.";
    expect(verdict(J, swap("USDC", "WETH"), null, { action: tx(ME) })).toBe("BLOCK");
  });
});

describe("output sent back to 'this wallet' when the intent names no address", () => {
  const I = "Swap USDC to WETH on Base. Proceeds go back to this wallet.";

  it("is a rule, not a label", () => {
    expect(parseIntent(I).constraints).toContainEqual(expect.objectContaining({ kind: "allow", dim: "recipient" }));
  });

  it("allows output to the sending wallet and blocks output anywhere else", () => {
    expect(verdict(I, swap("USDC", "WETH", { recipient: ME }), null, { action: tx(ME) })).toBe("ALLOW");
    expect(verdict(I, swap("USDC", "WETH", { recipient: OTHER }), null, { action: tx(ME) })).toBe("BLOCK");
  });

  it("never allows when the transaction does not say who sends it", () => {
    expect(verdict(I, swap("USDC", "WETH", { recipient: ME }), null, { action: tx(null) })).not.toBe("ALLOW");
  });

  it("a context 'wallet' naming another address does not redirect it", () => {
    expect(verdict(I, swap("USDC", "WETH", { recipient: OTHER }), { wallet: OTHER }, { action: tx(ME) })).toBe("BLOCK");
  });
});

describe("Aave rules written as config lines", () => {
  const VAULT = "0x7777777777777777777777777777777777777777";
  const STRANGER = "0x8888888888888888888888888888888888888888";
  const I = [
    "lending bot",
    "chain = base",
    "venue: aave",
    "assets: USDC",
    "permitted: supply, withdraw",
    "borrowing: disabled",
    "on behalf of: context.treasury_vault (onBehalfOf must be that vault)",
    "max deposit per tx: 20k USD",
  ].join("\n");
  const ctx = { treasury_vault: VAULT };
  const aave = (actionType: string, amount: string | null, onBehalfOf: string, chain = "base"): Facts =>
    facts({
      venue: "aave", chain, chainId: chain === "base" ? 8453 : 1, actionFamily: actionType === "borrow" ? "position" : "vault", actionType,
      transfers: actionType === "supply" ? [{ asset: "USDC", amount, usd: amount === null ? null : Number(amount), to: "0x9999999999999999999999999999999999999999", intoProtocol: true }] : [],
      assets: ["USDC"], recipients: [], notionalUsd: amount === null ? null : Number(amount), details: { onBehalfOfOrTo: onBehalfOf },
    });

  it("reads every line: a lower-case chain after its key, a 'key: disabled' line as a ban", () => {
    expect(readings(I)).not.toContain("not understood");
    expect(parseIntent(I).constraints).toContainEqual(expect.objectContaining({ kind: "allow", dim: "chain", values: ["base"] }));
    expect(parseIntent(I).constraints).toContainEqual(expect.objectContaining({ kind: "forbid", activities: ["borrow"] }));
  });

  it("a supply for the vault inside the cap is allowed; one for someone else, or over the cap, is blocked", () => {
    expect(verdict(I, aave("supply", "20000", VAULT), ctx)).toBe("ALLOW");
    expect(verdict(I, aave("supply", "5000", STRANGER), ctx)).toBe("BLOCK");
    expect(verdict(I, aave("supply", "20001", VAULT), ctx)).toBe("BLOCK");
    expect(verdict(I, aave("supply", "5000", VAULT, "ethereum"), ctx)).toBe("BLOCK");
  });

  it("the vault named only in the context must be there, or nothing is allowed", () => {
    expect(verdict(I, aave("supply", "5000", VAULT), {})).not.toBe("ALLOW");
  });

  it("the deposit cap does not hold back a withdrawal of everything, and a borrow stays banned", () => {
    expect(parseIntent(I).constraints).toContainEqual(expect.objectContaining({ kind: "cap", activities: ["supply", "vault_deposit"] }));
    expect(verdict(I, aave("borrow", "100", VAULT), ctx)).toBe("BLOCK");
    const withdrawAll = (to: string) => facts({ venue: "aave", chain: "base", chainId: 8453, actionFamily: "vault", actionType: "withdraw", transfers: [{ asset: "USDC", amount: null, usd: null, to }], assets: ["USDC"], recipients: [to], notionalUsd: null, details: { onBehalfOfOrTo: to } });
    expect(verdict(I, withdrawAll(VAULT), ctx)).toBe("ALLOW");
    expect(verdict(I, withdrawAll(STRANGER), ctx)).toBe("BLOCK");
  });

  it("a cap whose word names no activity still counts every action", () => {
    const k = parseIntent("assets: USDC\nmax per tx: 20k USD").constraints.find((c) => c.kind === "cap");
    expect(k && "activities" in k ? k.activities : undefined).toBeUndefined();
  });
});

describe("a cap as a fractional share of a context figure, and 'this month' budgets", () => {
  const PAYEE = "0x1212121212121212121212121212121212121212";
  const I = `USDC or DAI only. Pay only ${PAYEE}. No payment may go above 1.5% of the fund's NAV (context.fund.nav_usd). Payouts this month must stay within 90k (context.paid_mtd_usd).`;
  const pay = (usd: number) => facts({ venue: "ethereum", chain: "ethereum", chainId: 1, actionFamily: "transfer", actionType: "transfer", transfers: [{ asset: "USDC", amount: String(usd), usd, to: PAYEE }], assets: ["USDC"], recipients: [PAYEE.toLowerCase()], notionalUsd: usd });

  it("reads '1.5% of ... (context.x)' as the share, never as a cap of 1 (or of 0 for '0.5%')", () => {
    expect(readings(I)).not.toContain("not understood");
    const caps = parseIntent(I).constraints.filter((k) => k.kind === "cap");
    expect(caps).toContainEqual(expect.objectContaining({ limitOf: { pct: 1.5, path: "context.fund.nav_usd" } }));
    expect(caps).toContainEqual(expect.objectContaining({ period: "month", counterRef: "context.paid_mtd_usd" }));
    expect(parseIntent("Stablecoins only. Each payout is capped at 0.5% of our AUM (context.aum_usd).").constraints).not.toContainEqual(expect.objectContaining({ kind: "cap", limit: { value: 0, unit: "USD" } }));
  });

  it("checks the share and the month against the context", () => {
    const ctx = (nav: number | null, mtd: number) => ({ ...(nav === null ? {} : { fund: { nav_usd: nav } }), paid_mtd_usd: mtd });
    expect(verdict(I, pay(15_000), ctx(1_000_000, 75_000))).toBe("ALLOW");
    expect(verdict(I, pay(15_001), ctx(1_000_000, 0))).toBe("BLOCK");
    expect(verdict(I, pay(10_000), ctx(1_000_000, 85_000))).toBe("BLOCK");
    expect(verdict(I, pay(1_000), ctx(null, 0))).not.toBe("ALLOW");
  });
});
