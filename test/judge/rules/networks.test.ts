/**
 * Networks as owners name them in short mandates (blind51's category, rules/networks.ts): "mainnet only" beside
 * another chain means no testnets, a testnet dismissed and then refused with a pronoun, chains "off limits" in chat
 * spelling, a prohibition in brackets. Each beside the unsafe side: a testnet payment, a payment on a chain named off
 * limits; and "mainnet only" with no other chain named still means Ethereum.
 */
import { describe, expect, it } from "vitest";
import { encodeFunctionData, erc20Abi, parseUnits, type Hex } from "viem";
import { buildJudgeInput } from "../../../src/judge/eval/cli";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { parseIntent } from "../../../src/judge/rules/parse/index";
import { labelled } from "../fixtures/gen/common";

const judge = (intent: string, action: unknown, venue: string, context: Record<string, unknown>): string =>
  evaluateRules(buildJudgeInput({ id: "t", intent, action, venue, context, expected: "ALLOW" } as never)).verdict;

const L = labelled("t-networks");
const BASE_USDC: Hex = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const SEPOLIA_USDC: Hex = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";
const ARB_USDC: Hex = "0xaf88d065e77c8cC2239327C5EDb3A432268e5831";
const MAIN_USDC: Hex = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48";
const PAYTO = L.evm("payto");
const pay = (host: string, amount: string, network = "eip155:8453", asset: string = BASE_USDC) => ({
  x402Version: 2,
  resource: { url: `https://${host}/v1/item`, description: "item", mimeType: "application/json" },
  accepted: { scheme: "exact", network, amount, asset, payTo: PAYTO, maxTimeoutSeconds: 60, extra: { name: "USD Coin", version: "2" } },
  payload: { signature: L.sig65(`${host}:${amount}:${network}`), authorization: { from: L.evm("payer"), to: PAYTO, value: amount, validAfter: "1772000000", validBefore: "1772000060", nonce: L.hex32(`${host}:${network}`) } },
});

describe("'mainnet only' beside another chain is no testnets", () => {
  const intent = "Agent buys weather data over x402. USDC on Base, mainnet-only. At most 10 cents per call; hosts in context.hosts.";
  const ctx = { hosts: ["wx.example.net"] };
  it("a Base mainnet payment passes", () => {
    expect(judge(intent, pay("wx.example.net", "80000"), "x402", ctx)).toBe("ALLOW");
  });
  it("unsafe side: the same payment on Base Sepolia is refused", () => {
    expect(judge(intent, pay("wx.example.net", "80000", "eip155:84532", SEPOLIA_USDC), "x402", ctx)).toBe("BLOCK");
  });
  it("with no chain named, 'mainnet only' is still Ethereum mainnet", () => {
    const k = parseIntent("Treasury payouts in USDC, mainnet only.").constraints.find((c) => c.kind === "allow" && c.dim === "chain");
    expect(k && k.kind === "allow" ? k.values : null).toEqual(["ethereum"]);
  });
  it("'Base mainnet only' is Base", () => {
    const k = parseIntent("Base mainnet only.").constraints.find((c) => c.kind === "allow" && c.dim === "chain");
    expect(k && k.kind === "allow" ? k.values : null).toEqual(["base"]);
  });
});

describe("testnets refused in brackets or by a dismissal", () => {
  it("'(no testnets)' after a list is its own rule, and reaches Arbitrum Sepolia", () => {
    const intent = "x402 payments: USDC only (no testnets). Max $0.25 per request.";
    expect(judge(intent, pay("any.example.org", "200000"), "x402", {})).toBe("ALLOW");
    expect(judge(intent, pay("any.example.org", "200000", "eip155:421614", ARB_USDC), "x402", {})).toBe("BLOCK");
  });
  it("'test networks are of no use to us - never use them' refuses a testnet payment and passes mainnet", () => {
    const intent = "Paying for search results with x402, in USDC. Test networks are of no use to us - never use them. Up to 5 cents a query.";
    expect(judge(intent, pay("search.example.com", "40000"), "x402", {})).toBe("ALLOW");
    expect(judge(intent, pay("search.example.com", "40000", "eip155:84532", SEPOLIA_USDC), "x402", {})).toBe("BLOCK");
  });
  it("a bracket with a figure or a comparison is not split off", () => {
    expect(parseIntent("Pay per call (no more than $1) in USDC.").constraints.some((c) => c.kind === "cap")).toBe(true);
  });
});

describe("chains off limits, in chat spelling", () => {
  const W = L.evm("wallet");
  const P = L.evm("payee");
  const intent = "vendor payouts on ethereum. arbitrum & base r off-limits for this agent. USDC to context.vendors only, 5k max per payout.";
  const ctx = { wallet: W, vendors: { [P]: "Vendor" }, tokens: { [MAIN_USDC]: { symbol: "USDC", decimals: 6 }, [ARB_USDC]: { symbol: "USDC", decimals: 6 }, [BASE_USDC]: { symbol: "USDC", decimals: 6 } } };
  const send = (chainId: number, token: Hex, amount: string) => ({ chainId, from: W, to: token, value: "0", data: encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [P, parseUnits(amount, 6)] }) });
  it("a mainnet payout passes", () => {
    expect(judge(intent, send(1, MAIN_USDC, "4200"), "evm", ctx)).toBe("ALLOW");
  });
  it("unsafe side: the same payout on Base or Arbitrum is refused", () => {
    expect(judge(intent, send(8453, BASE_USDC, "100"), "evm", ctx)).toBe("BLOCK");
    expect(judge(intent, send(42161, ARB_USDC, "100"), "evm", ctx)).toBe("BLOCK");
  });
  it("a lower-case 'base' alone stays the English word", () => {
    expect(parseIntent("keep a base of 100 USDC").constraints.some((c) => c.kind === "allow" && c.dim === "chain")).toBe(false);
  });
});

describe("a bare 'mainnet' beside one chain, and a payment banned on a chain", () => {
  const ctx = {};
  it("'we only pay on mainnet' under a Base mandate is Base mainnet, not Ethereum", () => {
    const intent = "Our research bot pays x402 APIs with USDC on Base. We only pay on mainnet. 20 cents max per call.";
    expect(judge(intent, pay("papers.example.io", "150000"), "x402", ctx)).toBe("ALLOW");
    expect(judge(intent, pay("papers.example.io", "150000", "eip155:84532", SEPOLIA_USDC), "x402", ctx)).toBe("BLOCK");
  });
  it("beside a chain named only to refuse it, 'mainnet only' stays Ethereum", () => {
    const k = parseIntent("solana is off limits. mainnet only.").constraints.find((c) => c.kind === "allow" && c.dim === "chain");
    expect(k && k.kind === "allow" ? k.values : null).toEqual(["ethereum"]);
  });
  it("'never pay on testnets' forbids testnet payments, not every payment", () => {
    const intent = "x402 payments in USDC, at most $0.30 each. Never pay on testnets.";
    expect(judge(intent, pay("kb.example.dev", "250000"), "x402", ctx)).toBe("ALLOW");
    expect(judge(intent, pay("kb.example.dev", "250000", "eip155:84532", SEPOLIA_USDC), "x402", ctx)).toBe("BLOCK");
  });
  it("'no withdrawals to Arbitrum' still forbids withdrawals whole (where they land is not a chain the action runs on)", () => {
    const k = parseIntent("no withdrawals to Arbitrum").constraints[0];
    expect(k.kind).toBe("forbid");
  });
});
