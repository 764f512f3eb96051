/**
 * A margin mode written beside a leverage cap (parse/margin-words.ts): in brackets, as the value of "margin", as the
 * mode refused, or "either is fine". Each reading is probed on the side it must stop: the other mode, or a cap
 * broken under a mode the owner does not mind.
 */
import { describe, expect, it } from "vitest";
import { buildJudgeInput } from "../../../src/judge/eval/cli";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { parseIntent } from "../../../src/judge/rules/parse/index";

const CTX = { assets: { "0": "BTC", "4": "LINK" }, prices: { BTC: 60000, LINK: 14 } };
const judge = (intent: string, action: unknown) =>
  evaluateRules(buildJudgeInput({ id: "t", intent, action, venue: "hyperliquid", context: CTX, expected: "ALLOW", acceptable: ["ALLOW"], tags: [], why: "" })).verdict;
const lev = (isCross: boolean, leverage: number) => ({ type: "updateLeverage", asset: 4, isCross, leverage });
const unread = (intent: string) => parseIntent(intent).clauses.filter((c) => c.reading === "not understood").map((c) => c.clause);

describe("the mode in brackets after the cap", () => {
  for (const I of ["LINK perps. max lev 6x (cross)", "LINK perps only. Leverage up to 6x (cross margin only)."]) {
    it(`'${I}' requires cross`, () => {
      expect(unread(I)).toEqual([]);
      expect(judge(I, lev(true, 6))).toBe("ALLOW");
      expect(judge(I, lev(false, 2))).toBe("BLOCK");
      expect(judge(I, lev(true, 7))).toBe("BLOCK");
    });
  }
});

describe("the mode as the value of 'margin'", () => {
  for (const I of ["LINK perps only. Leverage at most 5x. The margin mode has to stay isolated.", "link perps only\nmax leverage: 5x\nmargin: isolated", "LINK perps only, leverage 5x max, and keep the margin in isolated mode."]) {
    it(`'${I.replace(/\n/g, " / ")}' requires isolated`, () => {
      expect(unread(I)).toEqual([]);
      expect(judge(I, lev(false, 4))).toBe("ALLOW");
      expect(judge(I, lev(true, 4))).toBe("BLOCK");
    });
  }
});

describe("one mode refused", () => {
  for (const I of ["LINK perps only. Leverage 4x max. Isolated margin is not allowed.", "LINK perps only. leverage 4x max, never use isolated"]) {
    it(`'${I}' refuses isolated, so cross is the mode`, () => {
      expect(unread(I)).toEqual([]);
      expect(judge(I, lev(true, 3))).toBe("ALLOW");
      expect(judge(I, lev(false, 3))).toBe("BLOCK");
    });
  }
  it("a top-up of isolated margin is not a rule about the mode", () => {
    const I = "LINK perps only. Leverage 4x max. No isolated margin top-ups.";
    expect(parseIntent(I).constraints.some((k) => k.kind === "margin_mode")).toBe(false);
  });
});

describe("either mode is fine", () => {
  for (const I of ["LINK perps only. leverage 4x max, idc cross or iso", "LINK perps only. Leverage 4x max; cross or isolated, either is fine.", "LINK perps only. Leverage at most 4x, any margin mode."]) {
    it(`'${I}' leaves the mode free and keeps the cap`, () => {
      expect(unread(I)).toEqual([]);
      expect(parseIntent(I).constraints.some((k) => k.kind === "margin_mode")).toBe(false);
      expect(judge(I, lev(true, 4))).toBe("ALLOW");
      expect(judge(I, lev(false, 4))).toBe("ALLOW");
      expect(judge(I, lev(false, 5))).toBe("BLOCK");
    });
  }
});

describe("a kept mode beside a switch that needs the owner", () => {
  const I = "LINK perps only. leverage 4x max. stay on cross margin; a switch to isolated needs my OK first";
  it("the switch escalates instead of being refused; the kept mode passes", () => {
    expect(judge(I, lev(false, 3))).toBe("ESCALATE");
    expect(judge(I, lev(true, 3))).toBe("ALLOW");
    expect(judge(I, lev(false, 6))).toBe("BLOCK");
  });
});
