/**
 * Order types and margin mode in traders' shorthand: "limits only", "no mkt", "GTC limits", "3x iso", "isolated margin
 * pls", and stop losses offered as a permission ("you can use stop losses") rather than required. Each block has the
 * unsafe side: the shorthand still refuses the order type or margin mode it rules out.
 */
import { describe, expect, it } from "vitest";
import { parseIntent } from "../../../src/judge/rules/parse/index";
import { facts, orderFacts, verdict } from "./helpers";

const RULES = "SOL perps only. Max $4,000 notional per order.";
const limitGtc = () => orderFacts({ asset: "SOL", size: 10, price: 150, notionalUsd: 1_500, orderType: "limit", tif: "Gtc" });
const limitIoc = () => orderFacts({ asset: "SOL", size: 10, price: 150, notionalUsd: 1_500, orderType: "limit", tif: "Ioc" });
const market = () => orderFacts({ asset: "SOL", size: 10, price: 150, notionalUsd: 1_500, orderType: "market", tif: "Ioc" });
const stop = () => orderFacts({ asset: "SOL", side: "sell", size: 10, price: 140, notionalUsd: 1_400, orderType: "trigger", tif: null, reduceOnly: true });
const notReadIn = (intent: string) => parseIntent(intent).clauses.filter((c) => c.reading === "not understood").map((c) => c.clause);

describe("limit-order shorthand", () => {
  it.each(["limits only.", "only limits (GTC or ALO)", "GTC limits only", "limits only - no IOC, no mkt", "no mkt orders, limits are fine"])("%s", (line) => {
    const intent = `${RULES} ${line}`;
    expect(notReadIn(intent)).toEqual([]);
    expect(verdict(intent, limitGtc())).toBe("ALLOW");
    expect(verdict(intent, market())).toBe("BLOCK");
  });

  it("a time-in-force named with the shorthand is the only one allowed", () => {
    expect(verdict(`${RULES} limits only: ALO or GTC.`, limitIoc())).toBe("BLOCK");
    expect(verdict(`${RULES} limits only, no IOC.`, limitIoc())).toBe("BLOCK");
  });

  it("'no market ones' and 'not market' close a clause about order types", () => {
    for (const line of ["use limit orders, no market ones", "limit orders please, not market."]) {
      expect(notReadIn(`${RULES} ${line}`)).toEqual([]);
      expect(verdict(`${RULES} ${line}`, market())).toBe("BLOCK");
    }
  });

  it("'limits' that are caps are not limit orders", () => {
    const intent = "SOL perps only. The limits only apply to new positions: max $4,000 notional per order.";
    expect(verdict(intent, market())).not.toBe("BLOCK");
  });

  it("'mkts' are still markets", () => {
    expect(verdict("only trade the mkts in context.allowed. max $4k per order", limitGtc(), { allowed: ["BTC"] })).toBe("BLOCK");
  });
});

describe("stop losses offered, not required", () => {
  it.each(["You can use stop-loss orders.", "Stop losses are welcome - use them to protect positions.", "take profits are ok too"])("%s", (line) => {
    const intent = `${RULES} ${line}`;
    expect(notReadIn(intent)).toEqual([]);
    expect(verdict(intent, limitGtc())).toBe("ALLOW");
    expect(verdict(intent, stop())).toBe("ALLOW");
  });

  it("'to take profit' is a purpose, not an order type", () => {
    const intent = `${RULES} Trimming to take profit is always ok.`;
    expect(parseIntent(intent).constraints.some((k) => k.kind === "order_type")).toBe(false);
    expect(verdict(intent, limitGtc())).not.toBe("BLOCK");
  });

  it("a stop-loss requirement still refuses other order types", () => {
    expect(verdict(`${RULES} Exits must use stop-loss orders only.`, orderFacts({ asset: "SOL", side: "sell", size: 10, price: 150, notionalUsd: 1_500, orderType: "limit", tif: "Gtc" }))).toBe("BLOCK");
    expect(verdict(`${RULES} Only stop losses, you can use them freely.`, limitGtc())).toBe("BLOCK");
  });
});

describe("margin-mode shorthand", () => {
  const leverage = (isCross: boolean) =>
    facts({ actionFamily: "margin", actionType: "updateLeverage", assets: ["SOL"], leverage: { asset: "SOL", value: 3, isCross } });

  it.each(["lev max 5x, iso.", "max 5x iso", "isolated margin pls", "Leverage up to 5x. Isolated."])("%s", (line) => {
    const intent = `${RULES} ${line}`;
    expect(notReadIn(intent)).toEqual([]);
    expect(verdict(intent, leverage(false))).toBe("ALLOW");
    expect(verdict(intent, leverage(true))).toBe("BLOCK");
  });

  it("'ISO' away from leverage words is not read as a margin mode", () => {
    expect(parseIntent("Pay the ISO 20022 gateway fee in USDC, max $50.").constraints.some((k) => k.kind === "margin_mode")).toBe(false);
  });
});
