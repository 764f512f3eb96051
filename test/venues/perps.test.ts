import { describe, expect, it } from "vitest";
import { detectAction } from "../../src/venues/registry";

const ctx = { prices: { BTC: 97000, SOL: 190 } };

describe("paradex", () => {
  it("REST order body", () => {
    const f = detectAction({ market: "BTC-USD-PERP", side: "BUY", type: "LIMIT", size: "0.01", price: "96000", instruction: "POST_ONLY", client_id: "x1", signature: "[]", signature_timestamp: 1 }, null, ctx);
    expect(f).toMatchObject({ venue: "paradex", actionFamily: "order", assets: ["BTC"], notionalUsd: 960 });
    expect(f?.orders?.[0]).toMatchObject({ side: "buy", tif: "POST_ONLY", orderType: "limit" });
  });

  it("market reduce-only sell uses the context price", () => {
    const f = detectAction({ market: "BTC-USD-PERP", side: "SELL", type: "MARKET", size: "0.02", flags: ["REDUCE_ONLY"] }, "paradex", ctx);
    expect(f?.orders?.[0]).toMatchObject({ reduceOnly: true, orderType: "market", notionalUsd: 1940, priceBasis: "mark" });
  });
});

describe("dydx", () => {
  it("client placeOrder arguments", () => {
    const f = detectAction({ marketId: "SOL-USD", type: "LIMIT", side: "SELL", price: 200, size: 3, clientId: 123, timeInForce: "GTT", reduceOnly: false, postOnly: true }, null, ctx);
    expect(f).toMatchObject({ venue: "dydx", actionType: "placeOrder", notionalUsd: 600 });
  });

  it("withdrawal messages are withdrawals in USDC", () => {
    const f = detectAction({ typeUrl: "/dydxprotocol.sending.MsgWithdrawFromSubaccount", value: { sender: { owner: "dydx1abc", number: 0 }, recipient: "dydx1evil", assetId: 0, quantums: "250000000" } }, null, ctx);
    expect(f).toMatchObject({ actionFamily: "withdrawal", notionalUsd: 250, recipients: ["dydx1evil"] });
  });

  it("MsgPlaceOrder sizes need market parameters", () => {
    const f = detectAction({ typeUrl: "/dydxprotocol.clob.MsgPlaceOrder", value: { order: { orderId: { clobPairId: 0 }, side: "SIDE_BUY", quantums: "1000000", subticks: "100000" } } }, "dydx", ctx);
    expect(f).toMatchObject({ actionFamily: "order", notionalUsd: null });
  });
});

describe("drift", () => {
  it("SDK OrderParams with enum objects and BN-scale amounts", () => {
    const params = { orderType: { limit: {} }, marketType: { perp: {} }, marketIndex: 0, direction: { short: {} }, baseAssetAmount: "2000000000", price: "195000000", reduceOnly: true, postOnly: { none: {} } };
    const f = detectAction({ placePerpOrder: params }, null, { ...ctx, markets: { "0": "SOL-PERP" } });
    expect(f).toMatchObject({ venue: "drift", actionType: "placePerpOrder", assets: ["SOL"], notionalUsd: 390 });
    expect(f?.orders?.[0]).toMatchObject({ side: "sell", size: 2, price: 195, reduceOnly: true });
  });

  it("without a market table the index stays unknown", () => {
    const f = detectAction({ orderType: "market", marketType: "perp", marketIndex: 1, direction: "long", baseAssetAmount: 1_000_000_000 }, null, ctx);
    expect(f?.assets).toEqual(["#1"]);
    expect(f?.notionalUsd).toBeNull();
  });
});
