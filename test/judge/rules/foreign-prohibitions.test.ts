/**
 * A prohibition that names only activities this action does not perform cannot hold it (src/judge/rules/foreign.ts).
 * The wording is our own; every "held" case is the unsafe side: the action that does the prohibited thing, or a
 * clause that looks foreign but reaches the action through a figure, a catch-all or an exclusive word.
 */
import { describe, expect, it } from "vitest";
import { buildJudgeInput } from "../../../src/judge/eval/cli";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { foreignToAction, prohibitedActivities } from "../../../src/judge/rules/foreign";
import { emptyView } from "../../../src/judge/rules/view";
import type { Activity } from "../../../src/judge/rules/types";

const sig = { hyperliquidChain: "Mainnet", signatureChainId: "0xa4b1" };
const DEST = "0x5e9ee1f1a3c2b7d4e8f90a1b2c3d4e5f60718293";
const ctx = { assets: { "1": "ETH", "5": "SOL" }, prices: { ETH: 3000, SOL: 150 } };
const ORDER = { type: "order", orders: [{ a: 1, b: true, p: "3000", s: "0.5", r: false, t: { limit: { tif: "Gtc" } } }], grouping: "na" };
const VAULT_IN = { type: "vaultTransfer", vaultAddress: DEST, isDeposit: true, usd: 250_000_000 };
const LEVERAGE = { type: "updateLeverage", asset: 1, isCross: true, leverage: 7 };
const USD_SEND = { type: "usdSend", ...sig, destination: DEST, amount: "75", time: 1771900000000 };
const WITHDRAW = { type: "withdraw3", ...sig, amount: "75", time: 1771900000001, destination: DEST };
const AGENT = { type: "approveAgent", ...sig, agentAddress: DEST, agentName: "scout", nonce: 1771900000002 };

const judge = (intent: string, action: unknown) =>
  evaluateRules(buildJudgeInput({ id: "t", intent, action, venue: "hyperliquid", context: ctx, expected: "ALLOW", acceptable: ["ALLOW"], tags: [], why: "" })).verdict;
const view = (...activities: Activity[]) => ({ ...emptyView("facts", "test"), activities });
const BASE = "Hyperliquid bot: ETH perps, at most 1 ETH per order.";

describe("the prohibited activity, read by verb and object", () => {
  it.each([
    ["HLP and other vaults are off-limits", "vault_deposit"],
    ["the bot is not to bridge anything out", "bridge"],
    ["spot sends and USD sends: not allowed", "transfer"],
    ["the bot never adjusts the leverage", "leverage"],
    ["hands off my leverage", "leverage"],
    ["depositing into a vault needs my explicit approval", "vault_deposit"],
    ["no staking or lending from this account", "supply"],
    ["registering API wallets is prohibited", "permission"],
    ["withdrawing to another chain is out of the question", "withdrawal"],
    ["please never drain the wallet", "transfer"],
    ["and no rugging us", "approval"],
  ])("%s", (clause, act) => {
    const named = prohibitedActivities(clause);
    expect(named?.has(act as Activity)).toBe(true);
    expect(named?.has("order")).toBe(false);
  });

  it.each([
    ["a figure could bound the action", "no more than 500 into vaults"],
    ["a catch-all reaches beyond vaults", "vaults and anything else risky are off-limits"],
    ["an exclusive word makes a scope", "only perps, vaults are off-limits"],
    ["a verb it does not know", "never bridge ETH or hold it overnight"],
    ["exposure reaches every position", "no vault deposits and no exposure beyond the house limit"],
    ["no prohibitive shape", "the bot deposits into vaults on fridays"],
    ["bare leverage is a trading rule, not a setting", "no leverage, ever"],
    ["an asset used as scope", "nothing with ETH goes near a vault"],
  ])("not set aside (%s): %s", (_why, clause) => expect(prohibitedActivities(clause)).toBeNull());
});

describe("foreignToAction", () => {
  it("an action whose kind is unknown is borne on by every clause", () => {
    expect(foreignToAction("HLP and other vaults are off-limits", view("unknown"))).toBe(false);
    expect(foreignToAction("HLP and other vaults are off-limits", view())).toBe(false);
    expect(foreignToAction("HLP and other vaults are off-limits", view("order"))).toBe(true);
  });

  it("an order the payload shows setting a leverage is a leverage change", () => {
    const v = { ...view("order"), leverage: { asset: "ETH", value: 20 } };
    expect(foreignToAction("the bot never adjusts the leverage", v)).toBe(false);
    expect(foreignToAction("the bot never adjusts the leverage", view("order"))).toBe(true);
  });

  it("a plain-English action is judged by its own words too", () => {
    expect(foreignToAction("HLP and other vaults are off-limits", view("order"), "buy 0.5 ETH then park the rest in HLP")).toBe(false);
  });
});

describe("in the engine, against real Hyperliquid payloads", () => {
  it.each([
    "HLP and other vaults are off-limits.",
    "Spot sends and USD sends: not allowed.",
    "The bot never adjusts the leverage.",
    "Registering API wallets is prohibited.",
    "And no rugging us.",
  ])("an order inside the cap is not held by: %s", (clause) => expect(judge(`${BASE} ${clause}`, ORDER)).toBe("ALLOW"));

  it.each([
    ["a vault deposit", "HLP and other vaults are off-limits.", VAULT_IN],
    ["a usdSend", "Spot sends and USD sends: not allowed.", USD_SEND],
    ["a leverage update", "The bot never adjusts the leverage.", LEVERAGE],
    ["an agent approval", "Registering API wallets is prohibited.", AGENT],
    ["a withdrawal", "Withdrawing to another chain is out of the question.", WITHDRAW],
    ["a usdSend, against a ban on taking the owner's value", "And no rugging us.", USD_SEND],
    ["a vault deposit held for a human", "Depositing into a vault needs my explicit approval.", VAULT_IN],
  ])("the action that does the prohibited thing is never allowed: %s", (_what, clause, action) => expect(judge(`${BASE} ${clause}`, action)).not.toBe("ALLOW"));

  it("a clause that names vaults but bounds every order still holds an order above it", () => {
    const big = { ...ORDER, orders: [{ ...ORDER.orders[0], s: "0.9" }] };
    expect(judge("Hyperliquid bot: ETH perps. Nothing above $2,000 goes into a vault or a single order.", big)).not.toBe("ALLOW");
  });
});
