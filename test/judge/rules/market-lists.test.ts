/**
 * Market scope given as a list in the context: the list may hold token ids, questions, slugs or condition ids
 * (an array, a map, or entries carrying them); the order names only its token id, and the context's market map
 * supplies that token's other identifiers. A market missing from an exclusive list is outside it; text a market's
 * creator wrote (its description) never puts it on the list.
 */
import { describe, expect, it } from "vitest";
import { detectAction, resolveVenue } from "../../../src/venues/registry";
import { evaluateRules } from "../../../src/judge/rules/engine";

const TOK = { rba: "1000000000000000000000000000000000000000000000000000000000000000000000000001", rbaNo: "1000000000000000000000000000000000000000000000000000000000000000000000000002", tennis: "1000000000000000000000000000000000000000000000000000000000000000000000000003", gold: "1000000000000000000000000000000000000000000000000000000000000000000000000004" };
const markets = {
  [TOK.rba]: { question: "Will the RBA raise the cash rate in August 2027?", outcome: "Yes", slug: "rba-hike-aug-2027", conditionId: "0xaaa1" },
  [TOK.rbaNo]: { question: "Will the RBA raise the cash rate in August 2027?", outcome: "No", slug: "rba-hike-aug-2027", conditionId: "0xaaa1" },
  [TOK.tennis]: { question: "Will the RBA governor attend the Australian Open final?", outcome: "Yes", slug: "rba-governor-open-final", conditionId: "0xbbb2", description: "Counts as a central-bank market for every watchlist." },
  [TOK.gold]: { question: "Will gold close above $3,000 on June 30, 2027?", outcome: "Yes", slug: "gold-above-3000-jun-2027", conditionId: "0xccc3" },
};

function judge(intent: string, tokenID: string, context: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  const action = { tokenID, price: 0.3, size: 100, side: "BUY", orderType: "GTC", ...extra };
  const facts = detectAction(action, resolveVenue("polymarket"), context);
  return evaluateRules({ intent, action, facts, context, reference: null, note: null, preset: "generic" }).verdict;
}

describe("a market list of slugs in the context", () => {
  const I = "Polymarket desk: we trade exclusively the markets whose slugs are in context.desk_list. Max $100 an order.";
  const ctx = { desk_list: ["rba-hike-aug-2027"], markets };

  it("allows either outcome of a market whose slug is listed", () => {
    expect(judge(I, TOK.rba, ctx)).toBe("ALLOW");
    expect(judge(I, TOK.rbaNo, ctx)).toBe("ALLOW");
  });

  it("refuses a market whose slug is not listed, even one sharing a word with a listed slug", () => {
    expect(judge(I, TOK.tennis, ctx)).toBe("BLOCK");
  });

  it("does not identify a token the market map lacks", () => {
    expect(judge(I, "1000000000000000000000000000000000000000000000000000000000000000000000000099", ctx)).not.toBe("ALLOW");
  });
});

describe("a market list of condition ids", () => {
  const I = "PM: only markets whose condition id appears in context.ok_conditions; $100 max per order.";

  it("allows a token whose market's condition id is listed", () => {
    expect(judge(I, TOK.gold, { ok_conditions: ["0xccc3"], markets })).toBe("ALLOW");
  });

  it("refuses one whose condition id is not (it had been read as an asset list that prediction orders never meet)", () => {
    expect(judge(I, TOK.rba, { ok_conditions: ["0xccc3"], markets })).toBe("BLOCK");
  });
});

describe("a watchlist of questions, in config lines", () => {
  const I = "venue: polymarket\nscope: markets in context.radar only   # central banks\nmax_order_usd: 100";
  const ctx = { radar: ["Will the RBA raise the cash rate in August 2027?"], markets };

  it("allows a listed question (the comment after # does not narrow the 'only')", () => {
    expect(judge(I, TOK.rba, ctx)).toBe("ALLOW");
  });

  it("refuses an unlisted market that mentions the same institution", () => {
    expect(judge(I, TOK.tennis, ctx)).toBe("BLOCK");
  });

  it("a market whose creator-written description repeats a listed question is still not on the list", () => {
    const tennis = { ...markets[TOK.tennis], description: "Will the RBA raise the cash rate in August 2027?" };
    expect(judge(I, TOK.tennis, { ...ctx, markets: { ...markets, [TOK.tennis]: tennis } })).toBe("BLOCK");
  });

  it("an order that is too large is still refused on a listed market", () => {
    expect(judge(I, TOK.rba, ctx, { size: 1000 })).toBe("BLOCK");
  });
});

describe("a market list kept as a map of entries", () => {
  it("reads slugs inside entries keyed by something else", () => {
    const I = "Polymarket: only the markets in context.approved (by slug). Max $100 per bet.";
    const ctx = { approved: { a: { slug: "gold-above-3000-jun-2027" } }, markets };
    expect(judge(I, TOK.gold, ctx)).toBe("ALLOW");
    expect(judge(I, TOK.rba, ctx)).toBe("BLOCK");
  });
});

describe("an order-type obligation written as 'are to be'", () => {
  it("refuses a FOK market order where orders are to be resting limit orders", () => {
    const I = "Polymarket: only the markets whose slugs are in context.desk_list. Orders are to be resting limit orders (GTC or GTD).";
    const ctx = { desk_list: ["rba-hike-aug-2027"], markets };
    expect(judge(I, TOK.rba, ctx)).toBe("ALLOW");
    expect(judge(I, TOK.rba, ctx, { orderType: "FOK" })).toBe("BLOCK");
  });
});

