/**
 * What owners call an activity (src/judge/rules/activity-words.ts), read the same way by the parser (a prohibition
 * blocks what it names) and by the relevance test (a clause about a foreign activity does not hold the action).
 * Wording is our own. Each "unsafe side" case is one a careless reader would let through.
 */
import { describe, expect, it } from "vitest";
import { encodeFunctionData, erc20Abi, parseAbi, type Hex } from "viem";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { bearsOn, clauseReach } from "../../../src/judge/rules/relevance";
import { wordsReach } from "../../../src/judge/rules/activity-words";
import { buildJudgeInput } from "../../../src/judge/eval/cli";
import type { Verdict } from "../../../src/judge/types";
import { facts, input, orderFacts, transfer } from "./helpers";

const SAFE = "0x5afe5afe5afe5afe5afe5afe5afe5afe5afe5afe";
const PAYEE = "0x7a7e7a7e7a7e7a7e7a7e7a7e7a7e7a7e7a7e7a7e";
const BASE_USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const ART = "0xa47a47a47a47a47a47a47a47a47a47a47a47a47a";
const sig = { hyperliquidChain: "Mainnet", signatureChainId: "0xa4b1" };

/** A raw action through the venue adapters, as the service judges it. */
function judgeRaw(intent: string, action: unknown, venue: string, context: Record<string, unknown> = {}): Verdict {
  return evaluateRules(buildJudgeInput({ id: "t", intent, action, venue, context, expected: "ALLOW", acceptable: ["ALLOW"], tags: [], why: "" })).verdict;
}
const judge = (intent: string, f: ReturnType<typeof facts>): Verdict => evaluateRules(input(intent, { type: "test" }, f)).verdict;
const tx = (to: string, data: Hex, value = "0") => ({ chainId: 8453, from: SAFE, to, value, data });

describe("an asset class: NFTs", () => {
  const intent = `Base wallet ${SAFE}: USDC to ${PAYEE} only, up to 1,000 USDC a payment. Absolutely no NFTs.`;
  const ctx = { wallet: SAFE, tokens: { [BASE_USDC]: { symbol: "USDC", decimals: 6 } } };
  const nft = parseAbi(["function safeTransferFrom(address from, address to, uint256 tokenId)", "function setApprovalForAll(address operator, bool approved)"]);

  it("a USDC payment is not held by the NFT ban", () => {
    const data = encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [PAYEE, 400_000_000n] });
    expect(judgeRaw(intent, tx(BASE_USDC, data), "evm", ctx)).toBe("ALLOW");
  });

  it("unsafe side: an ERC-721 safeTransferFrom to the one allowed payee is blocked", () => {
    const data = encodeFunctionData({ abi: nft, functionName: "safeTransferFrom", args: [SAFE, PAYEE, 12n] });
    expect(judgeRaw(intent, tx(ART, data), "evm", ctx)).toBe("BLOCK");
  });

  it("unsafe side: setApprovalForAll to a marketplace is blocked", () => {
    const data = encodeFunctionData({ abi: nft, functionName: "setApprovalForAll", args: [PAYEE, true] });
    expect(judgeRaw(intent, tx(ART, data), "evm", ctx)).toBe("BLOCK");
  });

  it("unsafe side: a transfer of a contract nobody named (an ERC-721 transferFrom reads like an ERC-20 one) is never allowed", () => {
    const f = transfer({ asset: ART, to: PAYEE, usd: null, amount: "3" }, { chain: "base", chainId: 8453 });
    expect(judge(`Send tokens to ${PAYEE}. No NFTs.`, f)).not.toBe("ALLOW");
  });
});

describe("a pattern: looping on a lending pool", () => {
  const intent = `Aave v3 for our Safe ${SAFE}: supply USDC on its behalf, and it may also borrow USDC. No looping.`;
  const borrow = facts({ venue: "aave", actionFamily: "position", actionType: "borrow", chain: "ethereum", summary: "Borrow 500 USDC", assets: ["USDC"], transfers: [{ asset: "USDC", amount: "500", usd: 500, to: SAFE }], details: { onBehalfOfOrTo: SAFE } });
  const both = facts({
    ...borrow,
    actionFamily: "batch" as never,
    actionType: "multicall",
    calls: [
      { venue: "aave", actionFamily: "position", actionType: "borrow", summary: "Borrow 500 USDC" },
      { venue: "aave", actionFamily: "vault", actionType: "supply", summary: "Supply 500 USDC" },
    ],
  });

  it("a borrow the owner permits is not a loop by itself", () => {
    expect(judge(intent, borrow)).toBe("ALLOW");
  });

  it("unsafe side: a borrow that re-supplies in the same action is blocked", () => {
    expect(judge(intent, both)).toBe("BLOCK");
  });

  it("'a human in the loop' is not a loop", () => {
    expect(wordsReach("keep a human in the loop for those").reach.size).toBe(0);
    expect(wordsReach("no leverage loops").reach.has("borrow")).toBe(true);
  });
});

describe("a move the venue names by direction: staking and spot", () => {
  const V = "0x0a11da70a11da70a11da70a11da70a11da70a11d";
  const ctx = { validators: { [V]: "Node A" }, prices: { HYPE: 40 } };
  const delegate = { type: "tokenDelegate", ...sig, validator: V, isUndelegate: false, wei: 1_000_000_000, nonce: 1806100001000 };
  const cWithdraw = { type: "cWithdraw", ...sig, wei: 1_000_000_000, nonce: 1806100002000 };
  const cDeposit = { type: "cDeposit", ...sig, wei: 1_000_000_000, nonce: 1806100003000 };

  it("unsafe side: 'taking HYPE from the staking balance back to spot needs my ok' holds a cWithdraw, not a delegation", () => {
    const intent = "Delegate HYPE only to the validators in context.validators. Taking HYPE from the staking balance back to spot requires my approval.";
    expect(judgeRaw(intent, cWithdraw, "hyperliquid", ctx)).toBe("ESCALATE");
    expect(judgeRaw(intent, delegate, "hyperliquid", ctx)).toBe("ALLOW");
  });

  it("unsafe side: 'no shifting HYPE between spot and staking' forbids both directions and does not hold an order", () => {
    const intent = "Trade the HYPE perp, max $1k per order. No shifting HYPE between spot and staking.";
    expect(judgeRaw(intent, cWithdraw, "hyperliquid", ctx)).toBe("BLOCK");
    expect(judgeRaw(intent, cDeposit, "hyperliquid", ctx)).toBe("BLOCK");
    const order = { type: "order", orders: [{ a: 159, b: true, p: "40", s: "10", r: false, t: { limit: { tif: "Gtc" } } }], grouping: "na" };
    expect(judgeRaw(intent, order, "hyperliquid", { assets: { "159": "HYPE" }, prices: { HYPE: 40 } })).toBe("ALLOW");
  });
});

describe("who controls an account", () => {
  it("'stake authority' and 'withdraw authority' are permission changes, not staking or withdrawing", () => {
    const reach = clauseReach("Handing the stake authority or the withdraw authority of a stake account to anyone needs three sign-offs");
    expect([...(reach ?? [])]).toEqual(["permission"]);
  });

  it("so an unread rule about them does not hold a delegation, and still holds a permission change", () => {
    const clause = "Handing the withdrawer of a stake account to anyone waits for the quarterly review";
    expect(bearsOn(clause, ["delegate"])).toBe(false);
    expect(bearsOn(clause, ["permission"])).toBe(true);
  });

  it("unsafe side: 'never change the withdraw authority of a stake account' blocks the change and forbids no delegation", () => {
    const intent = "Delegating our stake accounts is fine. Never change the withdraw authority of any stake account.";
    const authorize = facts({ venue: "solana", actionFamily: "permission", actionType: "stake.authorize", chain: "solana", summary: "Change the withdraw authority", assets: ["SOL"] });
    const stake = facts({ venue: "solana", actionFamily: "staking", actionType: "stake.delegateStake", chain: "solana", summary: "Delegate stake", assets: ["SOL"], staking: { asset: "SOL", amount: null, usd: null, direction: "delegate" } });
    expect(judge(intent, authorize)).toBe("BLOCK");
    expect(judge(intent, stake)).toBe("ALLOW");
  });
});

describe("value leaving the account", () => {
  const intent = "ETH perps on Hyperliquid, up to $5k an order. Nothing may leave this account for any reason.";
  const ctx = { assets: { "1": "ETH" }, prices: { ETH: 3_500 } };
  const dest = "0x4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b";

  it("unsafe side: every withdrawal, send and vault deposit is blocked", () => {
    expect(judgeRaw(intent, { type: "withdraw3", ...sig, amount: "100", time: 1806100004000, destination: dest }, "hyperliquid", ctx)).toBe("BLOCK");
    expect(judgeRaw(intent, { type: "usdSend", ...sig, destination: dest, amount: "20", time: 1806100005000 }, "hyperliquid", ctx)).toBe("BLOCK");
    expect(judgeRaw(intent, { type: "spotSend", ...sig, destination: dest, token: "USDC:0x6d1e7cde53ba9467b783cb7c530ce054", amount: "20", time: 1806100006000 }, "hyperliquid", ctx)).toBe("BLOCK");
    expect(judgeRaw(intent, { type: "vaultTransfer", vaultAddress: dest, isDeposit: true, usd: 5_000_000 }, "hyperliquid", ctx)).not.toBe("ALLOW");
  });

  it("an order, which moves nothing out, is allowed", () => {
    const order = { type: "order", orders: [{ a: 1, b: true, p: "3500", s: "1", r: false, t: { limit: { tif: "Gtc" } } }], grouping: "na" };
    expect(judgeRaw(intent, order, "hyperliquid", ctx)).toBe("ALLOW");
  });

  it("an unread rule about leaving holds every move but not an order; 'nothing else' still reaches everything", () => {
    const unread = "Nothing should leave the account until the auditors have had a fortnight";
    expect(bearsOn(unread, ["order"])).toBe(false);
    expect(bearsOn(unread, ["withdrawal"])).toBe(true);
    expect(bearsOn(unread, ["bridge"])).toBe(true);
    expect(clauseReach("nothing else should leave the account")).toBeNull();
  });
});

describe("an asset kept for fees", () => {
  const intent = `Pay ${PAYEE} in USDC, at most 300 USDC each. The ETH here is only for gas.`;

  it("unsafe side: sending the ETH is blocked (the fee line had read as a permission to pay)", () => {
    expect(judge(intent, transfer({ asset: "ETH", amount: "0.05", usd: 150, to: PAYEE, kind: "native" }))).toBe("BLOCK");
  });

  it("the USDC payment is allowed", () => {
    expect(judge(intent, transfer({ asset: "USDC", amount: "200", usd: 200, to: PAYEE }))).toBe("ALLOW");
  });
});

describe("liquidity, redemptions and recurring orders", () => {
  it("'no LPing' is read, so a swap is not held by it, and it reaches no swap", () => {
    const swap = facts({ venue: "uniswap", actionFamily: "swap", actionType: "exactInputSingle", chain: "base", summary: "Swap 500 USDC for WETH", assets: ["USDC", "WETH"], swap: { sell: { asset: "USDC", amount: "500", usd: 500 }, buy: { asset: "WETH", amount: null, usd: null }, slippageBps: null, recipient: null } as never });
    expect(judge("Swap USDC and WETH on Uniswap, up to $1k a swap. No LPing.", swap)).toBe("ALLOW");
    expect(clauseReach("no LP positions until the audit") ?? new Set()).not.toContain("swap");
  });

  it("unsafe side: 'it never redeems or merges positions' blocks a plain-English redemption", () => {
    const r = evaluateRules(input("Buy outcome shares on Polymarket, max $20 a bet. It never redeems or merges positions.", "Redeem 40 YES shares now that the market resolved.", null));
    expect(r.verdict).toBe("BLOCK");
  });

  it("'no DCA' holds orders, not a payment", () => {
    expect(clauseReach("no DCA during the migration week") ?? new Set()).toContain("order");
    expect(bearsOn("no DCA during the migration week", ["payment"])).toBe(false);
  });
});

describe("a prohibition bound to one asset leaves other moves to the scope", () => {
  it("unsafe side: 'never send HYPE' in a trading mandate does not let a USDC send through", () => {
    const usd = facts({ actionFamily: "transfer", actionType: "usdSend", summary: "Send 500 USDC", assets: ["USDC"], transfers: [{ asset: "USDC", amount: "500", usd: 500, to: PAYEE }], recipients: [PAYEE] });
    expect(judge("Trade BTC perps on Hyperliquid, max $2k per order. Never send HYPE to anyone.", usd)).not.toBe("ALLOW");
    expect(judge("Trade BTC perps on Hyperliquid, max $2k per order. Never send HYPE to anyone.", orderFacts({ asset: "BTC", size: 0.01, price: 100_000, notionalUsd: 1_000 }))).toBe("ALLOW");
  });
});

describe("closers around the activity words", () => {
  it("'nothing else (no memecoins)' closes the permissions: an order nobody permitted is blocked, a permitted swap is not held", () => {
    const intent = "Swap SOL and USDC on Jupiter, up to $500 a swap. nothing else (no memecoins).";
    const swap = facts({ venue: "jupiter", actionFamily: "swap", actionType: "quote", chain: "solana", summary: "Swap 2 SOL for USDC", assets: ["SOL", "USDC"], swap: { sell: { asset: "SOL", amount: "2", usd: 300 }, buy: { asset: "USDC", amount: null, usd: null }, slippageBps: 50, recipient: null } as never });
    expect(judge(intent, swap)).toBe("ALLOW");
    expect(judge(intent, orderFacts({ asset: "SOL", size: 1, price: 150, notionalUsd: 150 }, { venue: "jupiter", chain: "solana" }))).toBe("BLOCK");
  });

  it("unsafe side: a bracket that carves an exception out of 'nothing else' is not read as an example", () => {
    const intent = "Swap SOL and USDC on Jupiter, up to $500 a swap. nothing else (except BONK).";
    const swap = facts({ venue: "jupiter", actionFamily: "swap", actionType: "quote", chain: "solana", summary: "Swap 2 SOL for USDC", assets: ["SOL", "USDC"], swap: { sell: { asset: "SOL", amount: "2", usd: 300 }, buy: { asset: "USDC", amount: null, usd: null }, slippageBps: 50, recipient: null } as never });
    expect(judge(intent, swap)).not.toBe("ALLOW");
  });

  it("'the people of the list in the context (payees)' is the list at context.payees", () => {
    const intent = "Pay in USDC, only to the people of the list in the context (payees), at most 300 USDC each.";
    const ctx = { payees: { [PAYEE]: "Ana" } };
    expect(evaluateRules(input(intent, { type: "test" }, transfer({ to: PAYEE, usd: 100, amount: "100" }), ctx)).verdict).toBe("ALLOW");
    expect(evaluateRules(input(intent, { type: "test" }, transfer({ to: SAFE, usd: 100, amount: "100" }), ctx)).verdict).toBe("BLOCK");
  });
});
