/**
 * A clause the engine could not read holds back an ALLOW only when it could restrict the action being judged
 * (src/judge/rules/relevance.ts). The wording here is our own; each "stays held" case is the unsafe side.
 */
import { describe, expect, it } from "vitest";
import { assetForeign, bearsOn, clauseReach } from "../../../src/judge/rules/relevance";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { facts, input, orderFacts, transfer } from "./helpers";

const ORDER = orderFacts({ asset: "ETH", side: "buy", size: 0.1, price: 3_000, notionalUsd: 300 });
const WITHDRAWAL = facts({ actionFamily: "withdrawal", actionType: "withdraw3", summary: "Withdraw 200 USDC", assets: ["USDC"], notionalUsd: 200 });
// An unreadable clause: "after 3 sign-offs" and "alternate fortnights" are nothing the parser reads.
const ODD_WITHDRAWALS = "Withdrawals happen on alternate fortnights after 3 sign-offs.";

const judge = (intent: string, f: ReturnType<typeof facts>) => evaluateRules(input(intent, { type: "test" }, f));
const aside = (r: ReturnType<typeof judge>) => (r.clauses as Array<{ bearsOnAction?: boolean; clause: string }>).filter((c) => c.bearsOnAction === false).map((c) => c.clause);

describe("clauses that cannot bear on the action", () => {
  it("an unreadable rule about withdrawals does not hold an order that meets every other rule, and the transcript says so", () => {
    const r = judge(`Max $500 per order. ${ODD_WITHDRAWALS}`, ORDER);
    expect(r.verdict).toBe("ALLOW");
    expect(aside(r)).toEqual(["Withdrawals happen on alternate fortnights after 3 sign-offs"]);
  });

  it("the same clause still holds a withdrawal", () => {
    const r = judge(`Max $500 per order. ${ODD_WITHDRAWALS}`, WITHDRAWAL);
    expect(r.verdict).not.toBe("ALLOW");
    expect(aside(r)).toEqual([]);
  });

  it("the order is still held to the rules it is read against", () => {
    const big = orderFacts({ asset: "ETH", side: "buy", size: 1, price: 3_000, notionalUsd: 3_000 });
    expect(judge(`Max $500 per order. ${ODD_WITHDRAWALS}`, big).verdict).toBe("BLOCK");
  });

  it("an unreadable leverage rule does not hold a payment, but holds an order", () => {
    const intent = "Pay at most 300 USDC per payment. Leverage goes up in alternate fortnights after 3 sign-offs.";
    expect(judge(intent, transfer({ usd: 100, amount: "100" })).verdict).toBe("ALLOW");
    expect(judge(intent, ORDER).verdict).not.toBe("ALLOW");
  });

  it.each([
    ["an exclusive word turns a named activity into a scope", "Max $500 per order. The bot only ever pays invoices in alternate fortnights after 3 sign-offs."],
    ["a clause naming no activity bears on every action", "Max $500 per order. Above 3 sign-offs wait for Alice in alternate fortnights."],
    ["a catch-all word reaches every action", "Max $500 per order. Withdrawals and anything else wait for 3 sign-offs in alternate fortnights."],
    ["'other' reaches beyond the activity named", "Max $500 per order. No other withdrawals happen before 3 sign-offs in alternate fortnights."],
    ["a spending rule bears on orders too", "Max $500 per order. Spending stops in alternate fortnights after 3 sign-offs."],
    ["a rule on buying bears on orders", "Max $500 per order. Buying waits for alternate fortnights after 3 sign-offs."],
  ])("stays held: %s", (_why, intent) => {
    const r = judge(intent, ORDER);
    expect(r.verdict).toBe("ESCALATE");
    expect(aside(r)).toEqual([]);
  });
});

describe("clauseReach", () => {
  it("names the activities a scoped clause can restrict", () => {
    const reach = clauseReach("withdrawals to the cold wallet need two sign-offs")!;
    expect(reach.has("withdrawal")).toBe(true);
    expect(reach.has("order")).toBe(false);
  });

  it("a purchase can be paid for: buying bears on payments", () => {
    expect(clauseReach("never buy datasets after dark")!.has("payment")).toBe(true);
  });

  it("paying is also what an order does, while a payout is not an order", () => {
    expect(clauseReach("never pay above the mid price")!.has("order")).toBe(true);
    expect(clauseReach("payouts to contributors go out on fridays")!.has("order")).toBe(false);
  });

  it.each(["nothing above $5k without asking me", "anything over 1k waits for me", "the agent only ever pays invoices", "keep the balance above 2k", "total spend stays under 10k"])(
    "reaches everything: %s",
    (clause) => expect(clauseReach(clause)).toBeNull(),
  );
});

describe("bearsOn", () => {
  it("an action of unknown kind is borne on by every clause", () => {
    expect(bearsOn("withdrawals wait for two sign-offs", ["unknown"])).toBe(true);
    expect(bearsOn("withdrawals wait for two sign-offs", [])).toBe(true);
  });

  it("a plain-English action is also judged by its own words", () => {
    expect(bearsOn("staking waits for two sign-offs", ["order"], "buy 1 ETH and stake it with a validator")).toBe(true);
    expect(bearsOn("staking waits for two sign-offs", ["order"], "buy 1 ETH perp")).toBe(false);
  });
});

describe("clauses that limit only assets the action does not touch", () => {
  const PAY = "Pay at most 300 USDC per payment.";
  const SOL_RULE = "SOL never moves in alternate fortnights after 3 sign-offs.";
  const usdcPayment = transfer({ usd: 100, amount: "100" });
  const solTransfer = transfer({ asset: "SOL", amount: "1", usd: 150 });

  it("an unreadable prohibition about SOL does not hold a USDC payment that meets every other rule", () => {
    const r = judge(`${PAY} ${SOL_RULE}`, usdcPayment);
    expect(r.verdict).toBe("ALLOW");
    expect(aside(r)).toEqual(["SOL never moves in alternate fortnights after 3 sign-offs"]);
  });

  it("the same clause holds a SOL transfer", () => {
    expect(judge(`${PAY} ${SOL_RULE}`, solTransfer).verdict).not.toBe("ALLOW");
  });

  it("a wrapped or bridged form of the named asset is the same asset", () => {
    expect(assetForeign("ETH never moves after 3 sign-offs", ["WETH"])).toBe(false);
    expect(assetForeign("WETH never moves after 3 sign-offs", ["ETH"])).toBe(false);
    expect(assetForeign("no USDC.e moves after 3 sign-offs", ["USDC"])).toBe(false);
  });

  it.each([
    ["a statement may be an exclusive scope in disguise", "Salaries go out in SOL on alternate fortnights."],
    ["a bare cap may be a scope too", "Transfers up to 5 SOL in alternate fortnights."],
    ["a stablecoin measures every asset", "Never move more than 500 USDC in alternate fortnights."],
    ["a dollar figure measures every asset", "SOL moves never exceed $500 in alternate fortnights."],
    ["a value word measures every asset", "Nothing worth more than 5 SOL moves in alternate fortnights."],
    ["an asset class reaches every asset", "SOL and other tokens never move in alternate fortnights."],
    ["an escape from a scope names what is outside it", "Never trade off SOL in alternate fortnights."],
    ["an address may be barred for every asset", "Never send SOL to 0x2222222222222222222222222222222222222222 in alternate fortnights."],
    ["a context list may name any asset", "Never send SOL outside context.vendors in alternate fortnights."],
  ])("stays held: %s", (_why, clause) => {
    // A BTC action touches neither SOL nor USDC: only the clause's own words can keep it on the action.
    expect(assetForeign(clause, ["BTC"])).toBe(false);
  });

  it("the control: the same shape without those words is foreign to a BTC action", () => {
    expect(assetForeign("SOL never moves in alternate fortnights.", ["BTC"])).toBe(true);
  });

  it("a stablecoin named without a figure is one asset among others, except to an order (its margin or quote)", () => {
    expect(assetForeign("don't ever touch the USDC in here, it is for payroll", ["SOL"])).toBe(true);
    expect(assetForeign("don't ever touch the USDC in here, it is for payroll", ["SOL"], true)).toBe(false);
    expect(assetForeign("don't ever send more than 500 USDC in one go", ["SOL"])).toBe(false);
    expect(assetForeign("don't ever touch the USDC in here, it is for payroll", ["USDC"])).toBe(false);
  });

  it("an action whose assets are unknown is borne on", () => {
    expect(assetForeign("SOL never moves after 3 sign-offs", [])).toBe(false);
  });
});
