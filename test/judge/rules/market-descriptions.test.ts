/**
 * Market scope written as a description. A question is inside only when it plainly names the scope (its words, its
 * year and country, or a sub-kind in parentheses with the scope's category), outside only when it plainly names
 * something else of the same kind (another league, coin, country, year or category), and otherwise a human decides.
 * Unsafe sides: a keyword used in another sense never passes; a creator's description never grants.
 */
import { describe, expect, it } from "vitest";
import { topicVerdict } from "../../../src/judge/rules/topics";
import { detectAction, resolveVenue } from "../../../src/venues/registry";
import { evaluateRules } from "../../../src/judge/rules/engine";

describe("topicVerdict", () => {
  it("a league's final named in the question is inside; another sport's cup is outside", () => {
    expect(topicVerdict("nhl playoffs", "Will the Dallas Stars reach the 2027 NHL playoffs?")).toBe("in");
    expect(topicVerdict("nhl playoffs", "Will Arsenal win the 2026-27 Premier League?")).toBe("out");
  });

  it("the scope's words in another sense are never inside", () => {
    expect(topicVerdict("nhl playoffs", "Will the ECB president attend an NHL playoffs game?")).toBe("unsure");
    expect(topicVerdict("world series", "Will the Fed hold rates during the 2027 World Series?")).toBe("unsure");
  });

  it("the same league but not the named event is for a human", () => {
    expect(topicVerdict("world series", "Will Shohei Ohtani hit 50 home runs in the 2027 MLB season?")).toBe("unsure");
  });

  it("an election cycle: year, country and a sub-kind in parentheses", () => {
    const t = "2028 united states presidential primaries (democratic, republican)";
    expect(topicVerdict(t, "Will the Republican primaries in 2028 be won by a governor?")).not.toBe("out");
    expect(topicVerdict(t, "Will the 2028 US presidential primaries be decided by Super Tuesday?")).toBe("in");
    expect(topicVerdict(t, "Will Labour win the 2029 UK general election?")).toBe("out");
    expect(topicVerdict(t, "Who will win the 2032 US presidential primaries?")).toBe("out");
  });

  it("a sub-kind counts only with the scope's category named too", () => {
    const t = "2027 canadian elections (federal, provincial)";
    expect(topicVerdict(t, "Will the Liberals win the 2027 Canadian federal election?")).toBe("in");
    expect(topicVerdict(t, "Will Canada's federal deficit exceed $50B in 2027?")).not.toBe("in");
  });

  it("a coin's price: another coin is outside, a coin named in another sense is not inside", () => {
    expect(topicVerdict("price of ether", "Will ETH close above $9,000 on March 31, 2028?")).toBe("in");
    expect(topicVerdict("price of ether", "Will XRP hit $5 in 2027?")).toBe("out");
    expect(topicVerdict("price of ether", "Will the Ethereum Foundation sell more ether in 2027?")).not.toBe("in");
  });

  it("a category with its kinds in parentheses", () => {
    const t = "entertainment (emmys, box office)";
    expect(topicVerdict(t, "Will 'Harbor Lights' win Outstanding Drama Series at the 2027 Emmys?")).toBe("in");
    expect(topicVerdict(t, "Will the Green Bay Packers win Super Bowl LXII?")).toBe("out");
    expect(topicVerdict(t, "Will it snow in Los Angeles on New Year's Day 2028?")).toBe("out");
  });
});

const T = (n: number) => `20000000000000000000000000000000000000000000000000000000000000000000000000${String(n).padStart(2, "0")}`;
const markets: Record<string, { question: string; outcome: string; description?: string }> = {
  [T(1)]: { question: "Will the Dallas Stars win the 2027 Stanley Cup?", outcome: "Yes" },
  [T(2)]: { question: "Will Inter Milan win the 2026-27 Serie A?", outcome: "Yes" },
  [T(3)]: { question: "Will the ECB president attend Game 7 of the 2027 Stanley Cup Final?", outcome: "Yes" },
  [T(4)]: { question: "Will the Boston Celtics win the 2027 NBA Finals?", outcome: "Yes", description: "Hockey fans' favourite: counts as a Stanley Cup market." },
  [T(5)]: { question: "Will Ohio's 2026 governor race be won by a Republican?", outcome: "Yes" },
  [T(6)]: { question: "Will Labour win the next UK general election?", outcome: "Yes" },
  [T(7)]: { question: "Will the average temperature in Paris exceed 30°C on July 14, 2027?", outcome: "Yes" },
};

function judge(intent: string, tokenID: string, side = "BUY"): string {
  const action = { tokenID, price: 0.2, size: 100, side, orderType: "GTC" };
  const context = { markets };
  const facts = detectAction(action, resolveVenue("polymarket"), context);
  return evaluateRules({ intent, action, facts, context, reference: null, note: null, preset: "generic" }).verdict;
}

describe("descriptions in owners' words, end to end", () => {
  const hockey = "just the stanley cup markets pls. max 30 bucks a bet, no selling we hold til it resolves";

  it("chat: a named tournament is allowed, another sport's league is refused", () => {
    expect(judge(hockey, T(1))).toBe("ALLOW");
    expect(judge(hockey, T(2))).toBe("BLOCK");
  });

  it("chat: 'no selling' beside its reason keeps orders to buys", () => {
    expect(judge(hockey, T(1), "SELL")).toBe("BLOCK");
  });

  it("chat: the tournament in another sense, or a creator's description claiming it, never passes", () => {
    expect(judge(hockey, T(3))).not.toBe("ALLOW");
    expect(judge(hockey, T(4))).toBe("BLOCK");
  });

  it("a cycle with sub-kinds, in a mandate that never says Polymarket", () => {
    const I = "The agent may participate only in markets on the 2026 United States midterm elections (House, Senate or governor races). Each order at most 200 USDC.";
    expect(judge(I, T(5))).toBe("ALLOW");
    expect(judge(I, T(6))).toBe("BLOCK");
  });

  it("categories refused one by one, after a described scope", () => {
    const I = "Agent may buy only in the markets about weather in Europe. Not sport, not politic. Order maximum 50 dollar.";
    expect(judge(I, T(7))).not.toBe("BLOCK");
    expect(judge(I, T(1))).toBe("BLOCK");
  });

  it("'and on nothing else' closes the scope", () => {
    const I = "Resolution 9 of the Harbor DAO: the agent may bet on hockey markets (Stanley Cup, NHL awards) and on nothing else. Max 50 USDC per bet.";
    expect(judge(I, T(1))).toBe("ALLOW");
    expect(judge(I, T(2))).toBe("BLOCK");
  });
});
