/**
 * Moves between the owner's own accounts ("shift USDC between the main account and the sub-accounts in
 * context.subs") and caps counted in prediction-market shares ("no more than 150 shares a ticket").
 */
import { describe, expect, it } from "vitest";
import { parseIntent } from "../../../src/judge/rules/parse/index";
import type { Facts } from "../../../src/venues/types";
import { facts, orderFacts, verdict } from "./helpers";

const SUB_A = "0x5555555555555555555555555555555555555555";
const SUB_B = "0x6666666666666666666666666666666666666666";
const OTHER = "0x7777777777777777777777777777777777777777";
const ctx = { subs: { [SUB_A]: "desk-a", [SUB_B]: "desk-b" } };
const move = (sub: string, usd: number, into: boolean): Facts =>
  facts({
    actionFamily: "subaccount",
    actionType: "subAccountTransfer",
    transfers: [{ asset: "USDC", amount: String(usd), usd, to: into ? sub : null, from: into ? null : sub, internal: !into, kind: "subAccountTransfer" }],
    assets: ["USDC"],
    notionalUsd: usd,
    summary: `${into ? "Move" : "Pull"} ${usd} USDC ${into ? "to" : "from"} sub-account ${sub}`,
  });

describe("moves between own accounts", () => {
  const I = "Treasury desk on Hyperliquid. You can shift USDC between the main account and the sub-accounts in context.subs, no more than $2,500 per transfer. Never send anything to outside wallets.";

  it("a move to or from a listed sub-account within the cap is allowed", () => {
    expect(parseIntent(I).clauses.map((c) => c.reading)).not.toContain("not understood");
    expect(verdict(I, move(SUB_A, 2500, true), ctx)).toBe("ALLOW");
    expect(verdict(I, move(SUB_B, 1000, false), ctx)).toBe("ALLOW");
  });

  it("a sub-account outside the list, or an amount above the cap, is refused", () => {
    expect(verdict(I, move(OTHER, 100, true), ctx)).toBe("BLOCK");
    expect(verdict(I, move(OTHER, 100, false), ctx)).toBe("BLOCK");
    expect(verdict(I, move(SUB_A, 2600, true), ctx)).toBe("BLOCK");
  });

  it("without the list in the context, a human decides", () => {
    expect(verdict(I, move(SUB_A, 100, true), {})).toBe("ESCALATE");
  });
});

describe("caps counted in shares", () => {
  const I = "Polymarket only. no more than 150 shares a ticket.";
  const bet = (shares: number | null) => orderFacts({ asset: "YES", market: "prediction", side: "buy", size: shares, price: 0.2, notionalUsd: shares === null ? null : shares * 0.2 }, { venue: "polymarket", chain: "polygon" });
  it("counts the order's shares, not its dollars", () => {
    expect(parseIntent(I).constraints.some((k) => k.kind === "cap" && k.limit.unit === "SHARES" && k.limit.value === 150)).toBe(true);
    expect(verdict(I, bet(150))).toBe("ALLOW");
    expect(verdict(I, bet(151))).toBe("BLOCK");
    expect(verdict(I, bet(null))).toBe("ESCALATE");
  });
});

describe("a cap on what is held somewhere", () => {
  const I = "Lend USDC on Aave (Arbitrum); supplying and withdrawing are both fine. Keep the total we hold in Aave at or below $800k (context.positions_usd.aave_supplied).";
  const aave = (type: "supply" | "withdraw", usd: number | null) =>
    facts({
      venue: "aave",
      chain: "arbitrum",
      chainId: 42161,
      actionFamily: "vault",
      actionType: type,
      transfers: [{ asset: "USDC", amount: usd === null ? null : String(usd), usd, to: null, kind: type, intoProtocol: type === "supply" }],
      assets: ["USDC"],
      notionalUsd: usd,
      summary: `${type} USDC`,
    });
  const ctx = { positions_usd: { aave_supplied: 790_000 } };

  it("a supply that would take the holding over the cap is refused; one inside it passes", () => {
    expect(verdict(I, aave("supply", 20_000), ctx)).toBe("BLOCK");
    expect(verdict(I, aave("supply", 10_000), ctx)).toBe("ALLOW");
  });

  it("a withdrawal, even of an amount the facts do not give, only lowers the holding", () => {
    expect(verdict(I, aave("withdraw", null), ctx)).toBe("ALLOW");
  });
});
