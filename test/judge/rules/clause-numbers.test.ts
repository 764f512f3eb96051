/**
 * Numbered sentences in agreements and policies (structure/clause-numbers.ts): "2.1 The Manager shall ..." loses its
 * clause number when the intent numbers two or more sentences so; a figure in front of a unit stays a figure.
 */
import { describe, expect, it } from "vitest";
import { parseIntent } from "../../../src/judge/rules/parse/index";
import { stripClauseNumbers } from "../../../src/judge/rules/structure/clause-numbers";

const unread = (intent: string) => parseIntent(intent).clauses.filter((c) => c.reading === "not understood").map((c) => c.clause);

describe("clause numbers", () => {
  it("strips a numbering the intent uses twice or more", () => {
    expect(stripClauseNumbers(["3.1 The Agent trades BTC", "3.2 Leverage is capped", "(4) Nothing else"])).toEqual(["The Agent trades BTC", "Leverage is capped", "Nothing else"]);
    expect(stripClauseNumbers(["(a) The Agent trades BTC", "(b) The Agent never withdraws"])).toEqual(["The Agent trades BTC", "The Agent never withdraws"]);
  });

  it("keeps a figure before a unit, and a lone number nothing echoes", () => {
    expect(stripClauseNumbers(["2.5 ETH per order at most", "1.2 Ether a day at most"])).toEqual(["2.5 ETH per order at most", "1.2 Ether a day at most"]);
    expect(stripClauseNumbers(["1.5 Leverage is the most", "Trade BTC"])).toEqual(["1.5 Leverage is the most", "Trade BTC"]);
  });

  it("a numbered rule is read as the rule, and its limit still binds", () => {
    const intent = "4.1 The Agent may trade only the BTC perpetual on Hyperliquid. 4.2 Leverage shall not exceed 3x. 4.3 No single order may exceed $2,000 in notional.";
    expect(unread(intent)).toEqual([]);
    const kinds = parseIntent(intent).constraints.map((k) => k.kind);
    expect(kinds).toContain("leverage_cap");
    expect(kinds).toContain("cap");
  });
});
