/**
 * The lines around a mandate (a heading naming the event and chain, a trip notice, a subject line, a greeting, "read
 * this first", who the instructions come from, a sign-off) are its frame: read as a label, never as a limit or an
 * asset scope (parse/frame.ts). Beside them: what someone other than the agent does grants nothing, a postscript and
 * a resolution's formula are marks, and a list of perp markets scopes orders only. Each block has its unsafe side:
 * a heading that does scope still scopes, a frame naming a payee group with no list holds the payment, a P.S. that
 * states a rule binds, and a perp list still refuses the orders outside it.
 */
import { describe, expect, it } from "vitest";
import { buildJudgeInput } from "../../../src/judge/eval/cli";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { parseIntent } from "../../../src/judge/rules/parse/index";
import { frameSentences, isFrameShaped } from "../../../src/judge/rules/parse/frame";
import { encodeFunctionData, erc20Abi, type Hex } from "viem";

const sig = { hyperliquidChain: "Mainnet", signatureChainId: "0xa4b1" };
const HL = { assets: { "0": "BTC", "1": "ETH", "5": "SOL", "159": "HYPE" }, prices: { BTC: 90000, ETH: 3000, SOL: 150, HYPE: 40 } };
const order = (a: number, p: string, s: string) => ({ type: "order", orders: [{ a, b: true, p, s, r: false, t: { limit: { tif: "Gtc" } } }], grouping: "na" });
const withdraw = (destination: string, amount: string) => ({ type: "withdraw3", ...sig, amount, time: 1, destination });
const classMove = (amount: string) => ({ type: "usdClassTransfer", ...sig, amount, toPerp: true, nonce: 1 });

const USDC_BASE = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const USDC_ETH = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48";
const FIN = "0x5151515151515151515151515151515151515151";
const STRANGER = "0x6161616161616161616161616161616161616161";
const COLD = "0x7171717171717171717171717171717171717171";
const WALLET = "0x8181818181818181818181818181818181818181";
const pay = (chainId: number, token: string, to: string, usdc: number) => ({
  chainId, from: WALLET, to: token, value: "0", data: encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [to as Hex, BigInt(usdc * 1e6)] }),
});
const EVM = { finalists: { [FIN]: "team Okra" }, tokens: { [USDC_BASE]: { symbol: "USDC", decimals: 6 }, [USDC_ETH]: { symbol: "USDC", decimals: 6 } } };

const judge = (intent: string, action: unknown, venue: string, context: Record<string, unknown>) =>
  evaluateRules(buildJudgeInput({ id: "t", intent, action, venue, context, expected: "ALLOW", acceptable: ["ALLOW"], tags: [], why: "" })).verdict;
const unread = (intent: string) => parseIntent(intent).clauses.filter((c) => c.reading === "not understood").map((c) => c.clause);
const assetValues = (intent: string) => parseIntent(intent).constraints.flatMap((k) => (k.kind === "allow" && k.dim === "asset" ? k.values : []));

describe("the frame of a mandate is read as a label", () => {
  const TRIP = "yo, heading to lapland for 10 days and signal will be spotty, so the bot looks after my HL account until I get back\n" +
    "rules:\n- only HYPE and BTC perps\n- max $2k per order\nthanks!! - Ines";
  it("a trip notice and a sign-off hold nothing back; the rules between them still bind", () => {
    expect(unread(TRIP)).toEqual([]);
    expect(judge(TRIP, order(159, "40", "25"), "hyperliquid", HL)).toBe("ALLOW");
    expect(judge(TRIP, order(1, "3000", "0.2"), "hyperliquid", HL)).toBe("BLOCK");
    expect(judge(TRIP, order(0, "90000", "0.05"), "hyperliquid", HL)).toBe("BLOCK");
    expect(judge(TRIP, withdraw(COLD, "100"), "hyperliquid", HL)).not.toBe("ALLOW");
  });

  const EVENT = "Grant payouts: Accra hack week finalists - Base (8453)\nPay the finalists in context.finalists in USDC, at most 750 USDC per payment.";
  it("a heading naming the event and the chain is a label: its chain scopes, its names do not", () => {
    expect(judge(EVENT, pay(8453, USDC_BASE, FIN, 600), "evm", EVM)).toBe("ALLOW");
    expect(judge(EVENT, pay(1, USDC_ETH, FIN, 600), "evm", EVM)).toBe("BLOCK");
    expect(judge(EVENT, pay(8453, USDC_BASE, STRANGER, 600), "evm", EVM)).toBe("BLOCK");
  });

  it("a frame naming a payee group that no rule lists holds the payment", () => {
    const I = "Contractor payouts - Base (8453)\nmax 500 USDC per payment";
    expect(judge(I, pay(8453, USDC_BASE, STRANGER, 300), "evm", EVM)).not.toBe("ALLOW");
  });

  it("a subject line, greeting and sign-off around an email's rules are frame", () => {
    const I = "Subject: what the agent can do with my HL account while I'm abroad\n\nHello,\n\nBuy BTC perps only, up to $1,000 per order.\nNo withdrawals.\n\nBest,\nKai";
    expect(unread(I)).toEqual([]);
    expect(judge(I, order(0, "90000", "0.01"), "hyperliquid", HL)).toBe("ALLOW");
    expect(judge(I, withdraw(COLD, "50"), "hyperliquid", HL)).toBe("BLOCK");
  });

  it("a frame frames rules: an intent of frame lines alone is not read as frame", () => {
    expect(frameSentences(["hi", "the bot looks after my HL account while I'm away", "cheers"]).size).toBe(0);
    // A frame-shaped line between two rules stays with the rule readers.
    expect([...frameSentences(["Hello", "max $500 per order", "the team says hi", "no withdrawals", "Thanks"])]).toEqual([0, 4]);
  });
});

describe("lines that look like a frame but state a rule are not frame", () => {
  it.each([
    "whatever comes out goes back to this wallet",
    "ExactIn",
    "USDC only:",
    "SOL perp desk",
    "the wallet exists to take positions on the ECB's decisions",
    "ask me before anything over 1k",
    "proceeds to context.treasury",
    "Stablecoin payouts for the Lisbon meetup",
    "the bot uses jupiter and nothing else",
    "isolated margin pls",
  ])("%s", (line) => {
    expect(isFrameShaped(line)).toBe(false);
  });
});

describe("what someone other than the agent does grants the agent nothing", () => {
  const I = "Cash handling. The desk trades elsewhere; this key only withdraws USDC to context.cold_wallet, max $5k each. Nothing else.";
  const ctx = { ...HL, cold_wallet: COLD };
  it("the desk's trading is not a permission to trade", () => {
    expect(judge(I, order(0, "90000", "0.01"), "hyperliquid", ctx)).toBe("BLOCK");
    expect(judge(I, withdraw(COLD, "1000"), "hyperliquid", ctx)).toBe("ALLOW");
  });
  it("a third party's line with a rule word stays a rule", () => {
    expect(parseIntent("The treasurer approves anything over $5k.").clauses[0].reading).not.toBe("descriptive");
  });
});

describe("a postscript and a resolution's formula are marks, not tokens", () => {
  it("'PS' is not an asset, and the P.S. line binds", () => {
    const I = "Pay the finalists in context.finalists in USDC on Base, max 750 USDC each.\nPS never pay anyone twice in one day";
    expect(assetValues(I)).not.toContain("PS");
    const J = "Pay the finalists in context.finalists in USDC on Base, max 750 USDC each.\nPS anything above 400 USDC needs my ok first";
    expect(judge(J, pay(8453, USDC_BASE, FIN, 500), "evm", EVM)).toBe("ESCALATE");
    expect(judge(J, pay(8453, USDC_BASE, FIN, 300), "evm", EVM)).toBe("ALLOW");
  });
  it("'RESOLVED' is not a token, and each operative clause is read", () => {
    const I = "BE IT RESOLVED that the steward may supply USDC to Aave on behalf of context.safe;\nBE IT FURTHER RESOLVED that the steward may withdraw it to context.safe only, and that borrowing is prohibited.";
    expect(assetValues(I)).not.toContain("RESOLVED");
    expect(parseIntent(I).constraints.some((k) => k.kind === "forbid" && k.activities.includes("borrow"))).toBe(true);
  });
});

describe("a list of perp markets scopes the orders, not every action", () => {
  const I = "Markets: the SOL and ETH perpetual contracts.\nMoving USDC between my spot and perp wallets is fine, any size.";
  it("a move between the account's own balances is not held to the market list", () => {
    expect(judge(I, classMove("2000"), "hyperliquid", HL)).toBe("ALLOW");
  });
  it("orders outside the list are still refused, and a bare perp scope still bounds everything else", () => {
    expect(judge(I, order(0, "90000", "0.01"), "hyperliquid", HL)).toBe("BLOCK");
    expect(judge("Perps - SOL only\n- max $1k per order", order(0, "90000", "0.01"), "hyperliquid", HL)).toBe("BLOCK");
    expect(judge("BTC perps only. max 3x.", withdraw(COLD, "100"), "hyperliquid", HL)).not.toBe("ALLOW");
  });
});

describe("a month named as the period of a total", () => {
  it("'July's payouts together' is a monthly total against the counter named", () => {
    const I = "Pay the finalists in context.finalists in USDC on Base, max 750 USDC each; July's payouts together may not exceed 2,000 USDC (context.paid_july_usdc is the running total).";
    expect(judge(I, pay(8453, USDC_BASE, FIN, 200), "evm", { ...EVM, paid_july_usdc: 1900 })).toBe("BLOCK");
    expect(judge(I, pay(8453, USDC_BASE, FIN, 200), "evm", { ...EVM, paid_july_usdc: 1000 })).toBe("ALLOW");
  });
});
