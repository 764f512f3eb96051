/**
 * `npm run judge:eval -- <cases.jsonl> [--json] [--quiet] [--direct]`
 *
 * Scores a judge over labelled cases. By default every case goes through the real verification service
 * (POST /api/v1/intent on an in-process runtime, see service-runner.ts); `--direct` asks the embedded
 * RulesJudge in-process instead (faster, for tuning). Exits 1 when any ALLOW is unsafe, so CI fails on the
 * worst defect.
 */
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { detectAction, resolveVenue } from "../../venues/registry";
import { splitReference } from "../reference";
import { RulesJudge } from "../rules/judge";
import type { Judge, JudgeInput } from "../types";
import { formatScore, parseCases, scoreCases, scoreJson, type JudgeCase, type Runner, type Score } from "./score";
import { startServiceRunner } from "./service-runner";

/** The JudgeInput a case stands for, built the way the service builds it. */
export function buildJudgeInput(c: JudgeCase): JudgeInput {
  const { context, reference } = splitReference(c.context ?? {});
  const facts = typeof c.action === "object" && c.action !== null ? detectAction(c.action, resolveVenue(c.venue ?? null), context) : null;
  return { intent: c.intent, action: c.action, facts, context, reference, note: null, preset: "generic" };
}

/** A runner that judges in-process with any Judge (default: the embedded rules engine). */
export function judgeRunner(judge: Judge = new RulesJudge()): Runner {
  return async (c) => {
    const out = await judge.judge(buildJudgeInput(c));
    return { verdict: out.verdict, reasoning: out.reasoning };
  };
}

export async function runEval(path: string, runner: Runner = judgeRunner()): Promise<Score> {
  return scoreCases(parseCases(readFileSync(path, "utf8")), runner);
}

export async function main(argv: string[], runner?: Runner): Promise<number> {
  const args = argv.filter((a) => !a.startsWith("--"));
  const json = argv.includes("--json");
  if (args.length !== 1) {
    console.error("usage: judge:eval <cases.jsonl> [--json] [--quiet] [--direct]");
    return 2;
  }
  let close = async () => {};
  if (!runner && !argv.includes("--direct")) {
    const service = await startServiceRunner(parseCases(readFileSync(args[0], "utf8")).length);
    runner = service.runner;
    close = service.close;
  }
  const score = await runEval(args[0], runner).finally(close);
  if (json) console.log(JSON.stringify(scoreJson(score), null, 2));
  else console.log(formatScore(score, { failures: !argv.includes("--quiet") }));
  return score.unsafeAllows.length > 0 ? 1 : 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(2);
    },
  );
}
