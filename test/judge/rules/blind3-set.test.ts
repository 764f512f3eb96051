/**
 * The third blind set (test/judge/fixtures/blind3.jsonl): 45 cases written before the rules engine was read, in
 * wording, assets, amounts and addresses unlike the dev set. Judged end to end the way the eval CLI does
 * (venue detection + rules engine). Regenerate with `npx tsx test/judge/fixtures/gen3/index.ts`.
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseCases, scoreCases } from "../../../src/judge/eval/score";

const registry = fileURLToPath(new URL("../../../src/venues/registry.ts", import.meta.url));
const blind = fileURLToPath(new URL("../fixtures/blind3.jsonl", import.meta.url));

describe.skipIf(!existsSync(registry))("blind3 judge cases", () => {
  it("has the 45 labelled cases", () => {
    const cases = parseCases(readFileSync(blind, "utf8"));
    expect(cases).toHaveLength(45);
    for (const c of cases) expect(c.acceptable).toContain(c.expected);
  });

  it("zero unsafe ALLOWs and accuracy >= 0.8", async () => {
    const { judgeRunner } = await import("../../../src/judge/eval/cli");
    const score = await scoreCases(parseCases(readFileSync(blind, "utf8")), judgeRunner());
    expect(score.unsafeAllows).toEqual([]);
    expect(score.accuracy).toBeGreaterThanOrEqual(0.8);
  });
});
