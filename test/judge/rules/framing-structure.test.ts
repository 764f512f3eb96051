/**
 * Lines that frame a mandate but state no rule (session 23): memo header fields and a first-line title that carry a
 * rule noun (parse/header-lines.ts), numbered section headings and the document title above them
 * (structure/outline.ts). Each block has its unsafe side: a header that states a rule still binds, a section's
 * rule still refuses the action that breaks it, a "never" under a heading forbids, and a title never grants.
 */
import { describe, expect, it } from "vitest";
import { buildJudgeInput } from "../../../src/judge/eval/cli";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { parseIntent } from "../../../src/judge/rules/parse/index";
import { isHeaderLine, isTitleLine } from "../../../src/judge/rules/parse/header-lines";
import { readOutline } from "../../../src/judge/rules/structure/outline";
import { encodeFunctionData, erc20Abi, type Hex } from "viem";

const sig = { hyperliquidChain: "Mainnet", signatureChainId: "0xa4b1" };
const HL = { assets: { "0": "BTC", "1": "ETH", "5": "SOL" }, prices: { BTC: 90000, ETH: 3000, SOL: 150 } };
const order = (a: number, buy: boolean, p: string, s: string) => ({ type: "order", orders: [{ a, b: buy, p, s, r: false, t: { limit: { tif: "Gtc" } } }], grouping: "na" });
const withdraw = (amount: string) => ({ type: "withdraw3", ...sig, amount, time: 1, destination: "0x9191919191919191919191919191919191919191" });
const leverage = (asset: number, lev: number) => ({ type: "updateLeverage", asset, isCross: true, leverage: lev });

const USDC_BASE = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const WALLET = "0x8181818181818181818181818181818181818181";
const VENDOR = "0x5252525252525252525252525252525252525252";
const STRANGER = "0x6363636363636363636363636363636363636363";
const pay = (to: string, usdc: number) => ({ chainId: 8453, from: WALLET, to: USDC_BASE, value: "0", data: encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [to as Hex, BigInt(usdc * 1e6)] }) });
const EVM = { vendors: { [VENDOR]: "Kiln & Co" }, tokens: { [USDC_BASE]: { symbol: "USDC", decimals: 6 } } };

const judge = (intent: string, action: unknown, venue: string, context: Record<string, unknown>) =>
  evaluateRules(buildJudgeInput({ id: "t", intent, action, venue, context, expected: "ALLOW", acceptable: ["ALLOW"], tags: [], why: "" })).verdict;
const unread = (intent: string) => parseIntent(intent).clauses.filter((c) => c.reading === "not understood").map((c) => c.clause);

describe("memo header fields that state nothing are labels", () => {
  const MEMO = "To: the HL trading bot\nFrom: Desk lead, risk\nDate: March 3, 2027\nRe: margin and exposure limits, H1\n\nBTC perp only. At most 0.05 BTC per order. Withdrawals are not allowed.";

  it("holds nothing on the Re line and reads the rules under it", () => {
    expect(unread(MEMO)).toEqual([]);
    expect(judge(MEMO, order(0, true, "90000", "0.04"), "hyperliquid", HL)).toBe("ALLOW");
  });

  it("unsafe side: the rules under the header still refuse", () => {
    expect(judge(MEMO, order(0, true, "90000", "0.08"), "hyperliquid", HL)).toBe("BLOCK");
    expect(judge(MEMO, order(1, true, "3000", "0.1"), "hyperliquid", HL)).toBe("BLOCK");
    expect(judge(MEMO, withdraw("50"), "hyperliquid", HL)).toBe("BLOCK");
  });

  it("a header line that carries a rule stays a rule", () => {
    for (const line of ["Re: no withdrawals this month", "Subject: BTC only", "Re: orders above $500 need sign-off", "Subject: limits apply until Friday", "Re: pay only context.vendors", "Re: you may trade ETH"])
      expect(isHeaderLine(line)).toBe(false);
    expect(isHeaderLine("Subject: updated account limits (v2)")).toBe(true);
    expect(isHeaderLine("Date: 9 May 2027")).toBe(true);
  });

  it("unsafe side: a subject line that forbids is never dropped", () => {
    const REFUSES = "Re: no withdrawals while the books are open\nHi bot, ETH perps are fine, at most 1 ETH per order.";
    expect(judge(REFUSES, withdraw("20"), "hyperliquid", HL)).not.toBe("ALLOW");
  });

  it("the venue a header names still narrows; the activity it names grants nothing", () => {
    const PAYS = "Subject: Hyperliquid payouts and account limits\nMax $300 per order.";
    expect(judge(PAYS, order(5, true, "150", "1"), "hyperliquid", HL)).toBe("ALLOW");
    expect(judge(PAYS, pay(VENDOR, 100), "evm", EVM)).not.toBe("ALLOW");
  });
});

describe("a first-line title that states nothing is a label", () => {
  const TITLE = "Kiln vendor account limits (v4)\nPay USDC on Base only to the addresses in context.vendors, at most 400 USDC per payment.";

  it("reads the rules under the title", () => {
    expect(isTitleLine("Kiln vendor account limits (v4)", "Kiln vendor account limits (v4)", "Kiln vendor account limits (v4)")).toBe(true);
    expect(judge(TITLE, pay(VENDOR, 250), "evm", EVM)).toBe("ALLOW");
  });

  it("unsafe side: the payment the rules refuse is refused", () => {
    expect(judge(TITLE, pay(VENDOR, 650), "evm", EVM)).toBe("BLOCK");
    expect(judge(TITLE, pay(STRANGER, 50), "evm", EVM)).toBe("BLOCK");
  });

  it("a title with a figure, a token or a negation is not a label", () => {
    expect(isTitleLine("Payments capped at 500", "Payments capped at 500", "Payments capped at 500")).toBe(false);
    expect(isTitleLine("SOL desk limits", "SOL desk limits", "SOL desk limits")).toBe(false);
    expect(isTitleLine("no leverage desk", "no leverage desk", "no leverage desk")).toBe(false);
  });
});

describe("numbered section headings head the lines under them", () => {
  const SECTIONS = "Risk sheet\n§1 Instruments\nETH perp only\n§2 Size.\nnothing over 1.5 ETH per order\n§3 Leverage\nat most 4x\n§4 Withdrawals\nnone";

  it("lays the outline out: numbers dropped, a blank before each heading, the title alone", () => {
    expect(readOutline(SECTIONS)).toBe("Risk sheet\n\nInstruments\nETH perp only\n\nSize\nnothing over 1.5 ETH per order\n\nLeverage\nat most 4x\n\nWithdrawals\nnone");
    expect(unread(SECTIONS)).toEqual([]);
  });

  it("allows what every section allows", () => {
    expect(judge(SECTIONS, order(1, true, "3000", "1"), "hyperliquid", HL)).toBe("ALLOW");
    expect(judge(SECTIONS, leverage(1, 4), "hyperliquid", HL)).toBe("ALLOW");
  });

  it("unsafe side: each section's rule refuses what breaks it, and 'none' under Withdrawals forbids them", () => {
    expect(judge(SECTIONS, order(1, true, "3000", "2"), "hyperliquid", HL)).toBe("BLOCK");
    expect(judge(SECTIONS, order(0, true, "90000", "0.01"), "hyperliquid", HL)).toBe("BLOCK");
    expect(judge(SECTIONS, leverage(1, 6), "hyperliquid", HL)).toBe("BLOCK");
    expect(judge(SECTIONS, withdraw("10"), "hyperliquid", HL)).toBe("BLOCK");
  });

  it("a numbered list of items is not a run of headings", () => {
    const LIST = "Never do these:\n1. withdrawals\n2. transfers\n3. vault deposits";
    expect(readOutline(LIST)).toBe(LIST);
    const RULES = "1) BTC only\nmax 0.1 BTC\n2) no withdrawals";
    expect(readOutline(RULES)).toBe(RULES);
  });

  it("unsafe side: numbered lines under a prohibiting title keep its polarity", () => {
    const BANNED = "Prohibited:\n1. Withdrawals\nto any address\n2. Leverage\nabove 3x";
    expect(readOutline(BANNED)).toBe(BANNED);
  });
});

describe("a document title over headed blocks heads nothing itself", () => {
  const BLOCKS = "Election desk\nAllowed:\n- buying shares in the markets in context.markets\n- tickets up to $60\nProhibited:\n- selling\n- FOK orders";
  const TOKEN = "71321045679252212594626385532706912750332728571942532289631379312455583992563";
  const PM = { markets: { [TOKEN]: { question: "Will the incumbent win the 2027 mayoral race?", outcome: "Yes" } } };
  const bet = (side: "BUY" | "SELL", price: number, size: number, orderType = "GTC") => ({ tokenID: TOKEN, price, size, side, orderType });

  it("the title is not written onto the Prohibited lines", () => {
    expect(parseIntent(BLOCKS).constraints.some((k) => k.kind === "deny" && k.dim === "venue")).toBe(false);
    expect(judge(BLOCKS, bet("BUY", 0.4, 100), "polymarket", PM)).toBe("ALLOW");
  });

  it("unsafe side: what the Prohibited block names is refused", () => {
    expect(judge(BLOCKS, bet("SELL", 0.4, 100), "polymarket", PM)).toBe("BLOCK");
    expect(judge(BLOCKS, bet("BUY", 0.4, 100, "FOK"), "polymarket", PM)).toBe("BLOCK");
    expect(judge(BLOCKS, bet("BUY", 0.5, 200), "polymarket", PM)).toBe("BLOCK");
  });

  it("a heading over a one-word refusal forbids the thing it names", () => {
    const NEVER = "eth bot config\n1. market\nETH perp only\n2. withdrawals\nnever";
    expect(judge(NEVER, withdraw("5"), "hyperliquid", HL)).toBe("BLOCK");
    expect(judge(NEVER, order(1, true, "3000", "0.5"), "hyperliquid", HL)).toBe("ALLOW");
  });
});
