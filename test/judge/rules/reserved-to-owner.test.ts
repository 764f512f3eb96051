/**
 * Activities the owner keeps ("selling is my call", "leave withdrawals to me", "Priya does the transfers herself",
 * "only I can withdraw") forbid them to the agent. Before, some read as background (a withdrawal went through) and
 * "Only I move money ..." even read as a permission. The unsafe side: what the owner keeps is never allowed, the rest
 * of the mandate still applies, and a kept activity with a figure or an exception is left unread.
 */
import { describe, expect, it } from "vitest";
import { parseIntent } from "../../../src/judge/rules/parse/index";
import { reservedToOwner } from "../../../src/judge/rules/reserved";
import { facts, orderFacts, verdict } from "./helpers";

const COLD = "0x1111111111111111111111111111111111111111";
const RULES = "Trade BTC perps, max $5,000 notional per order.";
const buy = () => orderFacts({ asset: "BTC", side: "buy", size: 0.02, price: 100_000, notionalUsd: 2_000 });
const sell = () => orderFacts({ asset: "BTC", side: "sell", size: 0.02, price: 100_000, notionalUsd: 2_000 });
const withdrawal = () =>
  facts({ actionFamily: "withdrawal", actionType: "withdraw3", assets: ["USDC"], recipients: [COLD], notionalUsd: 400, transfers: [{ asset: "USDC", amount: "400", usd: 400, to: COLD, kind: "withdraw" }] });
const forbids = (intent: string) => parseIntent(intent).constraints.filter((k) => k.kind === "forbid" || k.kind === "side");

describe("a withdrawal the owner keeps", () => {
  it.each([
    "Withdrawals are my call.",
    "withdrawals stay with me - leave withdrawals to me",
    "Priya handles all the withdrawals herself.",
    "I'll withdraw myself when I need cash.",
    "Only I can withdraw.",
    "Moving money off the exchange is the treasurer's job.",
    "only the owner may move money off the exchange",
  ])("%s", (line) => {
    const intent = `${RULES} ${line}`;
    expect(forbids(intent).length).toBeGreaterThan(0);
    expect(verdict(intent, withdrawal())).toBe("BLOCK");
    expect(verdict(intent, buy())).toBe("ALLOW");
  });
});

describe("a side the owner keeps", () => {
  it.each(["Selling is up to me, not the bot.", "sells are my decision", "I decide when to sell."])("%s", (line) => {
    const intent = `${RULES} ${line}`;
    expect(verdict(intent, buy())).toBe("ALLOW");
    expect(verdict(intent, sell())).not.toBe("ALLOW");
  });
});

describe("what is not rewritten (unsafe side)", () => {
  it("a kept activity with a figure stays as written, and unread", () => {
    const intent = `${RULES} Withdrawals over $1,000 are my call.`;
    expect(verdict(intent, withdrawal())).not.toBe("ALLOW");
  });

  it("'up to' as a cap is not an owner's decision", () => {
    for (const s of ["Withdrawals up to $500 to context.cold are fine.", "Sizing is up to you within the caps."]) expect(reservedToOwner(s)).toBe(s);
  });

  it("a grant to the agent is not read as kept ('it is your call')", () => {
    const intent = `${RULES} Timing the entries is your call.`;
    expect(forbids(intent)).toEqual([]);
  });
});

describe("'Only' before a venue, chain or asset names what is permitted, not who keeps it", () => {
  it("'Only Hyperliquid orders' keeps orders allowed and is not rewritten to a ban", () => {
    expect(reservedToOwner("Only Hyperliquid orders, max $5,000 notional per order.")).toContain("Only Hyperliquid orders");
    expect(verdict("Only Hyperliquid orders, max $5,000 notional per order.", buy())).toBe("ALLOW");
  });
  it("'Only BTC trades' still limits the asset (unsafe side)", () => {
    const intent = "Only BTC trades, max $5,000 notional per order.";
    expect(reservedToOwner(intent)).toContain("Only BTC trades");
    expect(verdict(intent, buy())).toBe("ALLOW");
    expect(verdict(intent, orderFacts({ asset: "ETH", side: "buy", size: 0.5, price: 3_000, notionalUsd: 1_500 }))).toBe("BLOCK");
  });
  it("a person's name is still an owner keeping the activity (unsafe side)", () => {
    expect(reservedToOwner("Only Priya withdraws.")).toBe("never withdraws.");
    expect(verdict(`${RULES} Only Priya withdraws.`, withdrawal())).toBe("BLOCK");
  });
});
