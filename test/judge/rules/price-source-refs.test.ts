import { describe, expect, it } from "vitest";
import { transfer, verdict } from "./helpers";

const DESK = "0x1111111111111111111111111111111111111111";
const eth = (amount: number) => transfer({ asset: "ETH", amount: String(amount), usd: amount * 2000, to: DESK, kind: "native" });

describe("a context path named as the price source is not a running total", () => {
  const intent = "Send ETH only to the desks in context.desks. Each send at most 5% of context.book_usd (valued at context.prices).";
  const ctx = { desks: { [DESK]: "otc desk" }, book_usd: 100000, prices: { ETH: 2000 } };

  it("a send inside the share passes, one over it is blocked", () => {
    expect(verdict(intent, eth(2.4), ctx)).toBe("ALLOW");
    expect(verdict(intent, eth(2.6), ctx)).toBe("BLOCK");
  });

  it("without the figure the share is taken of, nothing is allowed", () => {
    expect(verdict(intent, eth(1), { desks: ctx.desks, prices: ctx.prices })).not.toBe("ALLOW");
  });
});
