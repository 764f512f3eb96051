/** Readings added after the third blind round: each one either narrows an ALLOW or is at least as strict as before. */
import { describe, expect, it } from "vitest";
import { parseIntent } from "../../../src/judge/rules/parse/index";
import { facts, orderFacts, verdict } from "./helpers";

const kinds = (intent: string) => parseIntent(intent).constraints.map(({ rule: _r, ...k }) => k);

describe("rules readings (blind3)", () => {
  it("'go long (buy side)' also forbids sells, even reduce-only ones", () => {
    const intent = "Trade ETH perps on Hyperliquid. We only ever go long (buy side).";
    expect(kinds(intent)).toContainEqual({ kind: "side", allowed: "buy" });
    expect(verdict(intent, orderFacts({ asset: "ETH", side: "sell", reduceOnly: true, size: 0.5, price: 3000, notionalUsd: 1500 }))).not.toBe("ALLOW");
    expect(kinds("Trade ETH perps on Hyperliquid. Buy side only.")).toContainEqual({ kind: "side", allowed: "buy" });
  });

  it("'Limit orders only: no trigger orders' denies triggers instead of allowing them", () => {
    const ks = kinds("Trade BTC perps on Hyperliquid. Limit orders only: no trigger orders, no market orders.");
    expect(ks).toContainEqual({ kind: "order_type", allow: ["limit"], deny: [], appliesTo: "all" });
    expect(ks).toContainEqual({ kind: "order_type", allow: [], deny: ["trigger"], appliesTo: "all" });
    expect(kinds("Trade BTC perps. Limit orders only, no IOC or market orders.")).toContainEqual({ kind: "order_type", allow: [], deny: ["ioc", "market"], appliesTo: "all" });
  });

  it("a period word far from the amount still makes a daily budget", () => {
    const caps = kinds("Pay for data with x402 in USDC on Base. Daily total (context.spent_today_usd plus this call) must not exceed $10.").filter((k) => k.kind === "cap");
    expect(caps).toContainEqual(expect.objectContaining({ kind: "cap", period: "day" }));
  });

  it("'off-limits' is a prohibition, not a permission", () => {
    expect(kinds("You may supply USDC on Aave. Borrowing is off-limits.")).toContainEqual({ kind: "forbid", activities: ["borrow"], label: "borrowing" });
    expect(kinds("You may supply USDC on Aave. Borrowing is off-limits.").some((k) => k.kind === "permit" && k.activities.includes("borrow"))).toBe(false);
  });

  it("'never remove margin' binds removals only", () => {
    const intent = "On Hyperliquid you may add isolated margin to the SOL position, at most $200 each. Never remove margin.";
    const m = (direction: string) => facts({ actionFamily: "margin", actionType: "updateIsolatedMargin", assets: ["SOL"], notionalUsd: 100, details: { direction, marginUsdc: "100" } });
    expect(verdict(intent, m("add"))).toBe("ALLOW");
    expect(verdict(intent, m("remove"))).toBe("BLOCK");
    expect(verdict("On Hyperliquid you may trade SOL. Never add or remove margin.", m("add"))).toBe("BLOCK");
  });

  it("qualifiers in a prohibition broaden it; chain ids in parentheses and after eip155: are read", () => {
    expect(parseIntent("Trade ETH perps on Hyperliquid. No withdrawals, no usd/spot sends, no vault deposits.").unknown).toEqual([]);
    expect(kinds("Base (8453) payouts. USDC only.")).toContainEqual(expect.objectContaining({ kind: "allow", dim: "chain", values: ["base"] }));
    expect(kinds("Base (1) payouts. USDC only.").some((k) => k.kind === "allow" && k.dim === "chain" && k.values.includes("ethereum"))).toBe(false);
    expect(kinds("Pay in USDC on Base (eip155:8453) only.")).toContainEqual(expect.objectContaining({ kind: "allow", dim: "chain", values: ["base"] }));
  });

  it("an address named SwapRouter02 or Pool is a contract, not a recipient", () => {
    const ks = kinds("Swap on Uniswap via SwapRouter02 0x2626664c2603336E57B271c5C0b26F421741e481 only.");
    expect(ks).toContainEqual(expect.objectContaining({ kind: "allow", dim: "contract" }));
    expect(ks.some((k) => k.kind === "allow" && k.dim === "recipient")).toBe(false);
  });
});
