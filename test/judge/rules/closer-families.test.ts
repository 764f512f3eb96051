/**
 * Closers read by structure (parse/closers.ts, checks/scope.ts, checks/gate-closer.ts): a clause that is only a
 * residue ("anything not explicitly permitted here", "the rest", "whatever we haven't listed") and a verdict on it
 * (refused, or sent to a human), optionally naming a family of activity ("any other transfer"). Wording here is not
 * blind44's. Each reading sits beside the action that breaks it, which must not be allowed.
 */
import { describe, expect, it } from "vitest";
import { encodeFunctionData, erc20Abi, type Hex } from "viem";
import { buildJudgeInput } from "../../../src/judge/eval/cli";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { parseIntent } from "../../../src/judge/rules/parse/index";
import { closerFamily } from "../../../src/judge/rules/parse/closers";

const judge = (intent: string, action: unknown, venue: string, context: Record<string, unknown>): string =>
  evaluateRules(buildJudgeInput({ id: "t", intent, action, venue, context, expected: "ALLOW" } as never)).verdict;
const closers = (intent: string) => parseIntent(intent).constraints.filter((k) => k.kind === "only_listed") as Array<{ ask?: boolean; activities?: string[] }>;
const unread = (intent: string) => parseIntent(intent).clauses.filter((c) => c.reading === "not understood").map((c) => c.clause);

const W: Hex = "0x4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e";
const R: Hex = "0x3d3d3d3d3d3d3d3d3d3d3d3d3d3d3d3d3d3d3d3d";
const X: Hex = "0x2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c2c";
const USDC: Hex = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const DAI: Hex = "0x50c5725949A6F0c72E6C4a641F24049A917DB0Cb";
const tokens = { [USDC]: { symbol: "USDC", decimals: 6 }, [DAI]: { symbol: "DAI", decimals: 18 } };
const send = (token: Hex, to: Hex, amount: bigint) => ({ chainId: 8453, from: W, to: token, value: "0", data: encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [to, amount] }) });
const approve = (to: Hex) => ({ chainId: 8453, from: W, to: USDC, value: "0", data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [to, 5_000_000n] }) });
const hl = (a: number, b: boolean, p: string, s: string) => ({ type: "order", orders: [{ a, b, p, s, r: false, t: { limit: { tif: "Gtc" } } }], grouping: "na" });
const hlCtx = { assets: { "0": "BTC", "1": "ETH", "5": "SOL" }, prices: { BTC: 90000, ETH: 3000, SOL: 150 } };
const GRANT = `On Base the agent pays USDC to ${R}, at most 200 USDC each.`;

describe("a closer in owners' words is read, and refuses what no grant lists", () => {
  it.each([
    "Anything not explicitly permitted here is off the table.",
    "Whatever we haven't listed: don't.",
    "Rest: refused.",
    "Do not do anything we did not list.",
    "Nothing more.",
    "just do these, nothing further",
  ])("%s", (tail) => {
    const intent = `${GRANT} ${tail}`;
    expect(unread(intent)).toEqual([]);
    expect(closers(intent).some((k) => !k.ask)).toBe(true);
    expect(judge(intent, send(USDC, R, 150_000_000n), "evm", { wallet: W, tokens })).toBe("ALLOW");
    expect(judge(intent, approve(X), "evm", { wallet: W, tokens })).toBe("BLOCK");
  });
  it("a heading carried onto the closing bullet still leaves it a closer", () => {
    const intent = "Perp bot rules:\n- limit orders on the ETH perp\n- No other activity is allowed";
    expect(unread(intent)).toEqual([]);
    expect(judge(intent, hl(1, true, "3000", "0.5"), "hyperliquid", hlCtx)).toBe("ALLOW");
    expect(judge(intent, { type: "withdraw3", hyperliquidChain: "Mainnet", signatureChainId: "0xa4b1", destination: X.toLowerCase(), amount: "10", time: 1 }, "hyperliquid", hlCtx)).toBe("BLOCK");
  });
  it("unsafe side: a clause about the rest with a figure, an asset or an exception of its own is no closer", () => {
    for (const tail of ["Anything else above $50 is refused.", "Any other USDC transfer is forbidden.", "The rest: no, except DAI.", "Rest is fine."])
      expect(closers(`${GRANT} ${tail}`)).toEqual([]);
  });
});

describe("a closer names the family it closes", () => {
  it("reads the family from the residue's noun; a generic noun closes everything", () => {
    expect(closerFamily("any other transfer is prohibited")).toContain("transfer");
    expect(closerFamily("every other movement of funds is forbidden")).toContain("withdrawal");
    expect(closerFamily("no other trades")).toEqual(["order"]);
    expect(closerFamily("any other action is prohibited")).toBeUndefined();
    expect(closerFamily("nothing else")).toBeUndefined();
  });
  const I = `Trade the BTC perp on Hyperliquid. Send USDC only to ${X.toLowerCase()}. Every other outgoing transfer is prohibited.`;
  it("inside the family: an unlisted send is refused", () => {
    expect(closers(I)[0]?.activities).toContain("transfer");
    expect(judge(I, { type: "usdSend", hyperliquidChain: "Mainnet", signatureChainId: "0xa4b1", destination: R.toLowerCase(), amount: "40", time: 1 }, "hyperliquid", hlCtx)).toBe("BLOCK");
  });
  it("outside the family the closer restricts nothing, and nothing ungranted is allowed either", () => {
    expect(judge(I, hl(0, true, "90000", "0.01"), "hyperliquid", hlCtx)).toBe("ALLOW");
    expect(judge(I, { type: "updateLeverage", asset: 0, isCross: true, leverage: 20 }, "hyperliquid", hlCtx)).not.toBe("ALLOW");
    expect(judge(I, hl(1, true, "3000", "1"), "hyperliquid", hlCtx)).toBe("BLOCK");
  });
});

describe("a closer that sends the rest to a human", () => {
  const I = `${GRANT} Never approve anything. Whatever we haven't listed, clear it with me first.`;
  it("escalates a send outside the grant's own asset or payee list", () => {
    expect(closers(I)[0]?.ask).toBe(true);
    expect(judge(I, send(USDC, R, 100_000_000n), "evm", { wallet: W, tokens })).toBe("ALLOW");
    expect(judge(I, send(DAI, R, 10n ** 18n), "evm", { wallet: W, tokens })).toBe("ESCALATE");
    expect(judge(I, send(USDC, X, 50_000_000n), "evm", { wallet: W, tokens })).toBe("ESCALATE");
  });
  it("unsafe side: a prohibition stays a BLOCK, and a cap is not a list the human gate opens", () => {
    expect(judge(I, approve(X), "evm", { wallet: W, tokens })).toBe("BLOCK");
    expect(judge(I, send(USDC, R, 900_000_000n), "evm", { wallet: W, tokens })).toBe("BLOCK");
  });
  it("unsafe side: a grant that says 'only' keeps its list hard", () => {
    const hard = `On Base the agent pays only USDC to ${R}. Whatever we haven't listed, clear it with me first.`;
    expect(judge(hard, send(DAI, R, 10n ** 18n), "evm", { wallet: W, tokens })).toBe("BLOCK");
  });
});

describe("a closer over grants that were not read never lets an action through", () => {
  it("an activity that only a cap mentions is held", () => {
    const I = "hl: you can go long or short on ETH perp, max 3 ETH per order. anything else is refused";
    expect(judge(I, hl(0, true, "90000", "0.01"), "hyperliquid", hlCtx)).not.toBe("ALLOW");
  });
  it("a grant that points at a document outside the rules is no list", () => {
    const I = "Treasury wallet. The agent may handle liquidity as the ops handbook says. Everything else is forbidden.";
    expect(judge(I, send(USDC, X, 4_000_000_000n), "evm", { wallet: W, tokens })).not.toBe("ALLOW");
  });
  it("a grant split from its object ('may deposit into and withdraw from the vault in context.x') is held, closer or not", () => {
    const I = "Trade the ETH perp on Hyperliquid. The key can deposit into and withdraw from the vault in context.vault; any other movement of funds is forbidden.";
    const ctx = { ...hlCtx, vault: { address: "0x9e9e9e9e9e9e9e9e9e9e9e9e9e9e9e9e9e9e9e9e" } };
    expect(judge(I, { type: "vaultTransfer", vaultAddress: X.toLowerCase(), isDeposit: true, usd: 1_000_000_000 }, "hyperliquid", ctx)).not.toBe("ALLOW");
    expect(judge(I, hl(1, true, "3000", "0.5"), "hyperliquid", ctx)).toBe("ALLOW");
  });
  it("a gate closer never softens a prohibition into a permission", () => {
    const I = `${GRANT} Don't send DAI. Anything else needs my OK.`;
    expect(judge(I, send(DAI, R, 10n ** 18n), "evm", { wallet: W, tokens })).toBe("BLOCK");
  });
});

describe("the outcome a grant names on a prediction market", () => {
  it("'you may bet NO on <market>' grants NO there, not YES", () => {
    const Q = "Will the Thames freeze over in January 2027?";
    const yes = "1".repeat(70);
    const no = "2".repeat(70);
    const ctx = { markets: { [yes]: { question: Q, outcome: "Yes" }, [no]: { question: Q, outcome: "No" } } };
    const I = `Polymarket: you may bet NO on '${Q}', GTC orders, at most $40 an order.`;
    expect(judge(I, { tokenID: no, price: 0.8, size: 40, side: "BUY", orderType: "GTC" }, "polymarket", ctx)).toBe("ALLOW");
    expect(judge(I, { tokenID: yes, price: 0.2, size: 100, side: "BUY", orderType: "GTC" }, "polymarket", ctx)).not.toBe("ALLOW");
  });
});
