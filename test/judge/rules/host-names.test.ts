/**
 * Host allowlists compare host names as written: a hyphen is part of the name. "quotes-feed.example" listed in
 * the context allows that host; "quotes.feed.example" is a different domain (someone else's "feed.example").
 */
import { describe, expect, it } from "vitest";
import { transfer, verdict } from "./helpers";

const I = "Pay for API calls in USDC, at most $0.50 per call, only to the hosts in context.hosts.";
const call = (url: string) => transfer({ asset: "USDC", amount: "0.2", usd: 0.2, to: "0x5555555555555555555555555555555555555555" }, { venue: "x402", details: { resource: url } } as never);
const ctx = { hosts: ["quotes-feed.example", "wx.example"] };

describe("host names with hyphens", () => {
  it("a listed hyphenated host is allowed", () => {
    expect(verdict(I, call("https://quotes-feed.example/v1/last?sym=EURUSD"), ctx, { action: { url: "https://quotes-feed.example/v1/last?sym=EURUSD" } })).toBe("ALLOW");
  });

  it("the same letters split by a dot are another host", () => {
    expect(verdict(I, call("https://quotes.feed.example/v1/last"), ctx, { action: { url: "https://quotes.feed.example/v1/last" } })).toBe("BLOCK");
  });
});
