/** The field-level diff of a wallet's rules and the split of an agent's change (src/wallets/rule-diff.ts). */
import { describe, expect, it } from "vitest";
import { applyPatch, diffRules, splitLoosening, type Rules } from "../../src/wallets/rule-diff";

const A = "0x1111111111111111111111111111111111111111";
const B = "0x2222222222222222222222222222222222222222";
const C = "0x3333333333333333333333333333333333333333";
const rules = (limits: Rules["limits"], mandate: string | null = "pay suppliers"): Rules => ({ mandate, limits });

describe("diffRules", () => {
  it("classifies each field: caps raised/removed loosen, lowered/added tighten; list entries both ways; any mandate change loosens", () => {
    const d = diffRules(rules({ maxPerTxUsd: 50, recipientAllowlist: [A, B] }), rules({ maxPerTxUsd: 20, dailyCapUsd: 100, recipientAllowlist: [B, C], tokenAllowlist: ["native"] }, "pay anyone"));
    expect(d.map((c) => [c.field, c.effect])).toEqual([
      ["mandate", "loosened"],
      ["maxPerTxUsd", "tightened"],
      ["dailyCapUsd", "tightened"],
      ["tokenAllowlist", "tightened"],
      ["recipientAllowlist", "loosened"],
      ["recipientAllowlist", "tightened"],
    ]);
    expect(d[4].text).toBe(`recipientAllowlist now also allows ${C}`);
    expect(d[5].text).toBe(`recipientAllowlist no longer allows ${A}`);
    expect(diffRules(rules({ recipientAllowlist: [A, B] }), rules({ recipientAllowlist: [B, A] }))).toEqual([]);
    expect(diffRules(rules({}, "x"), rules({}, null))[0]).toMatchObject({ field: "mandate", effect: "loosened", to: null });
  });
});

describe("splitLoosening", () => {
  it("keeps every loosening field as it is now and holds its requested value; tightening fields apply", () => {
    const prev = rules({ maxPerTxUsd: 50, dailyCapUsd: 100, recipientAllowlist: [A] });
    const { now, held } = splitLoosening(prev, rules({ maxPerTxUsd: 10, recipientAllowlist: [A] }, "anything"));
    expect(now).toEqual(rules({ maxPerTxUsd: 10, dailyCapUsd: 100, recipientAllowlist: [A] }));
    expect(held).toEqual({ mandate: "anything", dailyCapUsd: null });
    expect(diffRules(now, applyPatch(now, held)).map((c) => c.effect)).toEqual(["loosened", "loosened"]);
  });

  it("an allowlist that gains and loses entries keeps the shared entries now, or all of the old list when none is shared", () => {
    const shared = splitLoosening(rules({ recipientAllowlist: [A, B] }), rules({ recipientAllowlist: [B, C] }));
    expect(shared.now.limits.recipientAllowlist).toEqual([B]);
    expect(shared.held).toEqual({ recipientAllowlist: [B, C] });
    const disjoint = splitLoosening(rules({ recipientAllowlist: [A] }), rules({ recipientAllowlist: [C] }));
    expect(disjoint.now.limits.recipientAllowlist).toEqual([A]);
    expect(disjoint.held).toEqual({ recipientAllowlist: [C] });
  });

  it("a purely tightening change holds nothing; a removed limit is held as null", () => {
    expect(splitLoosening(rules({ maxPerTxUsd: 50 }), rules({ maxPerTxUsd: 5, tokenAllowlist: ["native"] })).held).toEqual({});
    const removed = splitLoosening(rules({ tokenAllowlist: ["native"] }), rules({}));
    expect(removed).toEqual({ now: rules({ tokenAllowlist: ["native"] }), held: { tokenAllowlist: null } });
  });
});
