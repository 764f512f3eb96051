/**
 * A share of a context figure counted per action (parse/counters.ts): "no swap bigger than 1% of
 * context.treasury_usd" bounds each swap, even when the same clause goes on to name a day's running total for another
 * budget. Read as a day's total it asked for a counter it never needed and held every swap. The unsafe side: a swap
 * above the share is BLOCK, the other budget still counts, and with no treasury figure the share cannot be checked.
 * Our own wording.
 */
import { describe, expect, it } from "vitest";
import { parseIntent } from "../../../src/judge/rules/parse";
import { facts, verdict } from "./helpers";

const swap = (usd: number) =>
  facts({ venue: "jupiter", actionFamily: "swap", actionType: "quote", chain: "solana", summary: `Swap ${usd} USDC for SOL`, assets: ["USDC", "SOL"], notionalUsd: usd, swap: { sell: { asset: "USDC", amount: String(usd), usd }, buy: { asset: "SOL", amount: null, usd: null }, slippageBps: 30, recipient: null } as never });
const INTENT = "Jupiter, USDC and SOL only. Never let a single swap go above 2% of context.treasury_usd, and today's running total sits in context.swapped_today_usd against a $6k daily cap.";

describe("a share counted per action beside a day's budget", () => {
  it("is read per swap, and the day's budget keeps its own counter", () => {
    const caps = parseIntent(INTENT).constraints.filter((k) => k.kind === "cap");
    expect(caps).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ period: "action", limitOf: { pct: 2, path: "context.treasury_usd" } }),
        expect.objectContaining({ period: "day", limit: { value: 6_000, unit: "USD" }, counterRef: "context.swapped_today_usd" }),
      ]),
    );
  });
  it("inside both passes; above the share or past the day is blocked; no treasury figure is held", () => {
    expect(verdict(INTENT, swap(1_500), { treasury_usd: 100_000, swapped_today_usd: 1_000 })).toBe("ALLOW");
    expect(verdict(INTENT, swap(2_500), { treasury_usd: 100_000, swapped_today_usd: 1_000 })).toBe("BLOCK");
    expect(verdict(INTENT, swap(1_500), { treasury_usd: 100_000, swapped_today_usd: 5_000 })).toBe("BLOCK");
    expect(verdict(INTENT, swap(1_500), { swapped_today_usd: 1_000 })).toBe("ESCALATE");
  });
  it("a share with its own period or total stays a running total", () => {
    const daily = parseIntent("Swaps may use at most 5% of context.treasury_usd per day in total (context.swapped_today_usd).").constraints.find((k) => k.kind === "cap");
    expect(daily).toMatchObject({ period: "day" });
  });
});
