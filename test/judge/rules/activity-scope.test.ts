/**
 * Which activity a figure belongs to (parse/clause-activity.ts): a cap or "ask me" line written in a sentence about
 * one activity binds that activity; a general cap, a cap in a sentence naming no activity or two, and a catch-all
 * keep binding everything. Also the readings that made a clause about one thing a scope for another: "jup" the
 * venue vs JUP the token, a wallet's title naming its chain, a dismissal of testnets. Wording is our own; every
 * "still" case is the unsafe side.
 */
import { describe, expect, it } from "vitest";
import { parseIntent } from "../../../src/judge/rules/parse/index";
import { sentenceActivities } from "../../../src/judge/rules/parse/clause-activity";
import type { Facts } from "../../../src/venues/types";
import { facts, orderFacts, transfer, verdict } from "./helpers";

const FRIEND = "0x2222222222222222222222222222222222222222";
const swap = (sell: string, buy: string, usd: number, amount = "1"): Facts =>
  facts({
    venue: "uniswap",
    chain: "ethereum",
    chainId: 1,
    actionFamily: "swap",
    actionType: "exactInputSingle",
    swap: { sell: { asset: sell, amount, usd }, buy: { asset: buy, amount: null, minAmount: null, usd: null }, slippageBps: 30, recipient: null },
    assets: [sell, buy],
    notionalUsd: usd,
  });
const pay = (usd: number, to = FRIEND) => transfer({ asset: "USDC", amount: String(usd), usd, to });
const ethSend = (eth: number, to = FRIEND) => transfer({ asset: "ETH", amount: String(eth), usd: eth * 3000, to, kind: "native" });
const btcOrder = (usd: number) => orderFacts({ asset: "BTC", size: usd / 100_000, price: 100_000, notionalUsd: usd });

describe("a figure in a sentence about one activity binds that activity", () => {
  const I = `Swapping ETH for USDC on Uniswap is fine, up to $8,000 a swap. Transfers of ETH go to ${FRIEND} only, never more than 0.2 ETH apiece.`;

  it("a swap selling 2 ETH is not held to the 0.2 ETH written for transfers", () => {
    expect(verdict(I, swap("ETH", "USDC", 6_000, "2"))).toBe("ALLOW");
  });

  it("still: a transfer of 0.5 ETH is over the transfer cap", () => {
    expect(verdict(I, ethSend(0.5))).toBe("BLOCK");
  });

  it("still: the swap cap binds swaps", () => {
    expect(verdict(I, swap("ETH", "USDC", 9_000, "3"))).toBe("BLOCK");
  });

  it("a heading names what its line is about, and a catch-all inside it stays inside", () => {
    const H = `Trading: BTC perps, orders up to $20k notional.\nContractor payouts: USDC to ${FRIEND}, max $300 each, anything over $200 ping me first.`;
    expect(verdict(H, btcOrder(15_000))).toBe("ALLOW");
    expect(verdict(H, pay(250))).toBe("ESCALATE");
    expect(verdict(H, pay(400))).toBe("BLOCK");
    expect(verdict(H, pay(150))).toBe("ALLOW");
  });

  it("an ask-me line in a withdrawal sentence does not hold orders", () => {
    const W = `Trade BTC perps, max $50k per order. You may withdraw USDC to ${FRIEND}; withdrawals above $1,000 need my sign-off.`;
    expect(verdict(W, btcOrder(30_000))).toBe("ALLOW");
  });
});

describe("figures that keep binding every action (fail closed)", () => {
  it("a general cap after two activities binds both", () => {
    const I = `You can swap ETH and USDC, and pay USDC to ${FRIEND}. Nothing above $2,500 per transaction.`;
    expect(verdict(I, swap("ETH", "USDC", 3_000))).toBe("BLOCK");
    expect(verdict(I, pay(3_000))).toBe("BLOCK");
  });

  it("a cap in a sentence naming two activities binds both", () => {
    const I = `Swaps between ETH and USDC and payments in USDC to ${FRIEND} are fine, at most $1,500 each.`;
    expect(verdict(I, swap("ETH", "USDC", 2_000))).toBe("BLOCK");
  });

  it("a catch-all beside an activity keeps the figure on every action", () => {
    const I = `Swap ETH for USDC as needed. Send USDC to ${FRIEND}, and no single action over $4,000.`;
    expect(verdict(I, swap("ETH", "USDC", 5_000))).toBe("BLOCK");
  });

  it("'leaves the account' binds every way out, not orders", () => {
    const I = `Trade BTC perps, orders up to $40k notional. USDC may go to ${FRIEND}. Nothing over $5,000 leaves the account at once.`;
    expect(verdict(I, btcOrder(30_000))).toBe("ALLOW");
    expect(verdict(I, pay(6_000))).toBe("BLOCK");
  });

  it("a wallet's chain in a title run into the first line keeps binding every activity", () => {
    const I = `mainnet ops wallet (chain 1)\nunwrap WETH -> ETH: <= 2 ETH/tx\nETH sends: ${FRIEND} only, <= 0.5 ETH each\nnothing else`;
    expect(verdict(I, ethSend(0.1))).toBe("ALLOW");
    const onBase = transfer({ asset: "ETH", amount: "0.1", usd: 300, to: FRIEND, kind: "native" }, { chain: "base", chainId: 8453 });
    expect(verdict(I, onBase)).toBe("BLOCK");
  });

  it("'before it goes out' is about any action being sent, not a scope to outflows", () => {
    expect(verdict("Send USDC to context.payees. I want to see anything over $1k before it goes out.", btcOrder(2_000))).not.toBe("ALLOW");
    expect(sentenceActivities("anything over $1k before it leaves")).toBeNull();
  });

  it("an activity word that only names an object ('rent deposits') does not take a paying sentence's cap away", () => {
    const I = `This wallet pays USDC to ${FRIEND}, at most 900 USDC each. It also returns security deposits in ETH to ${FRIEND}, up to 0.1 ETH per refund. That is all this wallet does.`;
    expect(verdict(I, ethSend(0.4))).toBe("BLOCK");
  });

  it("the reader returns no activity for sentences naming none, two, or a catch-all", () => {
    expect(sentenceActivities("Max $500.")).toBeNull();
    expect(sentenceActivities("swaps and transfers up to $500")).toBeNull();
    expect(sentenceActivities("sends: anything up to $500, any transaction")).toEqual(expect.arrayContaining(["transfer", "payment"]));
    expect(sentenceActivities("transfers up to $500 and no single transaction above $900")).toBeNull();
  });
});

describe("venue, chain and title words are not asset lists", () => {
  it("'jup' is Jupiter, the venue; 'JUP' is the token", () => {
    const lower = parseIntent("swaps: jup only, SOL <-> USDC").constraints;
    expect(lower).toContainEqual(expect.objectContaining({ kind: "allow", dim: "venue", values: ["jupiter"] }));
    expect(lower.some((k) => k.kind === "allow" && k.dim === "asset" && k.values.includes("JUP"))).toBe(false);
    const upper = parseIntent("Jupiter swaps between SOL, USDC and JUP.").constraints;
    expect(upper.some((k) => k.kind === "allow" && k.dim === "asset" && k.values.includes("JUP"))).toBe(true);
  });

  it("a wallet's title names the wallet, not what it may touch; a title with a limit word is still read", () => {
    const titled = parseIntent("eth cold wallet policy (mara):\n- send USDC to context.vendors only").constraints;
    expect(titled.some((k) => k.kind === "allow" && k.dim === "asset" && k.values.includes("ETH"))).toBe(false);
    const scoped = parseIntent("ETH only wallet:\n- send to context.vendors").constraints;
    expect(scoped.some((k) => k.kind === "allow" && k.dim === "asset" && k.values.includes("ETH"))).toBe(true);
  });

  it("a dismissal of testnets denies them rather than listing them", () => {
    const cs = parseIntent("Pay for API calls in USDC, max $1 per call. Testnet payments are pointless for us, don't bother with those.").constraints;
    expect(cs.some((k) => k.kind === "allow" && k.dim === "chain")).toBe(false);
    const x = (chain: string) => transfer({ asset: "USDC", amount: "0.5", usd: 0.5 }, { venue: "x402", chain, actionFamily: "payment", actionType: "x402" });
    expect(verdict("Pay for API calls in USDC, max $1 per call. Testnet payments are useless to us.", x("base-sepolia"))).toBe("BLOCK");
  });

  it("'no other transfers' closes the list of moves", () => {
    const I = `USDC payouts to ${FRIEND}, up to $100 each.\nno other transfers`;
    expect(parseIntent(I).clauses.map((c) => c.reading)).not.toContain("not understood");
    expect(verdict(I, pay(50, "0x3333333333333333333333333333333333333333"))).toBe("BLOCK");
  });
});
