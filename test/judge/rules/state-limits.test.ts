/**
 * Limits computed from the state the context describes (blind37): a balance floor left after the action
 * (parse/balance-floor.ts), a share of a figure the rules name once elsewhere (parse/bases.ts), a per-payee ceiling
 * that is one field of the entry less another (payee-amounts.ts), a permission that holds only while a context figure
 * stays on one side of a bound (parse/state-gates.ts). Each reading is checked on its unsafe side: the action that
 * breaches it is refused, and a missing figure is never an ALLOW.
 */
import { describe, expect, it } from "vitest";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { facts, input, orderFacts, transfer, verdict } from "./helpers";

const VENDOR = "0x2222222222222222222222222222222222222222";
const OTHER = "0x3333333333333333333333333333333333333333";
const eth = (amount: number, to = VENDOR) => transfer({ asset: "ETH", amount: String(amount), usd: null, to, kind: "native" });
const usdc = (amount: number, to = VENDOR) => transfer({ asset: "USDC", amount: String(amount), usd: amount, to });

describe("a balance floor after the action", () => {
  const intent = `Treasury hot wallet. Pay ETH to the vendors in context.vendors. Keep a minimum of 1.5 ETH in this wallet after every payout (current balance: context.wallet.eth_balance).`;
  const ctx = (bal: number | null) => ({ vendors: { [VENDOR]: "printer" }, wallet: bal === null ? { usdc_balance: 900 } : { eth_balance: bal } });

  it("allows a payout that leaves the floor, refuses one that goes under it", () => {
    expect(verdict(intent, eth(2), ctx(4))).toBe("ALLOW"); // 2 left
    expect(verdict(intent, eth(2.5), ctx(4))).toBe("ALLOW"); // exactly 1.5 left: "a minimum of"
    expect(verdict(intent, eth(3), ctx(4))).toBe("BLOCK"); // 1 left
  });

  it("holds the payout for a human when the balance is missing", () => {
    expect(verdict(intent, eth(0.1), ctx(null))).toBe("ESCALATE");
  });

  it("reads 'never let the X balance fall below N' and a balances map the rule does not name", () => {
    const w = "Pay the vendors in context.vendors in USDC. Never let the USDC balance fall below 500.";
    const c = { vendors: { [VENDOR]: "printer" }, balances: { USDC: 1200, ETH: 3 } };
    expect(verdict(w, usdc(600), c)).toBe("ALLOW");
    expect(verdict(w, usdc(800), c)).toBe("BLOCK");
    expect(verdict(w, usdc(100), { vendors: c.vendors, balances: { ETH: 3 } })).not.toBe("ALLOW");
  });

  it("never takes a figure in base units for whole tokens", () => {
    const w = "Pay ETH to the vendors in context.vendors. The wallet must still hold at least 1 ETH after each payment (balance in context.wallet.balance_wei).";
    expect(verdict(w, eth(0.5), { vendors: { [VENDOR]: "printer" }, wallet: { balance_wei: 5e18 } })).not.toBe("ALLOW");
  });

  it("a floor on one asset does not bind a move of another, and a move of an unknown asset is not waved through", () => {
    const w = "Pay the vendors in context.vendors. Always keep at least 2 ETH in the wallet (context.balances).";
    const c = { vendors: { [VENDOR]: "printer" }, balances: { ETH: 2.1, USDC: 50 } };
    expect(verdict(w, usdc(40), c)).toBe("ALLOW");
    expect(verdict(w, eth(0.5), c)).toBe("BLOCK");
    expect(verdict(w, transfer({ asset: null as never, amount: "1", usd: null, to: VENDOR }), c)).not.toBe("ALLOW");
  });

  it("a minimum per payment is not a balance floor", () => {
    const w = "Pay the vendors in context.vendors in USDC; each payment must be at least 25 USDC.";
    expect(verdict(w, usdc(10), { vendors: { [VENDOR]: "printer" }, balances: { USDC: 10_000 } })).not.toBe("ALLOW");
  });
});

describe("a share of a figure the rules name once", () => {
  const ctx = (bankroll: number | null) => ({ fund: bankroll === null ? {} : { bankroll_usd: bankroll } });

  it("takes the base from its declaration in another sentence", () => {
    const intent = "Perps desk. Bankroll: context.fund.bankroll_usd. A single order may use at most 3% of the bankroll.";
    expect(verdict(intent, orderFacts({ notionalUsd: 2_500 }), ctx(100_000))).toBe("ALLOW");
    expect(verdict(intent, orderFacts({ notionalUsd: 3_500 }), ctx(100_000))).toBe("BLOCK");
    expect(verdict(intent, orderFacts({ notionalUsd: 500 }), ctx(null))).not.toBe("ALLOW");
  });

  it("reads the declaration after the share in the same sentence", () => {
    const intent = "Perps desk: each order at most 3% of our bankroll, the bankroll is kept in context.fund.bankroll_usd.";
    expect(verdict(intent, orderFacts({ notionalUsd: 3_500 }), ctx(100_000))).toBe("BLOCK");
    expect(verdict(intent, orderFacts({ notionalUsd: 2_900 }), ctx(100_000))).toBe("ALLOW");
  });

  it("does not guess between two paths given for one noun", () => {
    const intent = "Perps desk. Bankroll: context.fund.bankroll_usd. Old bankroll: context.fund.legacy_usd. A single order may use at most 3% of the bankroll.";
    expect(verdict(intent, orderFacts({ notionalUsd: 100 }), { fund: { bankroll_usd: 100_000, legacy_usd: 900_000 } })).not.toBe("ALLOW");
  });

  it("a period word inside the base is not the cap's period", () => {
    const intent = "Pay the vendors in context.vendors in USDC. Every payment at most 2% of the monthly allowance (context.allowance.month_usd).";
    const c = { vendors: { [VENDOR]: "printer" }, allowance: { month_usd: 10_000 }, spent_this_month_usd: 9_900 };
    expect(verdict(intent, usdc(150), c)).toBe("ALLOW"); // $150 <= $200 per payment; no month total was set
    expect(verdict(intent, usdc(250), c)).toBe("BLOCK");
  });

  it("the cap word nearest the share bounds it, whatever the words before say about the limit price", () => {
    const intent = "BTC perps only. An order's notional, measured at its limit price, shall not exceed 2% of context.account.equity_usd.";
    expect(verdict(intent, orderFacts({ notionalUsd: 1_900 }), { account: { equity_usd: 100_000 } })).toBe("ALLOW");
    expect(verdict(intent, orderFacts({ notionalUsd: 2_100 }), { account: { equity_usd: 100_000 } })).toBe("BLOCK");
  });

  it("a share counted over a day takes the running total its own sentence names", () => {
    const intent = "Perps desk. Bankroll: context.fund.bankroll_usd. Orders per day: at most 10% of the bankroll all together (running total: context.today_usd).";
    expect(verdict(intent, orderFacts({ notionalUsd: 1_500 }), { fund: { bankroll_usd: 100_000 }, today_usd: 9_000 })).toBe("BLOCK");
    expect(verdict(intent, orderFacts({ notionalUsd: 500 }), { fund: { bankroll_usd: 100_000 }, today_usd: 9_000 })).toBe("ALLOW");
  });
});

describe("a ceiling per payee that is one field less another", () => {
  const intent = "Pay USDC only to the members in context.members. Each payout at most the remaining allocation (allocated_usdc less claimed_usdc, from context.members).";
  const members = { [VENDOR]: { allocated_usdc: 3_000, claimed_usdc: 1_000 }, [OTHER]: { allocated_usdc: 2_000 } };

  it("allows up to the difference and refuses more", () => {
    expect(verdict(intent, usdc(2_000), { members })).toBe("ALLOW");
    expect(verdict(intent, usdc(2_001), { members })).toBe("BLOCK");
  });

  it("an entry missing either field is a question, not an allowance", () => {
    expect(verdict(intent, usdc(10, OTHER), { members })).toBe("ESCALATE");
  });

  it("a description carrying an exception is not read as the ceiling", () => {
    const w = "Pay USDC only to the members in context.members. Each payout at most the remaining allocation except bonuses (allocated_usdc less claimed_usdc, from context.members).";
    expect(verdict(w, usdc(2_500), { members })).not.toBe("ALLOW");
  });
});

describe("a permission that holds only while a context figure stays inside a bound", () => {
  const borrow = facts({ venue: "aave", chain: "ethereum", chainId: 1, actionFamily: "position" as never, actionType: "borrow", summary: "borrow 1000 DAI", assets: ["DAI"], notionalUsd: 1_000 });
  const intent = "Aave v3 on Ethereum. Borrowing DAI is fine, but only while context.risk.ltv is below 0.6.";

  it("allows inside the bound, refuses outside it, escalates without the figure", () => {
    expect(evaluateRules(input(intent, { type: "test" }, borrow, { risk: { ltv: 0.5 } })).verdict).toBe("ALLOW");
    expect(evaluateRules(input(intent, { type: "test" }, borrow, { risk: { ltv: 0.6 } })).verdict).toBe("BLOCK");
    expect(evaluateRules(input(intent, { type: "test" }, borrow, { risk: {} })).verdict).toBe("ESCALATE");
  });

  it("a condition on something the context does not name stays unread", () => {
    const w = "Aave v3 on Ethereum. Borrowing DAI is fine, but only while markets are calm.";
    expect(evaluateRules(input(w, { type: "test" }, borrow, { risk: { ltv: 0.1 } })).verdict).not.toBe("ALLOW");
  });

  it("reads a health factor said after its moment", () => {
    const w = "Aave v3 on Ethereum: borrow DAI only. Health factor after any borrow must be at least 1.4.";
    const pos = { aave: { debt_usd: 10_000, health_factor: 2 } };
    // 2 x 10k / 11k = 1.82; 2 x 10k / 16k = 1.25.
    expect(evaluateRules(input(w, { type: "test" }, borrow, pos)).verdict).toBe("ALLOW");
    expect(evaluateRules(input(w, { type: "test" }, { ...borrow, notionalUsd: 6_000, summary: "borrow 6000 DAI" }, pos)).verdict).toBe("BLOCK");
  });
});

describe("period nouns and line ends", () => {
  it("'Month budget: N' is a month budget counted with its running total", () => {
    const w = "pay: USDC to context.vendors only\nMonth budget: 5,000 USDC (paid so far: context.paid_month_usdc)";
    expect(verdict(w, usdc(500), { vendors: { [VENDOR]: "x" }, paid_month_usdc: 4_400 })).toBe("ALLOW");
    expect(verdict(w, usdc(700), { vendors: { [VENDOR]: "x" }, paid_month_usdc: 4_400 })).toBe("BLOCK");
    expect(verdict(w, usdc(10), { vendors: { [VENDOR]: "x" } })).not.toBe("ALLOW");
  });

  it("'only' at the end of a line keeps its list: the recipient outside it is refused", () => {
    const w = "pay: USDC to context.vendors only\nMonth budget: 5,000 USDC (paid so far: context.paid_month_usdc)";
    expect(verdict(w, usdc(10, OTHER), { vendors: { [VENDOR]: "x" }, paid_month_usdc: 0 })).toBe("BLOCK");
  });
});

describe("a running total plus this action against a named figure", () => {
  const intent = "Pay the vendors in context.vendors in USDC. Allowance: context.allowance_usd. Spent so far (context.spent_usd) plus this payment must stay within the allowance.";
  const ctx = (spent: number | null) => ({ vendors: { [VENDOR]: "printer" }, allowance_usd: 1_000, ...(spent === null ? {} : { spent_usd: spent }) });

  it("allows what fits, refuses what goes over, and never allows without the running total", () => {
    expect(verdict(intent, usdc(100), ctx(900))).toBe("ALLOW");
    expect(verdict(intent, usdc(150), ctx(900))).toBe("BLOCK");
    expect(verdict(intent, usdc(1), ctx(null))).not.toBe("ALLOW");
  });

  it("a figure never tied to a path is not guessed", () => {
    const w = "Pay the vendors in context.vendors in USDC. Spent so far (context.spent_usd) plus this payment must stay within the allowance.";
    expect(verdict(w, usdc(1), { ...ctx(0), allowance: 1_000 })).not.toBe("ALLOW");
  });
});

describe("one asset's share of a pair after the action", () => {
  const LIDO = "0xae7ab96520de3a18e5e111b5eaab095312d7fe84";
  const stake = (amount: number) => facts({ venue: "lido", chain: "ethereum", chainId: 1, actionFamily: "staking" as never, actionType: "stake", summary: `stake ${amount} ETH`, assets: ["ETH"], transfers: [{ asset: "ETH", amount: String(amount), usd: null, to: LIDO, kind: "native", intoProtocol: true }], recipients: [LIDO], notionalUsd: null });
  const intent = "You may stake ETH with Lido. stETH must stay at most 40% of our ETH and stETH balances (context.wallet_holdings).";

  it("counts the staked ETH as stETH: inside the share allowed, beyond it refused", () => {
    // 10 ETH + 2 stETH: staking 2 gives 4/12 = 33%; staking 3 gives 5/12 = 41.7%.
    expect(verdict(intent, stake(2), { wallet_holdings: { ETH: 10, stETH: 2 } })).toBe("ALLOW");
    expect(verdict(intent, stake(3), { wallet_holdings: { ETH: 10, stETH: 2 } })).toBe("BLOCK");
  });

  it("a missing holding is not zero", () => {
    expect(verdict(intent, stake(0.1), { wallet_holdings: { ETH: 10 } })).not.toBe("ALLOW");
  });

  it("a share of everything held is not read as a pair", () => {
    const w = "You may stake ETH with Lido. stETH must stay at most 40% of the portfolio (context.wallet_holdings).";
    expect(verdict(w, stake(3), { wallet_holdings: { ETH: 10, stETH: 2 } })).not.toBe("ALLOW");
  });
});
