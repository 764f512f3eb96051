/**
 * An unread clause made only of upper bounds in money does not hold an action that is inside every one of them
 * (src/judge/rules/envelope.ts). The unsafe side matters most here: every shape that could be a lower bound, a
 * price, a condition, a count, a state rule or a grant to someone must keep holding the action. Our own wording.
 */
import { describe, expect, it } from "vitest";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { insideEveryBound, moneyFigures } from "../../../src/judge/rules/envelope";
import { input, orderFacts, transfer } from "./helpers";

const PERMIT = "USDC payments are allowed, up to 5,000 USDC per payment.";
const pay = (usd: number, asset = "USDC") => transfer({ asset, usd, amount: String(usd) });
const judge = (intent: string, f: ReturnType<typeof pay>, ctx: Record<string, unknown> | null = null) => evaluateRules(input(intent, { type: "test" }, f, ctx));
const inside = (r: ReturnType<typeof judge>) => (r.clauses as Array<{ insideEveryBound?: boolean; clause: string }>).filter((c) => c.insideEveryBound).map((c) => c.clause);

describe("an unread bound the action is inside", () => {
  // "north of ... wants a countersign from the board" is nothing the parser reads.
  const BOUND = "Disbursements north of 2,500 USDC want a countersign from the board.";

  it("does not hold a payment below it, and the transcript says why", () => {
    const r = judge(`${PERMIT} ${BOUND}`, pay(1_200));
    expect(r.verdict).toBe("ALLOW");
    expect(inside(r)).toEqual(["Disbursements north of 2,500 USDC want a countersign from the board"]);
  });

  it("holds a payment above it (never allowed on a guess)", () => {
    const r = judge(`${PERMIT} ${BOUND}`, pay(3_000));
    expect(r.verdict).toBe("ESCALATE");
    expect(inside(r)).toEqual([]);
  });

  it("a running total with the counter the clause names: inside it passes, past it is held", () => {
    const clause = "per day: 4k USDC all in, what already went out today sits in context.outflow_today.";
    expect(judge(`${PERMIT} ${clause}`, pay(1_000), { outflow_today: 2_500 }).verdict).toBe("ALLOW");
    expect(judge(`${PERMIT} ${clause}`, pay(1_000), { outflow_today: 3_500 }).verdict).toBe("ESCALATE");
    expect(judge(`${PERMIT} ${clause}`, pay(1_000), {}).verdict).toBe("ESCALATE");
  });

  it("an order is inside a dollar bound read as its price too, unless the clause says it measures size", () => {
    const at = (price: number) => orderFacts({ asset: "ETH", side: "buy", size: 0.1, price, notionalUsd: price / 10 });
    const trade = "The agent trades ETH perps, up to $5,000 per order.";
    // "north of $3,000" could be the price the owner will not pay: a buy at 3,100 is held, one at 2,900 is inside.
    expect(judge(`${trade} Buys north of $3,000 want a countersign from the desk.`, at(3_100)).verdict).toBe("ESCALATE");
    expect(judge(`${trade} Buys north of $3,000 want a countersign from the desk.`, at(2_900)).verdict).toBe("ALLOW");
    // "notional" says it measures size: $310 is inside $3,000 whatever the price.
    expect(judge(`${trade} Notional north of $3,000 wants a countersign from the desk.`, at(3_100)).verdict).toBe("ALLOW");
  });
});

describe("moneyFigures", () => {
  it("reads dollar and token figures, and refuses any figure that is not money", () => {
    expect(moneyFigures("north of $2.5k or 3,000 USDC")).toEqual([
      { value: 2_500, unit: "USD" },
      { value: 3_000, unit: "USDC" },
    ]);
    expect(moneyFigures("3 payments a day")).toBeNull();
    expect(moneyFigures("in 2026")).toBeNull();
  });
});

describe("shapes that keep holding the action (the unsafe side)", () => {
  const small = pay(100);
  it.each([
    ["a lower bound", "No payouts under 500 USDC, sayeth the board."],
    ["a minimum", "Each payout at least 500 USDC, max 4,000 USDC, sayeth the board."],
    ["a range", "Payouts between 500 and 4,000 USDC, sayeth the board."],
    ["an exact amount", "Payouts of exactly 4,000 USDC at most once, sayeth the board."],
    ["a balance to keep", "Keep 4,000 USDC in the wallet at most times, sayeth the board."],
    ["a condition", "Payouts max 4,000 USDC if the board agrees."],
    ["a time of day", "Payouts max 4,000 USDC after 18:00 UTC."],
    ["a count", "Max 3 payouts north of 4,000 USDC, sayeth the board."],
    ["a share", "Payouts max 4% of treasury, sayeth the board."],
    ["an exclusive word", "Only payouts max 4,000 USDC, sayeth the board."],
    ["a prohibition beside the bound", "Never pay twice, and no more than 4,000 USDC, sayeth the board."],
    ["a destination", "Up to 4,000 USDC goes to the ops multisig, sayeth the board."],
    ["a payee noun", "Contractors max 4,000 USDC, sayeth the board."],
    ["a proper name", "Payouts max 4,000 USDC for Maria, sayeth the board."],
    ["an address", "Payouts max 4,000 USDC via 0x3333333333333333333333333333333333333333, sayeth the board."],
    ["a context list", "Payouts max 4,000 USDC as in context.board_list, sayeth the board."],
    ["a total with no counter", "Payouts max 4,000 USDC in aggregate, sayeth the board."],
    ["a figure in another token", "Payouts max 4 ETH, sayeth the board."],
    ["a price", "Payouts max 4,000 USDC at the board's price, sayeth the board."],
  ])("%s", (_why, clause) => {
    expect(insideEveryBound(clause, viewOf(small), null)).toBe(false);
  });

  it("the control: a plain bound in the same words is inside", () => {
    expect(insideEveryBound("Payouts max 4,000 USDC, sayeth the board.", viewOf(small), null)).toBe(true);
  });

  it("an asset the clause names scopes it: a SOL payment is not inside a bound on ETH payouts", () => {
    expect(insideEveryBound("ETH payouts max $4,000, sayeth the board.", viewOf(pay(100, "SOL")), null)).toBe(false);
    expect(insideEveryBound("ETH payouts max $4,000, sayeth the board.", viewOf(pay(100, "ETH")), null)).toBe(true);
  });
});

/** The action view the engine builds, taken from a full evaluation's check of a permissive intent. */
function viewOf(f: ReturnType<typeof pay>) {
  return { ...baseView(), assets: f.assets, activities: ["transfer"], moves: (f.transfers ?? []).map((t) => ({ asset: t.asset, amount: Number(t.amount), usd: t.usd, to: t.to })) } as never;
}
function baseView() {
  return { source: "facts", venue: "ethereum", chain: "ethereum", chainId: "1", actionType: "transfer", summary: "", orders: [], swap: null, approvals: [], leverage: null, recipients: [], beneficiaries: [], hosts: [], notionalUsd: null, contracts: [], gaps: [], warnings: [] };
}
