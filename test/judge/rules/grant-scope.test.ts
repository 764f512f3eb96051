/**
 * Which activities a mandate's grants permit (blind30's category). Native payloads go through the venue adapters, as
 * the service sends them. Each reading is tested beside the wording that must still BLOCK or ESCALATE: a grant never
 * widens what it names (asset, recipient, kind of move), and a list closed by "the rest is refused" refuses the rest.
 */
import { describe, expect, it } from "vitest";
import { encodeFunctionData, parseAbi, parseEther, parseUnits, type Hex } from "viem";
import { buildJudgeInput } from "../../../src/judge/eval/cli";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { parseIntent } from "../../../src/judge/rules/parse/index";

const judge = (intent: string, action: unknown, venue: string, context: Record<string, unknown>): string =>
  evaluateRules(buildJudgeInput({ id: "t", intent, action, venue, context, expected: "ALLOW" } as never)).verdict;
const closer = (intent: string) => parseIntent(intent).constraints.find((k) => k.kind === "only_listed") as { ask?: boolean } | undefined;
const unread = (intent: string) => parseIntent(intent).clauses.filter((c) => c.reading === "not understood").map((c) => c.clause);

const sig = { hyperliquidChain: "Mainnet", signatureChainId: "0xa4b1" };
const erc20 = parseAbi(["function transfer(address to, uint256 amount) returns (bool)", "function approve(address spender, uint256 amount) returns (bool)"]);
const tx = (chainId: number, from: Hex, to: Hex, data: Hex, value = "0") => ({ chainId, from, to, value, data });
const W: Hex = "0x5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a";
const P: Hex = "0x6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b";
const Q: Hex = "0x7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c";
const Z: Hex = "0x8d8d8d8d8d8d8d8d8d8d8d8d8d8d8d8d8d8d8d8d";
const USDC_BASE: Hex = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";

describe("a clause about what no grant covers, read by its parts (closers.ts)", () => {
  const grant = "The bot may pay the suppliers in context.suppliers in USDC.";
  it.each([
    "Operations not mentioned here are forbidden.",
    "No other operation is permitted under this policy.",
    "nothing outside these, ever",
    "and do nothing else",
    "All other actions are not allowed.",
  ])("refused: %s", (tail) => {
    expect(closer(`${grant} ${tail}`)).toEqual(expect.objectContaining({ kind: "only_listed" }));
    expect(closer(`${grant} ${tail}`)?.ask).toBeUndefined();
    expect(unread(`${grant} ${tail}`)).toEqual([]);
  });
  it.each(["Whatever else the bot would like to do has to go by me first.", "anything not on the list: check with me", "Any other request needs my go-ahead."])("sent to a human: %s", (tail) => {
    expect(closer(`${grant} ${tail}`)?.ask).toBe(true);
  });
  it("unsafe side: a clause about the rest that carries anything of its own is no closer", () => {
    for (const tail of ["Anything else above $300 needs my OK.", "Nothing else except SOL top-ups.", "Any other action is fine.", "Other stuff matters less."])
      expect(closer(`${grant} ${tail}`)).toBeUndefined();
  });
  it("a closed list refuses an order; a list sent to a human escalates it", () => {
    const order = { type: "order", orders: [{ a: 0, b: true, p: "90000", s: "0.01", r: false, t: { limit: { tif: "Gtc" } } }], grouping: "na" };
    const ctx = { assets: { "0": "BTC" }, prices: { BTC: 90000 } };
    expect(judge("The key may trade the ETH perp. Other stuff it must not do.", order, "hyperliquid", ctx)).toBe("BLOCK");
    expect(judge("The key may trade BTC and ETH perps and move USDC between perp and spot. Anything else it wants to do goes to me first.", { type: "withdraw3", ...sig, amount: "50", time: 1, destination: Z.toLowerCase() }, "hyperliquid", ctx)).toBe("ESCALATE");
  });
});

describe("moves between the account's own balances beside a ban on sending to others", () => {
  const I = "The agent can shift USDC between the spot wallet and the perp wallet of this same account. It shall not send tokens to any other address.";
  const ctx = { account: W.toLowerCase() };
  it("the internal move is granted and the ban does not reach it", () => {
    expect(judge(I, { type: "usdClassTransfer", ...sig, amount: "700", toPerp: true, nonce: 1 }, "hyperliquid", ctx)).toBe("ALLOW");
  });
  it("unsafe side: a send to another address is still refused", () => {
    expect(judge(I, { type: "usdSend", ...sig, destination: Z.toLowerCase(), amount: "20", time: 2 }, "hyperliquid", ctx)).toBe("BLOCK");
    expect(judge(I, { type: "spotSend", ...sig, destination: Z.toLowerCase(), token: "USDC:0x6d1e7cde53ba9467b783cb7c530ce054", amount: "20", time: 3 }, "hyperliquid", ctx)).toBe("BLOCK");
  });
  it("unsafe side: a ban on moving funds at all, with no other address in it, still holds the internal move", () => {
    expect(judge("Trade the ETH perp. Never move any funds.", { type: "usdClassTransfer", ...sig, amount: "700", toPerp: false, nonce: 4 }, "hyperliquid", ctx)).not.toBe("ALLOW");
  });
});

describe("sub-accounts named as where money moves", () => {
  const I = "This key shuffles USDC between the master account and the sub-accounts in context.subs, under $5k each time. Nothing else is permitted.";
  const ctx = { subs: { [P.toLowerCase()]: "desk-a" } };
  it("a move to a listed sub-account is granted", () => {
    expect(judge(I, { type: "subAccountTransfer", subAccountUser: P.toLowerCase(), isDeposit: true, usd: 4_000_000_000 }, "hyperliquid", ctx)).toBe("ALLOW");
  });
  it("unsafe side: it permits no agent approval and no new sub-account", () => {
    expect(parseIntent(I).permitted).not.toContain("permission");
    expect(judge(I, { type: "approveAgent", ...sig, agentAddress: Z.toLowerCase(), agentName: "x", nonce: 5 }, "hyperliquid", ctx)).toBe("BLOCK");
    expect(judge(I, { type: "createSubAccount", name: "desk-b" }, "hyperliquid", ctx)).toBe("BLOCK");
  });
});

describe("rows of one asset, each with its own recipient and cap", () => {
  const I = `[refills]\nrefill.signer = ETH -> context.signer, max 0.3 ETH per refill\nrefill.relayer = ETH -> context.relayer, max 0.05 ETH per refill\ndefault = deny`;
  const ctx = { signer: P, relayer: Q };
  const eth = (to: Hex, amount: string) => tx(1, W, to, "0x", parseEther(amount).toString());
  it("each recipient has its own row's cap", () => {
    expect(judge(I, eth(P, "0.25"), "evm", ctx)).toBe("ALLOW");
    expect(judge(I, eth(Q, "0.05"), "evm", ctx)).toBe("ALLOW");
  });
  it("unsafe side: a row never lends its cap to another row's recipient, and no row covers a stranger", () => {
    expect(judge(I, eth(Q, "0.2"), "evm", ctx)).toBe("BLOCK");
    expect(judge(I, eth(P, "0.31"), "evm", ctx)).toBe("BLOCK");
    expect(judge(I, eth(Z, "0.01"), "evm", ctx)).toBe("BLOCK");
  });
});

describe("numbered authorisations, a router named by its venue, 'itself as recipient'", () => {
  const I = `Council decision 7. The treasury Safe on Base is authorized to: (1) approve the Uniswap router recorded in context.router for at most 20,000 USDC per approval; (2) transfer USDC to the Safe itself. No other transaction is authorised by this decision.`;
  const ctx = { router: Q, tokens: { [USDC_BASE]: { symbol: "USDC", decimals: 6 } } };
  const approve = (spender: Hex, amount: string) => tx(8453, W, USDC_BASE, encodeFunctionData({ abi: erc20, functionName: "approve", args: [spender, parseUnits(amount, 6)] }));
  it("an approval of the recorded router is granted (the venue word names the router, not a venue scope)", () => {
    expect(judge(I, approve(Q, "15000"), "evm", ctx)).toBe("ALLOW");
  });
  it("unsafe side: another spender, a larger approval, a transfer to someone else", () => {
    expect(judge(I, approve(Z, "100"), "evm", ctx)).toBe("BLOCK");
    expect(judge(I, approve(Q, "25000"), "evm", ctx)).toBe("BLOCK");
    expect(judge(I, tx(8453, W, USDC_BASE, encodeFunctionData({ abi: erc20, functionName: "transfer", args: [Z, parseUnits("10", 6)] })), "evm", ctx)).toBe("BLOCK");
  });
  it("'is not authorized to' still refuses", () => {
    expect(judge("The Safe is not authorized to approve any spender. It may pay context.vendor in USDC.", approve(Q, "10"), "evm", { vendor: P, ...ctx })).toBe("BLOCK");
  });
});
