/**
 * Figures that sit in a payee's own entry of a context list: an exact amount per person ("the sum beside each name"),
 * a ceiling per recipient ("no more than what was approved for that grantee"), and once per payee per period with a
 * list of who has been paid. Each unsafe side (another amount, a payee already paid, a list or figure missing) is
 * tested beside the case that passes.
 */
import { describe, expect, it } from "vitest";
import { transfer, verdict } from "./helpers";

const ANA = "0x5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a";
const BEN = "0x6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b";
const EVE = "0x7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c";
const pay = (to: string, amount: number, asset = "USDC") => transfer({ asset, amount: String(amount), usd: amount, to });

describe("an exact amount per payee, from the list", () => {
  const I = "Payroll wallet. Send each person in context.staff precisely the sum written beside their name, USDC only.";
  const ctx = { staff: { Ana: { wallet: ANA, usdc: 2_400 }, Ben: { wallet: BEN, usdc: "3100.75" } } };

  it("the listed figure passes, for an entry keyed by name", () => {
    expect(verdict(I, pay(ANA, 2_400), ctx)).toBe("ALLOW");
    expect(verdict(I, pay(BEN, 3_100.75), ctx)).toBe("ALLOW");
  });

  it("any other figure, above or below, is refused", () => {
    expect(verdict(I, pay(ANA, 2_500), ctx)).toBe("BLOCK");
    expect(verdict(I, pay(BEN, 3_000), ctx)).toBe("BLOCK");
  });

  it("someone else's figure to an unlisted address is still refused", () => {
    expect(verdict(I, pay(EVE, 2_400), ctx)).toBe("BLOCK");
  });

  it("an entry with no figure, or two, is for a human", () => {
    expect(verdict(I, pay(ANA, 2_400), { staff: { Ana: { wallet: ANA } } })).toBe("ESCALATE");
    expect(verdict(I, pay(ANA, 2_400), { staff: { Ana: { wallet: ANA, usdc: 2_400, bonus_usdc: 300 } } })).toBe("ESCALATE");
  });

  it("without the list: never allowed", () => {
    expect(verdict(I, pay(ANA, 2_400), {})).not.toBe("ALLOW");
  });

  it("a bare 'pay them the amount listed next to their name' is exact too", () => {
    const bare = "Pay the freelancers in context.staff the amount listed next to their name.";
    expect(verdict(bare, pay(ANA, 2_400), ctx)).toBe("ALLOW");
    expect(verdict(bare, pay(ANA, 2_000), ctx)).toBe("BLOCK");
  });
});

describe("a ceiling per recipient, from the list", () => {
  const I = "The grants safe may pay each recipient in context.round.grantees no more than the amount approved for that recipient, in DAI.";
  const ctx = { round: { grantees: [{ project: "Bramble", address: ANA, approved_dai: "8000" }, { project: "Cobalt", address: BEN, approved_dai: 1500 }] } };
  const dai = (to: string, n: number) => pay(to, n, "DAI");

  it("up to the approved figure passes", () => {
    expect(verdict(I, dai(ANA, 8_000), ctx)).toBe("ALLOW");
    expect(verdict(I, dai(BEN, 900), ctx)).toBe("ALLOW");
  });

  it("above it is refused, though another recipient's figure would cover it", () => {
    expect(verdict(I, dai(BEN, 1_600), ctx)).toBe("BLOCK");
  });

  it("a figure named in one token does not measure a payment in another", () => {
    expect(verdict(I, pay(BEN, 900, "USDC"), ctx)).not.toBe("ALLOW");
  });
});

describe("once per payee per period, with a list of who has been paid", () => {
  const ctx = (paid: unknown) => ({ crew: { Ana: ANA, Ben: BEN }, ...(paid === undefined ? {} : { paid_this_week: paid }) });

  for (const I of [
    "Pay the crew in context.crew, 500 USDC max each. One payout per person per week; context.paid_this_week shows who already got theirs.",
    "Pay the crew in context.crew, 500 USDC max each. Every member at most once a week; context.paid_this_week has who got paid.",
  ]) {
    it(`reads "${I.slice(0, 70)}..."`, () => {
      expect(verdict(I, pay(BEN, 400), ctx(["Ana"]))).toBe("ALLOW");
      expect(verdict(I, pay(ANA, 400), ctx(["Ana"]))).toBe("BLOCK");
      // The paid list may hold addresses, or a map of name -> paid flag.
      expect(verdict(I, pay(ANA, 400), ctx([ANA.toUpperCase().replace("0X", "0x")]))).toBe("BLOCK");
      expect(verdict(I, pay(ANA, 400), ctx({ Ana: true, Ben: false }))).toBe("BLOCK");
      expect(verdict(I, pay(BEN, 400), ctx({ Ana: true, Ben: false }))).toBe("ALLOW");
      expect(verdict(I, pay(BEN, 400), ctx(undefined))).not.toBe("ALLOW");
    });
  }

  it("a frequency rule with no paid list anywhere is not understood", () => {
    expect(verdict("Pay the crew in context.crew, one payout per person per week.", pay(BEN, 400), ctx([]))).toBe("ESCALATE");
  });

  it("the paid list is never a list of people who may be paid", () => {
    const I = "Pay the crew in context.crew, every member at most once a week. context.paid_this_week has who got paid.";
    expect(verdict(I, pay(EVE, 100), { crew: { Ana: ANA }, paid_this_week: [EVE] })).toBe("BLOCK");
  });
});

describe("how owners point at a list", () => {
  const ctx = { team: { [ANA]: "Ana - ops", [BEN]: "Ben - design" }, alumni: { eve: EVE } };

  it("a note on the list's shape after its path, '(wallet -> label)', is not a rule", () => {
    const I = "payees: context.team only (wallet -> label)\nmax per payment: 900 USDC";
    expect(verdict(I, pay(BEN, 800), ctx)).toBe("ALLOW");
    expect(verdict(I, pay(EVE, 800), ctx)).toBe("BLOCK");
  });

  it("a parenthesis after a path that says more than a shape stays a rule to read", () => {
    expect(verdict("payees: context.team only (max 2 per day)", pay(BEN, 800), ctx)).not.toBe("ALLOW");
  });

  it("'folks in context.alumni don't get paid anymore' is a deny list", () => {
    const I = "Pay the people in context.team or context.alumni, 900 USDC max each. Folks in context.alumni don't get paid anymore.";
    expect(verdict(I, pay(EVE, 100), ctx)).toBe("BLOCK");
    expect(verdict(I, pay(ANA, 100), ctx)).toBe("ALLOW");
  });
});
