/**
 * A dollar cap on a token is measured with the context's prices only while they describe now: a price table dated
 * more than an hour before the context's clock is no fact about the transfer being judged, whichever layer values
 * the action (the venue adapter's facts or the engine). Found by a sealed set (session 20), where the Solana
 * adapter valued a SOL transfer at a four-day-old price and the engine allowed it. Our own wording.
 */
import { describe, expect, it } from "vitest";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { buildJudgeInput } from "../../../src/judge/eval/cli";
import { pricesFresh } from "../../../src/venues/lib/prices";

const intent = "Gas money only: send ETH to the keeper wallets in context.keepers, at most $250 worth per send.";
const KEEPER = "0x7a1f0a3b9c4d5e6f708192a3b4c5d6e7f8091a2b";
const send = { chainId: 8453, from: "0x1111111111111111111111111111111111111111", to: KEEPER, value: "50000000000000000", data: "0x" }; // 0.05 ETH
const judge = (context: Record<string, unknown>) =>
  evaluateRules(buildJudgeInput({ id: "t", intent, action: send, venue: "evm", context: { keepers: [KEEPER], ...context }, expected: "ALLOW", acceptable: ["ALLOW"], tags: [] } as never));

describe("prices and the context's clock", () => {
  it("values the send with prices taken minutes ago", () => {
    expect(judge({ prices: { ETH: 3_000 }, prices_as_of: "2026-03-02T09:58:00Z", now: "2026-03-02T10:00:00Z" }).verdict).toBe("ALLOW");
  });

  it("does not value it with prices from days before: the cap cannot be checked", () => {
    const r = judge({ prices: { ETH: 3_000 }, prices_as_of: "2026-02-27T09:58:00Z", now: "2026-03-02T10:00:00Z" });
    expect(r.verdict).toBe("ESCALATE");
    expect(r.reasoning).toContain("older than its clock");
  });

  it("still refuses what is over the cap at any recent price", () => {
    expect(judge({ prices: { ETH: 6_000 }, prices_as_of: "2026-03-02T09:58:00Z", now: "2026-03-02T10:00:00Z" }).verdict).toBe("BLOCK");
  });

  it("treats undated prices as current, and an hour as the edge", () => {
    expect(pricesFresh({ prices: {} })).toBe(true);
    expect(pricesFresh({ prices_as_of: "2026-03-02T09:00:00Z", now: "2026-03-02T10:00:00Z" })).toBe(true);
    expect(pricesFresh({ prices_as_of: "2026-03-02T08:59:00Z", now: "2026-03-02T10:00:00Z" })).toBe(false);
  });
});
