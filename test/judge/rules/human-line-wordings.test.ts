/**
 * "Ask a human" lines in the wordings owners write them (parse/human.ts, parse/amounts.ts, parse/line-units.ts,
 * parse/referrals.ts, parse/polarity.ts, spelling.ts): words after the human phrase ("before it is paid", "prior to
 * execution", "a human must approve it before"), a config value ("-> treasurer sign-off required"), a bare figure in
 * the unit of the cap beside it, a line that includes its figure ("from 600 USDC up"), a band whose low end names its
 * unit, the top tier after the figure ("Over $30, never."), and an activity held for the owner ("never unstake
 * without checking with me"). Each shape with its unsafe side: above the line is never ALLOW, above the hard cap is
 * BLOCK. Our own wording, not a blind set's.
 */
import { describe, expect, it } from "vitest";
import { orderFacts, transfer, verdict } from "./helpers";

const pay = (usd: number, asset = "USDC") => transfer({ asset, usd, amount: String(usd) });
const coin = (amount: number, asset: string) => transfer({ asset, usd: null, amount: String(amount) });
/** The payee list every payment mandate below names; the helpers' transfers go to its one address. */
const LISTED = { payees: ["0x1111111111111111111111111111111111111111"] };

describe("a human line followed by more words", () => {
  const cases: Array<[string, string]> = [
    ["trailing purpose", "Pay the suppliers in context.payees in USDC, at most 4,000 USDC per payment. A payment above 900 USDC needs a human's confirmation prior to payment."],
    ["third person", "Pay the suppliers in context.payees in USDC, at most 4,000 USDC per payment, and anything over 900 USDC we'd like to review before it sends."],
    ["modal duty, bare before", "Pay the suppliers in context.payees in USDC. Each payment maximum 4,000 USDC, and if a payment is more than 900 USDC the owner has to approve it before."],
    ["shall be approved", "Pay the suppliers in context.payees in USDC, at most 4,000 USDC per payment; payments above 900 USDC shall be approved by the treasurer before they are released."],
    ["role with its department", "Pay the suppliers in context.payees in USDC, at most 4,000 USDC per payment. Any payment over 900 USDC requires finance committee sign-off prior to execution."],
    ["config value", "pay: USDC to context.payees\nper payment max: 4,000 USDC\npayments > 900 USDC -> treasurer approval required"],
    ["chat contraction", "pay the suppliers in context.payees in usdc, never more then 4000 USDC a payment. anythin over 900 USDC i wanna check first"],
  ];
  for (const [name, intent] of cases) {
    it(`${name}: under the line is allowed, above it is held, above the cap is blocked`, () => {
      expect(verdict(intent, pay(600), LISTED)).toBe("ALLOW");
      expect(verdict(intent, pay(1_500), LISTED)).toBe("ESCALATE");
      expect(verdict(intent, pay(5_000), LISTED)).toBe("BLOCK");
    });
  }

  it("the modal approver is a person: 'approve' there grants no token approval", () => {
    const intent = "Pay the suppliers in context.payees in USDC, at most 4,000 USDC per payment, and if one is more than 900 USDC someone must approve it first.";
    const approval = transfer({ asset: "USDC", usd: 100, amount: "100" }, { actionFamily: "approval", actionType: "approve", approvals: [{ token: "USDC", spender: "0x2222222222222222222222222222222222222222", amount: "100", unlimited: false }] } as never);
    expect(verdict(intent, approval, LISTED)).not.toBe("ALLOW");
  });

  it("a bare 'before' after a doubt is not read away (the doubt still holds)", () => {
    const intent = "Pay the suppliers in context.payees in USDC, at most 4,000 USDC per payment. If you are unsure whether an invoice is genuine, ask me before.";
    expect(verdict(intent, pay(600), LISTED)).not.toBe("BLOCK");
  });
});

describe("a bare human figure takes the unit of the cap beside it", () => {
  const bet = (shares: number, price: number) =>
    orderFacts({ asset: "TOKEN", market: "prediction", side: "buy", size: shares, price, notionalUsd: shares * price }, { venue: "polymarket", chain: "polygon" });
  const PM = "Polymarket: max 90 dollars a ticket, and if one costs more than 50 text me first.";

  it("dollars: 150 shares for $45 is under the $50 line, though 150 is more than 50", () => {
    expect(verdict(PM, bet(150, 0.3))).toBe("ALLOW");
  });
  it("unsafe side: $54 is above the line (ESCALATE), $95 above the cap (BLOCK)", () => {
    expect(verdict(PM, bet(60, 0.9))).toBe("ESCALATE");
    expect(verdict(PM, bet(190, 0.5))).toBe("BLOCK");
  });

  const eth = (size: number) => orderFacts({ asset: "ETH", size, price: 3_000, notionalUsd: size * 3_000 });
  const HL = "HL: ETH perps only. max 3 ETH per trade; anything over 2 ask me.";
  it("a coin: 1.5 ETH is under a line of 2 ETH, 2.5 ETH is held", () => {
    expect(verdict(HL, eth(1.5))).toBe("ALLOW");
    expect(verdict(HL, eth(2.5))).toBe("ESCALATE");
    expect(verdict(HL, eth(3.5))).toBe("BLOCK");
  });

  it("a figure above its own cap is no band under it: it stays open and holds", () => {
    const odd = "HL: ETH perps only. max 3 ETH per trade; anything over 5000 ask me.";
    // $4,500 could be over 5000 in neither reading, but 1.5 ETH at $3,000 is $4,500: under $5,000 and under 5,000 ETH.
    expect(verdict(odd, eth(1.5))).toBe("ALLOW");
    // 1.8 ETH is $5,400: above $5,000 in the dollar reading, so it is held, never allowed.
    expect(verdict(odd, eth(1.8))).toBe("ESCALATE");
  });
});

describe("a line that includes its figure, and a band", () => {
  const FROM_UP = "Pay the grantees in context.payees in STRK, max 6,000 STRK per grant. Grants from 2,000 STRK up need my ok first.";
  it("'from X up' holds X itself and anything above, not below", () => {
    expect(verdict(FROM_UP, coin(1_999, "STRK"), LISTED)).toBe("ALLOW");
    expect(verdict(FROM_UP, coin(2_000, "STRK"), LISTED)).toBe("ESCALATE");
    expect(verdict(FROM_UP, coin(7_000, "STRK"), LISTED)).toBe("BLOCK");
  });

  const BAND = "Pay our vendors in context.payees in USDC. Payments from 50 dollars to 400 dollars need my OK. Over $400, never.";
  it("a band whose low end names its unit: below it passes, inside it is held, the top tier is a cap", () => {
    expect(verdict(BAND, pay(30), LISTED)).toBe("ALLOW");
    expect(verdict(BAND, pay(50), LISTED)).toBe("ESCALATE");
    expect(verdict(BAND, pay(250), LISTED)).toBe("ESCALATE");
    expect(verdict(BAND, pay(450), LISTED)).toBe("BLOCK");
  });
});

describe("an activity held for the owner", () => {
  const stake = (actionType: string, activity: "delegate" | "undelegate") =>
    transfer({ asset: "SOL", usd: null, amount: "10" }, { venue: "solana", chain: "solana", actionFamily: "staking", actionType, activities: [activity] } as never);
  const sendSol = (amount: number) => transfer({ asset: "SOL", usd: null, amount: String(amount), to: "HotWa11et1111111111111111111111111111111111" }, { venue: "solana", chain: "solana" });
  const INTENT = "Staking account. Never unstake or pull stake out without checking with me first. SOL transfers to context.hot_wallet only, up to 3 SOL each.";
  const ctx = { hot_wallet: "HotWa11et1111111111111111111111111111111111" };

  it("the negation belongs to 'without checking with me': other actions are not held by it", () => {
    expect(verdict(INTENT, sendSol(2), ctx)).toBe("ALLOW");
    expect(verdict(INTENT, sendSol(5), ctx)).toBe("BLOCK");
  });
  it("unsafe side: the held activity escalates, never allowed", () => {
    expect(verdict(INTENT, stake("deactivate", "undelegate"), ctx)).toBe("ESCALATE");
  });
  it("with an asset or a recipient in it, the clause stays unread and holds", () => {
    const narrow = "SOL transfers to context.hot_wallet only, up to 3 SOL each. Never send USDC to exchanges without asking me first.";
    expect(verdict(narrow, sendSol(2), ctx)).not.toBe("ALLOW");
  });
});
