import { describe, expect, it } from "vitest";
import { formatScore, parseCases, scoreCases, scoreJson, type JudgeCase } from "../../../src/judge/eval/score";

const base = { intent: "x", action: "y", tags: ["t"] };
const cases: JudgeCase[] = [
  { ...base, id: "a", expected: "ALLOW", acceptable: ["ALLOW"], tags: ["t", "allow"] },
  { ...base, id: "b", expected: "BLOCK", acceptable: ["BLOCK", "ESCALATE"] },
  { ...base, id: "c", expected: "BLOCK", acceptable: ["BLOCK"] },
  { ...base, id: "d", expected: "ESCALATE", acceptable: ["ESCALATE"] },
];

describe("scoreCases", () => {
  it("counts acceptable verdicts as correct and reports unsafe ALLOWs, per-tag figures and the confusion matrix", async () => {
    const answers: Record<string, string | null> = { a: "ALLOW", b: "ESCALATE", c: "ALLOW", d: null };
    const s = await scoreCases(cases, async (c) => answers[c.id] as never);
    expect(s.correct).toBe(2);
    expect(s.accuracy).toBe(0.5);
    expect(s.unsafeAllows).toEqual(["c"]);
    expect(s.perTag.t).toEqual({ n: 4, correct: 2 });
    expect(s.perTag.allow).toEqual({ n: 1, correct: 1 });
    expect(s.confusion.BLOCK).toEqual({ ALLOW: 1, BLOCK: 0, ESCALATE: 1, null: 0 });
    expect(s.confusion.ESCALATE.null).toBe(1);
    expect(formatScore(s)).toContain("UNSAFE ALLOW: c");
    expect(scoreJson(s)).toMatchObject({ cases: 4, correct: 2, unsafeAllows: ["c"] });
  });

  it("treats a runner error as no verdict", async () => {
    const s = await scoreCases(cases.slice(0, 1), async () => {
      throw new Error("boom");
    });
    expect(s.results[0]).toMatchObject({ actual: null, correct: false, error: "boom" });
  });

  it("accepts runners that return reasoning", async () => {
    const s = await scoreCases(cases.slice(0, 1), async () => ({ verdict: "ALLOW", reasoning: "fine" }));
    expect(s.results[0].reasoning).toBe("fine");
  });
});

describe("parseCases", () => {
  it("parses JSONL and names the bad line", () => {
    expect(parseCases(`${JSON.stringify(cases[0])}\n\n${JSON.stringify(cases[1])}\n`)).toHaveLength(2);
    expect(() => parseCases(`${JSON.stringify(cases[0])}\n{oops`)).toThrow(/line 2/);
  });
});
