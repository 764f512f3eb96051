import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { buildJudgeInput } from "../../src/judge/eval/cli";
import { parseCases } from "../../src/judge/eval/score";
import { RulesJudge } from "../../src/judge/rules/judge";
import type { JudgeInput } from "../../src/judge/types";
import { detectAction, resolveVenue } from "../../src/venues/registry";
import { splitReference } from "../../src/judge/reference";

/** The labelled cases committed with the repository (a copy of the public dev set). */
export const JUDGE_CASES = fileURLToPath(new URL("../../test/fixtures/judge-cases/public-dev.jsonl", import.meta.url));

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/**
 * The embedded rules judge on its own, in this process (no HTTP, no database): cases/s over the labelled
 * set, and the time of one call on a given request (what a verification spends judging, to subtract).
 */
export async function judgeCost(seconds: number, request: { intent: string; action: unknown; venue?: string; context?: Record<string, unknown> }) {
  const judge = new RulesJudge();
  const cases = parseCases(readFileSync(JUDGE_CASES, "utf8"));
  const inputs = cases.map(buildJudgeInput);
  for (const i of inputs) await judge.judge(i); // warm-up: JIT, lazily built tables
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < seconds * 1000) {
    for (const i of inputs) await judge.judge(i);
    n += inputs.length;
  }
  const casesPerSecond = n / ((performance.now() - start) / 1000);

  // Same-run baseline: a JSON round trip of the same inputs (what any handler spends reading a request). The
  // machine is shared, so the ratio to it is the figure to compare between runs, not the absolute cases/s.
  let b = 0;
  const bStart = performance.now();
  while (performance.now() - bStart < seconds * 1000) {
    for (const i of inputs) JSON.parse(JSON.stringify(i)) as unknown;
    b += inputs.length;
  }
  const baselinePerSecond = b / ((performance.now() - bStart) / 1000);

  const { context, reference } = splitReference(request.context ?? null);
  const facts = detectAction(request.action as Record<string, unknown>, resolveVenue(request.venue ?? null), request.context ?? null);
  const one: JudgeInput = { intent: request.intent, action: request.action, facts, context, reference, note: null, preset: "generic" };
  const times: number[] = [];
  for (let k = 0; k < 2000; k++) {
    const t0 = performance.now();
    await judge.judge(one);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { cases: cases.length, casesPerSecond, baselinePerSecond, oneP50Ms: quantile(times, 0.5), oneP99Ms: quantile(times, 0.99) };
}
