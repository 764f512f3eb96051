import { describe, expect, it } from "vitest";
import { detectAction, resolveVenue } from "../../src/venues/registry";
import type { ActionFamily } from "../../src/venues/types";
import { DEV_CASES } from "./helpers";

const FAMILY_BY_TYPE: Record<string, ActionFamily> = {
  order: "order",
  updateLeverage: "margin",
  updateIsolatedMargin: "margin",
  withdraw3: "withdrawal",
  usdSend: "transfer",
  usdClassTransfer: "transfer",
  approveAgent: "permission",
  vaultTransfer: "vault",
  tokenDelegate: "staking",
  transfer: "transfer",
  approve: "permission",
  exactInputSingle: "swap",
  deposit: "swap",
  supply: "vault",
  borrow: "position",
  withdraw: "vault",
  paymentPayload: "payment",
  transferSol: "transfer",
  transferChecked: "transfer",
  quote: "swap",
};

describe("dev.jsonl: every object action is detected as its labelled venue", () => {
  const objects = DEV_CASES.filter((c) => typeof c.action === "object" && c.action !== null);

  it("the set covers the object cases", () => {
    expect(objects.length).toBeGreaterThanOrEqual(60);
  });

  it.each(objects.map((c) => [c.id, c] as const))("%s", (_id, c) => {
    const expected = resolveVenue(c.venue);
    // with the labelled venue given, and by shape alone
    for (const selector of [expected, null]) {
      const f = detectAction(c.action, selector, c.context);
      expect(f, `selector ${selector}`).not.toBeNull();
      if (!f) return;
      if (selector) expect(f.venue).toBe(expected);
      else if (expected === "uniswap" && f.actionType !== "exactInputSingle") expect(f.venue).toBe("ethereum");
      else expect(f.venue).toBe(expected);
      expect(FAMILY_BY_TYPE[f.actionType ?? ""], `type ${f.actionType}`).toBe(f.actionFamily);
      expect(f.warnings.join(" ")).not.toMatch(/does not recognise/);
    }
  });

  it("string actions stay semantic", () => {
    for (const c of DEV_CASES.filter((x) => typeof x.action === "string")) expect(detectAction(c.action, resolveVenue(c.venue), c.context)).toBeNull();
  });
});

describe("dev.jsonl: the facts that decide the labelled verdicts", () => {
  const facts = (id: string) => {
    const c = DEV_CASES.find((x) => x.id === id);
    if (!c) throw new Error(id);
    const f = detectAction(c.action, resolveVenue(c.venue), c.context);
    if (!f) throw new Error(`no facts for ${id}`);
    return f;
  };

  it("Hyperliquid notional caps use price x size in coins", () => {
    expect(facts("dev-hl-001").orders?.[0].notionalUsd).toBe(1941);
    expect(facts("dev-hl-002").orders?.[0].notionalUsd).toBe(2553.75);
    expect(facts("dev-hl-007").orders?.[0].notionalUsd).toBe(194_000_000);
    expect(facts("dev-hl-023").orders?.[0].notionalUsd).toBe(1356);
  });

  it("Hyperliquid asset allowlists see symbols, and an unknown index is not a symbol", () => {
    expect(facts("dev-hl-003").assets).toEqual(["SOL"]);
    const f = facts("dev-hl-024");
    expect(f.assets).toEqual(["#4"]);
    expect(f.warnings.join(" ")).toMatch(/unknown Hyperliquid asset index 4/);
  });

  it("order side, tif, reduce-only and triggers", () => {
    expect(facts("dev-hl-017").orders?.[0]).toMatchObject({ side: "sell", reduceOnly: false, tif: "Gtc" });
    expect(facts("dev-hl-018").orders?.[0]).toMatchObject({ side: "sell", reduceOnly: true });
    expect(facts("dev-hl-019").orders?.[0].tif).toBe("Ioc");
    const bracket = facts("dev-hl-010").orders ?? [];
    expect(bracket.map((o) => o.orderType)).toEqual(["limit", "trigger", "trigger"]);
    expect(bracket.map((o) => o.trigger?.kind ?? null)).toEqual([null, "tp", "sl"]);
    expect(facts("dev-hl-020").orders?.[0].trigger).toEqual({ kind: "sl", triggerPx: 92000, isMarket: true });
  });

  it("leverage, margin and staking units", () => {
    expect(facts("dev-hl-004").leverage).toEqual({ asset: "BTC", value: 10, isCross: true });
    expect(facts("dev-hl-014").notionalUsd).toBe(50);
    expect(facts("dev-hl-016").transfers?.[0]).toMatchObject({ amount: "300", to: "0x1564af56e420ce117c7b306b4b9202aeacc9e017" });
    expect(facts("dev-hl-025").staking).toMatchObject({ asset: "HYPE", amount: "150", direction: "delegate", validator: "0x4df870248ecaa5c6f23d9cef9f9e7a0a07841854" });
  });

  it("Polymarket notional in USDC and market labels", () => {
    expect(facts("dev-pm-026").orders?.[0]).toMatchObject({ notionalUsd: 120, outcome: "Yes", tif: "GTC", orderType: "limit" });
    expect(facts("dev-pm-027").orders?.[0].notionalUsd).toBe(496);
    expect(facts("dev-pm-028").orders?.[0]).toMatchObject({ notionalUsd: 49, size: 140, price: 0.35, marketLabel: "Will Bitcoin reach $150,000 by December 31, 2026?" });
    expect(facts("dev-pm-029").orders?.[0]).toMatchObject({ orderType: "market", tif: "FOK", notionalUsd: 100 });
    expect(facts("dev-pm-030").orders?.[0]).toMatchObject({ side: "sell", size: 400, notionalUsd: 220 });
    expect(facts("dev-pm-032").orders?.[0].marketLabel).toBeNull();
  });

  it("EVM transfers, chains and approvals", () => {
    expect(facts("dev-evm-034").transfers?.[0]).toMatchObject({ asset: "USDC", amount: "1250", to: "0x375ec28a6ba7666b57a3c3d3739d795ef11c44aa" });
    expect(facts("dev-evm-037").transfers?.[0].amount).toBe("5000");
    expect(facts("dev-evm-038").chain).toBe("base");
    expect(facts("dev-evm-034").chain).toBe("ethereum");
    expect(facts("dev-evm-035").approvals?.[0]).toMatchObject({ unlimited: true, token: "USDC", spender: "0x000000000022d473030f116ddee9f6b43ac78ba3" });
    expect(facts("dev-evm-040").transfers?.[0]).toMatchObject({ asset: "USDE", amount: "400", usd: null });
    expect(facts("dev-evm-041").transfers?.[0]).toMatchObject({ asset: "DAI", amount: "600", usd: 600 });
  });

  it("swap slippage and recipients", () => {
    expect(facts("dev-uni-042").swap?.slippageBps).toBe(40);
    expect(facts("dev-uni-043").swap?.slippageBps).toBeGreaterThan(500);
    expect(facts("dev-uni-046").swap?.slippageBps).toBeNull();
    expect(facts("dev-uni-042").recipients).toEqual(["0x436f12258e6eff8e0606680cd096ed69c63086a8"]);
    expect(facts("dev-uni-044").swap?.sell).toMatchObject({ asset: "ETH", amount: "1" });
    expect(facts("dev-uni-044").recipients).toEqual([]);
  });

  it("Aave beneficiaries", () => {
    expect(facts("dev-aave-047").recipients).toEqual(["0x2ca16df12eef328697f232d730270c7c908491a0"]);
    expect(facts("dev-aave-049").recipients).toEqual(["0xc352a120af83e1d1eb37e94aaf75a64c49f936c2"]);
    expect(facts("dev-aave-050").recipients).toEqual(["0x2ca16df12eef328697f232d730270c7c908491a0"]);
  });

  it("x402 amounts and mismatches", () => {
    expect(facts("dev-x402-051").notionalUsd).toBe(0.25);
    const mismatch = facts("dev-x402-054");
    expect(mismatch.notionalUsd).toBe(3);
    expect(mismatch.warnings).toContain("x402 authorization value 3000000 differs from accepted amount 300000");
    expect(facts("dev-x402-055").warnings.join(" ")).toMatch(/untrusted/);
    expect(facts("dev-x402-055").details?.resourceHost).toBe("alpha-signals.example.net");
  });

  it("Solana lamports, token accounts and missing prices", () => {
    expect(facts("dev-sol-057").transfers?.[0]).toMatchObject({ asset: "SOL", amount: "2.5", usd: 450 });
    expect(facts("dev-sol-058").notionalUsd).toBe(9000);
    expect(facts("dev-sol-060").recipients).toEqual(["DYqY1jW6j8xdeH32DTtfK4dw38tnr5ZuT1uiEVkXeoFk"]);
    expect(facts("dev-sol-059").recipients).toEqual(["EBRNGcaeBZe5TeMhhzE2KUf645d8EnmnGiruJE9bjK6w"]);
    expect(facts("dev-sol-061").notionalUsd).toBeNull();
  });

  it("Starknet u256 amounts and unlimited approvals", () => {
    expect(facts("dev-stark-062").transfers?.[0]).toMatchObject({ asset: "STRK", amount: "1500" });
    expect(facts("dev-stark-063").transfers?.[0].amount).toBe("2500");
    expect(facts("dev-stark-064").approvals?.[0].unlimited).toBe(true);
  });

  it("Jupiter amounts, slippage and unpriced tokens", () => {
    expect(facts("dev-jup-065").swap).toMatchObject({ slippageBps: 50, sell: { asset: "USDC", amount: "450", usd: 450 }, buy: { asset: "SOL" } });
    expect(facts("dev-jup-066").swap?.slippageBps).toBe(300);
    expect(facts("dev-jup-067").assets).toEqual(["USDC", "BONK"]);
    expect(facts("dev-jup-068").notionalUsd).toBeNull();
  });
});
