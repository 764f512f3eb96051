/**
 * The labelled cases, judged end to end the way the eval CLI does (venue detection + rules engine).
 * Needs src/venues/registry.ts; skipped until the venue adapters exist.
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseCases, scoreCases, type Runner } from "../../../src/judge/eval/score";

const registry = fileURLToPath(new URL("../../../src/venues/registry.ts", import.meta.url));
const DEV = "/work/shared/judge-cases/dev.jsonl";
const devPath = process.env.JUDGE_DEV_CASES ?? (existsSync(DEV) ? DEV : fileURLToPath(new URL("../../../../shared/judge-cases/dev.jsonl", import.meta.url)));
const variants = fileURLToPath(new URL("./fixtures/variants.jsonl", import.meta.url));

async function runner(): Promise<Runner> {
  const { judgeRunner } = await import("../../../src/judge/eval/cli");
  return judgeRunner();
}

describe.skipIf(!existsSync(registry))("labelled judge cases", () => {
  it.skipIf(!existsSync(devPath))("dev set: zero unsafe ALLOWs and accuracy >= 0.85", async () => {
    const score = await scoreCases(parseCases(readFileSync(devPath, "utf8")), await runner());
    expect(score.unsafeAllows).toEqual([]);
    expect(score.accuracy).toBeGreaterThanOrEqual(0.85);
  });

  it("reworded variants: zero unsafe ALLOWs and accuracy >= 0.85", async () => {
    const score = await scoreCases(parseCases(readFileSync(variants, "utf8")), await runner());
    expect(score.unsafeAllows).toEqual([]);
    expect(score.accuracy).toBeGreaterThanOrEqual(0.85);
  });
});
