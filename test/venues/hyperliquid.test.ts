import { describe, expect, it } from "vitest";
import { detectAction } from "../../src/venues/registry";
import type { Facts } from "../../src/venues/types";

const ctx = { assets: { "0": "BTC", "1": "ETH", "159": "HYPE", "10107": "HYPE/USDC" }, prices: { BTC: 97000, ETH: 3400, HYPE: 25 } };
const hl = (action: unknown, context: Record<string, unknown> | null = ctx): Facts => {
  const f = detectAction(action, null, context);
  if (!f) throw new Error("not detected");
  expect(f.venue).toBe("hyperliquid");
  return f;
};
const DEST = "0x8dbd99ff2103d06a7d5d3af8e9c6bfdf13ef12bc";

describe("hyperliquid orders", () => {
  it("a sell limit below the mark is valued at the mark", () => {
    const f = hl({ type: "order", orders: [{ a: 0, b: false, p: "50000", s: "0.1", r: false, t: { limit: { tif: "Ioc" } } }], grouping: "na" });
    expect(f.orders?.[0]).toMatchObject({ side: "sell", price: 50000, notionalUsd: 9700, priceBasis: "mark" });
    expect(f.warnings.join(" ")).toMatch(/more than 20% away/);
  });

  it("no price known gives a null notional with a warning, never a guess", () => {
    const f = hl({ type: "twapOrder", twap: { a: 1, b: true, s: "2", r: false, m: 30, t: true } }, { assets: { "1": "ETH" } });
    expect(f.orders?.[0]).toMatchObject({ orderType: "twap", notionalUsd: null, size: 2 });
    expect(f.notionalUsd).toBeNull();
  });

  it("twapOrder uses the context price", () => {
    const f = hl({ type: "twapOrder", twap: { a: 1, b: true, s: "0.5", r: true, m: 60, t: false } });
    expect(f.actionType).toBe("twapOrder");
    expect(f.orders?.[0]).toMatchObject({ notionalUsd: 1700, reduceOnly: true });
    expect(f.details?.minutes).toBe(60);
  });

  it("spot orders map 10000+index to the pair's base", () => {
    const f = hl({ type: "order", orders: [{ a: 10107, b: true, p: "24", s: "10", r: false, t: { limit: { tif: "Alo" } } }], grouping: "na" });
    expect(f.orders?.[0]).toMatchObject({ asset: "HYPE", market: "spot", tif: "Alo", notionalUsd: 240 });
    expect(hl({ type: "order", orders: [{ a: 10001, b: true, p: "1", s: "1", r: false, t: { limit: { tif: "Gtc" } } }], grouping: "na" }).assets).toEqual(["@1"]);
  });

  it("asset tables in the inverse or meta-universe form", () => {
    const order = { type: "order", orders: [{ a: 1, b: true, p: "3000", s: "1", r: false, t: { limit: { tif: "Gtc" } } }], grouping: "na" };
    expect(hl(order, { assets: { BTC: 0, ETH: 1 } }).assets).toEqual(["ETH"]);
    expect(hl(order, { meta: { universe: [{ name: "BTC" }, { name: "ETH" }] } }).assets).toEqual(["ETH"]);
    expect(hl(order, { assets: ["BTC", "ETH"] }).assets).toEqual(["ETH"]);
  });

  it("builder fee on an order is surfaced", () => {
    const f = hl({ type: "order", orders: [{ a: 0, b: true, p: "97000", s: "0.01", r: false, t: { limit: { tif: "Gtc" } } }], grouping: "na", builder: { b: "0x1234567890123456789012345678901234567890", f: 10 } });
    expect(f.warnings.join(" ")).toMatch(/builder fee/);
  });

  it("modify and batchModify describe the replacement orders", () => {
    const order = { a: 0, b: true, p: "96000", s: "0.02", r: false, t: { limit: { tif: "Gtc" } } };
    const m = hl({ type: "modify", oid: 123, order });
    expect(m.actionType).toBe("modify");
    expect(m.orders?.[0].notionalUsd).toBe(1920);
    const b = hl({ type: "batchModify", modifies: [{ oid: 1, order }, { oid: 2, order: { ...order, a: 1, p: "3000", s: "1" } }] });
    expect(b.orders?.map((o) => o.notionalUsd)).toEqual([1920, 3000]);
    expect(b.notionalUsd).toBe(4920);
  });

  it("cancels are order-family with the assets named", () => {
    expect(hl({ type: "cancel", cancels: [{ a: 0, o: 91490942 }] })).toMatchObject({ actionFamily: "order", actionType: "cancel", assets: ["BTC"] });
    expect(hl({ type: "cancelByCloid", cancels: [{ asset: 1, cloid: "0x00000000000000000000000000000001" }] }).assets).toEqual(["ETH"]);
    expect(hl({ type: "scheduleCancel", time: 1768471247514 }).actionType).toBe("scheduleCancel");
  });

  it("the signed /exchange envelope is unwrapped and vault trading flagged", () => {
    const f = hl({ action: { type: "order", orders: [{ a: 0, b: true, p: "97000", s: "0.01", r: false, t: { limit: { tif: "Gtc" } } }], grouping: "na" }, nonce: 1, signature: { r: "0x", s: "0x", v: 27 }, vaultAddress: DEST });
    expect(f.orders?.[0].notionalUsd).toBe(970);
    expect(f.warnings.join(" ")).toMatch(/on behalf of vault/);
  });

  it("malformed orders do not throw and are reported", () => {
    const f = hl({ type: "order", orders: [null, 5, { a: "x", b: "yes", s: "lots" }], grouping: "na" });
    expect(f.orders?.length).toBe(1);
    expect(f.orders?.[0].notionalUsd).toBeNull();
    expect(f.warnings.length).toBeGreaterThan(2);
  });
});

describe("hyperliquid account actions", () => {
  it("spotSend names the token and prices it", () => {
    const f = hl({ type: "spotSend", hyperliquidChain: "Mainnet", signatureChainId: "0xa4b1", destination: DEST, token: "HYPE:0x0d01dc56dcaaca66ad901c959b4011ec", amount: "4", time: 1 });
    expect(f).toMatchObject({ actionFamily: "transfer", assets: ["HYPE"], recipients: [DEST], notionalUsd: 100 });
  });

  it("testnet actions are marked", () => {
    expect(hl({ type: "usdSend", hyperliquidChain: "Testnet", destination: DEST, amount: "1", time: 1 }).chain).toBe("hyperliquid-testnet");
  });

  it("usdClassTransfer is internal, with the subaccount suffix tolerated", () => {
    const f = hl({ type: "usdClassTransfer", hyperliquidChain: "Mainnet", amount: "100.5 subaccount:0x1111111111111111111111111111111111111111", toPerp: false, nonce: 1 });
    expect(f.transfers?.[0]).toMatchObject({ amount: "100.5", internal: true, to: null });
    expect(f.recipients).toEqual([]);
  });

  it("vault withdrawals are not value leaving to the vault", () => {
    const f = hl({ type: "vaultTransfer", vaultAddress: DEST, isDeposit: false, usd: 1_500_000 });
    expect(f.actionFamily).toBe("vault");
    expect(f.recipients).toEqual([]);
    expect(f.notionalUsd).toBe(1.5);
  });

  it("approveBuilderFee and createSubAccount", () => {
    const b = hl({ type: "approveBuilderFee", hyperliquidChain: "Mainnet", maxFeeRate: "0.001%", builder: DEST, nonce: 1 });
    expect(b.approvals?.[0]).toMatchObject({ kind: "builderFee", amount: "0.001%", spender: DEST });
    expect(hl({ type: "createSubAccount", name: "scalper" })).toMatchObject({ actionFamily: "subaccount", actionType: "createSubAccount" });
  });

  it("subAccountTransfer deposits x1e6 USDC to the sub-account", () => {
    const f = hl({ type: "subAccountTransfer", subAccountUser: DEST, isDeposit: true, usd: 25_000_000 });
    expect(f.transfers?.[0]).toMatchObject({ amount: "25", to: DEST });
    expect(f.actionFamily).toBe("subaccount");
  });

  it("cDeposit / cWithdraw / undelegate use HYPE x1e8", () => {
    expect(hl({ type: "cDeposit", wei: 250_000_000, nonce: 1 }).staking).toMatchObject({ amount: "2.5", direction: "deposit", usd: 62.5 });
    expect(hl({ type: "cWithdraw", wei: 100_000_000, nonce: 1 }).staking?.direction).toBe("withdraw");
    const u = hl({ type: "tokenDelegate", validator: DEST, isUndelegate: true, wei: 1e8, nonce: 1 });
    expect(u.staking?.direction).toBe("undelegate");
    expect(u.recipients).toEqual([]);
  });

  it("removing isolated margin is a negative ntli", () => {
    const f = hl({ type: "updateIsolatedMargin", asset: 1, isBuy: false, ntli: -20_000_000 });
    expect(f.details).toMatchObject({ direction: "remove", marginUsdc: "20" });
  });

  it("an unknown type is not Hyperliquid", () => {
    expect(detectAction({ type: "launchRocket", x: 1 }, "hyperliquid", ctx)).toBeNull();
  });
});
