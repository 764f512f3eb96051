import { describe, expect, it } from "vitest";
import { ADAPTER_IDS, ADAPTERS, detectAction, MCP_VENUE_ENUM, resolveVenue } from "../../src/venues/registry";
import { ACTION_FAMILIES } from "../../src/venues/types";
import { devCase } from "./helpers";

describe("adapter ids", () => {
  it("has exactly 17 unique lower-case ids including the three neutral words and the required venues", () => {
    expect(ADAPTER_IDS).toHaveLength(17);
    expect(new Set(ADAPTER_IDS).size).toBe(17);
    for (const id of ["x402", "solana", "starknet", "hyperliquid", "polymarket", "uniswap", "aave", "lido", "jupiter", "ethereum"]) expect(ADAPTER_IDS).toContain(id);
    for (const id of ADAPTER_IDS) expect(id).toMatch(/^[a-z0-9]+$/);
  });

  it("MCP enum is the ids plus evm, and every id has an adapter whose id matches", () => {
    expect(MCP_VENUE_ENUM).toEqual([...ADAPTER_IDS, "evm"]);
    for (const id of ADAPTER_IDS) expect(ADAPTERS[id].id).toBe(id);
  });

  it("no alias is claimed by two adapters or shadows an id", () => {
    const seen = new Map<string, string>();
    for (const id of ADAPTER_IDS) {
      for (const a of ADAPTERS[id].aliases) {
        const k = a.toLowerCase().replace(/[^a-z0-9]/g, "");
        expect(seen.get(k) ?? id, `alias ${a}`).toBe(id);
        expect((ADAPTER_IDS as readonly string[]).includes(k), `alias ${a} is an id`).toBe(false);
        seen.set(k, id);
      }
    }
  });
});

describe("resolveVenue", () => {
  it.each([
    ["hyperliquid", "hyperliquid"],
    ["Hyper-Liquid", "hyperliquid"],
    ["HL", "hyperliquid"],
    ["hyper", "hyperliquid"],
    ["evm", "ethereum"],
    ["EVM", "ethereum"],
    ["eth", "ethereum"],
    ["base", "ethereum"],
    ["erc20", "ethereum"],
    ["weth", "ethereum"],
    ["sol", "solana"],
    ["poly", "polymarket"],
    ["uni", "uniswap"],
    ["Uniswap V3", "uniswap"],
    ["jup", "jupiter"],
    ["x-402", "x402"],
    ["stETH", "lido"],
    ["dYdX", "dydx"],
    ["  Aave  ", "aave"],
    ["gm", "gmx"],
    ["pa", "paradex"],
  ])("%s -> %s", (sel, id) => expect(resolveVenue(sel)).toBe(id));

  it.each([["binance"], [""], ["  "], ["a"], ["p"], ["d"], ["!!!"], ["hyperliquidx"], ["x".repeat(500)]])("unknown or ambiguous %j -> null", (sel) => {
    expect(resolveVenue(sel)).toBeNull();
  });

  it("non-strings give null", () => {
    expect(resolveVenue(null)).toBeNull();
    expect(resolveVenue(undefined)).toBeNull();
    expect(resolveVenue(42 as unknown as string)).toBeNull();
  });
});

describe("detectAction", () => {
  it("never classifies strings or primitives", () => {
    expect(detectAction("Buy 0.5 ETH perp at market on Hyperliquid.", "hyperliquid", {})).toBeNull();
    expect(detectAction(42, null)).toBeNull();
    expect(detectAction(null, null)).toBeNull();
    expect(detectAction(true, "ethereum")).toBeNull();
  });

  it("returns null for objects no adapter recognises", () => {
    expect(detectAction({ foo: "bar" }, null)).toBeNull();
    expect(detectAction({ type: "notAnAction", x: 1 }, null)).toBeNull();
    expect(detectAction({ type: "order" }, null)).toBeNull();
    expect(detectAction([], null)).toBeNull();
    expect(detectAction({ foo: "bar" }, "hyperliquid")).toBeNull();
  });

  it("uses the selected venue, and falls back to shape detection with a warning when it does not match", () => {
    const c = devCase("dev-hl-001");
    const direct = detectAction(c.action, "hyperliquid", c.context);
    expect(direct?.venue).toBe("hyperliquid");
    expect(direct?.warnings.join(" ")).not.toMatch(/does not recognise/);
    const wrong = detectAction(c.action, "polymarket", c.context);
    expect(wrong?.venue).toBe("hyperliquid");
    expect(wrong?.warnings.join(" ")).toMatch(/selected venue "polymarket" does not recognise/);
  });

  it("an EVM swap sent with venue evm is reported as uniswap", () => {
    const c = devCase("dev-uni-042");
    expect(detectAction(c.action, resolveVenue("evm"), c.context)?.venue).toBe("uniswap");
  });

  it("a plain token step sent with a protocol venue keeps that venue", () => {
    const wrap = devCase("dev-uni-044");
    expect(detectAction(wrap.action, "uniswap", wrap.context)?.venue).toBe("uniswap");
    expect(detectAction(wrap.action, null, wrap.context)?.venue).toBe("ethereum");
  });

  it("facts always have the required fields with valid values", () => {
    const f = detectAction(devCase("dev-evm-034").action, null, devCase("dev-evm-034").context);
    expect(f).not.toBeNull();
    expect(ACTION_FAMILIES).toContain(f?.actionFamily);
    expect(typeof f?.summary).toBe("string");
    expect(Array.isArray(f?.assets) && Array.isArray(f?.recipients) && Array.isArray(f?.warnings)).toBe(true);
    expect(() => JSON.stringify(f)).not.toThrow();
  });

  it("ignores a non-object context", () => {
    const c = devCase("dev-hl-001");
    const f = detectAction(c.action, null, "nonsense" as unknown as Record<string, unknown>);
    expect(f?.venue).toBe("hyperliquid");
    expect(f?.orders?.[0].asset).toBe("#0");
  });
});
