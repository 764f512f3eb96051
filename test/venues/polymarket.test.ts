import { describe, expect, it } from "vitest";
import { detectAction } from "../../src/venues/registry";
import { devCase } from "./helpers";

const TOKEN = "29341913455528112886663487624155159903997211071649963075146610539125492888385";
const ctx = devCase("dev-pm-026").context;

describe("polymarket", () => {
  it("signed orders with numeric sides (0 = BUY, 1 = SELL) and no wrapper", () => {
    const order = { salt: 1, maker: "0xa24a9B37382A2b7a141Df9a9ea49Ee78B8B946cA", signer: "0x03Eee63F961784EC2164458218b291DF915915B3", taker: "0x0000000000000000000000000000000000000000", tokenId: TOKEN, makerAmount: "25000000", takerAmount: "50000000", side: 0, expiration: "0", nonce: "0", feeRateBps: "0", signatureType: 2, signature: "0x00" };
    const buy = detectAction(order, null, ctx);
    expect(buy?.venue).toBe("polymarket");
    expect(buy?.orders?.[0]).toMatchObject({ side: "buy", size: 50, price: 0.5, notionalUsd: 25, outcome: "Yes" });
    const sell = detectAction({ ...order, side: 1, makerAmount: "50000000", takerAmount: "30000000" }, null, ctx);
    expect(sell?.orders?.[0]).toMatchObject({ side: "sell", size: 50, price: 0.6, notionalUsd: 30 });
  });

  it("a batch of POST /orders entries sums the notionals", () => {
    const f = detectAction([{ order: { tokenId: TOKEN, makerAmount: "10000000", takerAmount: "20000000", side: "BUY" }, orderType: "GTC" }, { order: { tokenId: TOKEN, makerAmount: "5000000", takerAmount: "10000000", side: "BUY" }, orderType: "FOK" }], "polymarket", ctx);
    expect(f?.orders?.map((o) => o.tif)).toEqual(["GTC", "FOK"]);
    expect(f?.notionalUsd).toBe(15);
  });

  it("a market SELL order counts shares and needs a price for notional", () => {
    const f = detectAction({ tokenID: TOKEN, amount: 100, side: "SELL", orderType: "FAK" }, null, ctx);
    expect(f?.orders?.[0]).toMatchObject({ orderType: "market", size: 100, notionalUsd: null, tif: "FAK" });
    expect(f?.notionalUsd).toBeNull();
  });

  it("GTD is inferred from an expiration, and private takers are flagged", () => {
    const f = detectAction({ tokenId: TOKEN, makerAmount: "1000000", takerAmount: "2000000", side: "BUY", expiration: "1893456000", taker: "0x1111111111111111111111111111111111111111" }, null, ctx);
    expect(f?.orders?.[0].tif).toBe("GTD");
    expect(f?.warnings.join(" ")).toMatch(/private to taker/);
  });

  it("prices outside (0, 1) are warned about", () => {
    expect(detectAction({ tokenID: TOKEN, price: 1.5, size: 10, side: "BUY" }, null, ctx)?.warnings.join(" ")).toMatch(/outside Polymarket/);
  });

  it("objects without a numeric token id or side are not Polymarket orders", () => {
    expect(detectAction({ tokenID: "abc", price: 0.5, size: 1, side: "BUY" }, null, ctx)).toBeNull();
    expect(detectAction({ tokenID: TOKEN, price: 0.5, size: 1 }, null, ctx)).toBeNull();
  });
});
