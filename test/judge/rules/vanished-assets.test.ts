/**
 * The safety net under the readers (parse/vanished-assets.ts): an asset a granting clause names must end up in what
 * the clause was read as. "Long or short on ETH perp is fine, max $5000 per order" had been read as the cap alone
 * (the both-sides reader took "long or short", the asset list was dropped), so a BTC order was allowed.
 */
import { describe, expect, it } from "vitest";
import { buildJudgeInput } from "../../../src/judge/eval/cli";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { vanishedAssets } from "../../../src/judge/rules/parse/vanished-assets";

const judge = (intent: string, action: unknown) =>
  evaluateRules(buildJudgeInput({ id: "t", intent, action, venue: "hyperliquid", context: { assets: { "0": "BTC", "1": "ETH" } }, expected: "ALLOW" } as never)).verdict;
const order = (a: number, p: string, s: string) => ({ type: "order", orders: [{ a, b: true, p, s, r: false, t: { limit: { tif: "Gtc" } } }], grouping: "na" });
const BTC = order(0, "95000", "0.01");
const ETH = order(1, "3000", "0.5");

describe("an asset a grant names is never dropped without a trace", () => {
  const grants = [
    "Long or short on SOL perp is fine, max $5000 per order.",
    "You may open longs and shorts on ETH perp, max $5000 per order.",
    "Both directions on the ETH perp are fine, max $5000 per order.",
    "Go long or short on ETH perp, max $5000 per order.",
    "You may go long or short on ETH perp, max 2 ETH per order.",
  ];
  for (const intent of grants)
    it(`"${intent}" does not allow a BTC order`, () => {
      expect(judge(intent, BTC)).not.toBe("ALLOW");
    });

  it("the same grant with its scope read still allows the asset it names", () => {
    expect(judge("You may go long on ETH perp, max $5000 per order.", ETH)).toBe("ALLOW");
    expect(judge("You may go long on ETH perp, max $5000 per order.", BTC)).toBe("BLOCK");
  });

  it("a token as a cap's unit is explained by its figure; named elsewhere in a grant it must be kept", () => {
    expect(vanishedAssets("max 2 ETH per order is fine", [{ kind: "cap", limit: { value: 2, unit: "ETH" }, period: "action", scope: "order", strict: false, rule: "r" }])).toEqual([]);
    expect(vanishedAssets("you may trade ETH perp, max 2 ETH per order", [{ kind: "cap", limit: { value: 2, unit: "ETH" }, period: "action", scope: "order", strict: false, rule: "r" }])).toEqual(["ETH"]);
  });

  it("only a grant is checked: prices, labels and prohibitions name assets without scoping", () => {
    const cap = [{ kind: "cap", limit: { value: 900, unit: "USD" }, period: "action", scope: "any", strict: false, rule: "r" }] as never;
    expect(vanishedAssets("each transfer at most $900 at the context SOL price", cap)).toEqual([]);
    expect(vanishedAssets("never trade ETH options, and may not exceed $900", cap)).toEqual([]);
    expect(vanishedAssets("you may pay USDC invoices up to $900", cap)).toEqual([]); // stablecoins measure caps
  });
});
