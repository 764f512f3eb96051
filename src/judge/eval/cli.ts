/**
 * `npm run judge:eval -- <cases.jsonl> [more.jsonl ...] [--json] [--quiet] [--direct] [--fold k/N] [--train k/N]
 *  [--floor 0.92]`
 *
 * Scores a judge over labelled cases from one or several files. By default every case goes through the real
 * verification service (POST /api/v1/intent on an in-process runtime, see service-runner.ts); `--direct` asks the
 * embedded RulesJudge in-process instead (faster, for tuning).
 *
 * `--fold k/N` scores only the held-out fold k of N (cases grouped by intent, so no held-out intent shares
 * wording with the rest); `--train k/N` scores everything else. Exits 1 when any ALLOW is unsafe or the accuracy
 * is below `--floor`, so CI fails on the worst defect and on regressions; 2 on bad usage.
 */
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { detectAction, resolveVenue } from "../../venues/registry";
import { splitReference } from "../reference";
import { RulesJudge } from "../rules/judge";
import type { Judge, JudgeInput } from "../types";
import { formatScore, parseCases, scoreCases, scoreJson, selectFold, type JudgeCase, type Runner, type Score } from "./score";
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

/** Cases of every file, in order; ids are prefixed with the file's name only when two files share an id. */
export function loadCases(paths: string[]): JudgeCase[] {
  const all = paths.flatMap((p) => parseCases(readFileSync(p, "utf8")));
  const seen = new Set<string>();
  for (const c of all) {
    if (seen.has(c.id)) throw new Error(`case id ${c.id} appears twice across the files`);
    seen.add(c.id);
  }
  return all;
}

export async function runEval(paths: string | string[], runner: Runner = judgeRunner()): Promise<Score> {
  return scoreCases(loadCases(Array.isArray(paths) ? paths : [paths]), runner);
}

interface Options {
  files: string[];
  json: boolean;
  quiet: boolean;
  direct: boolean;
  fold: { k: number; of: number; held: boolean } | null;
  floor: number | null;
}

const USAGE = "usage: judge:eval <cases.jsonl> [more.jsonl ...] [--json] [--quiet] [--direct] [--fold k/N | --train k/N] [--floor 0.92]";

export function parseArgs(argv: string[]): Options | string {
  const o: Options = { files: [], json: false, quiet: false, direct: false, fold: null, floor: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = (): string | undefined => (a.includes("=") ? a.slice(a.indexOf("=") + 1) : argv[++i]);
    const name = a.split("=")[0];
    if (name === "--json") o.json = true;
    else if (name === "--quiet") o.quiet = true;
    else if (name === "--direct") o.direct = true;
    else if (name === "--fold" || name === "--train") {
      const m = /^(\d+)\/(\d+)$/.exec(value() ?? "");
      const k = m ? Number(m[1]) : 0;
      const of = m ? Number(m[2]) : 0;
      if (!m || of < 2 || k < 1 || k > of) return `${name} wants k/N with 1 <= k <= N and N >= 2 (e.g. ${name} 2/5)`;
      o.fold = { k, of, held: name === "--fold" };
    } else if (name === "--floor") {
      const f = Number(value());
      if (!Number.isFinite(f) || f < 0 || f > 1) return "--floor wants a fraction between 0 and 1 (e.g. --floor 0.92)";
      o.floor = f;
    } else if (a.startsWith("--")) return `unknown option ${a}`;
    else o.files.push(a);
  }
  if (o.files.length === 0) return "no case file given";
  return o;
}

export async function main(argv: string[], runner?: Runner): Promise<number> {
  const opts = parseArgs(argv);
  if (typeof opts === "string") {
    console.error(`${opts}\n${USAGE}`);
    return 2;
  }
  let cases: JudgeCase[];
  try {
    cases = loadCases(opts.files);
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    return 2;
  }
  if (opts.fold) cases = selectFold(cases, opts.fold.k, opts.fold.of, opts.fold.held);
  let close = async () => {};
  if (!runner && !opts.direct) {
    const service = await startServiceRunner(cases.length);
    runner = service.runner;
    close = service.close;
  }
  const score = await scoreCases(cases, runner ?? judgeRunner()).finally(close);
  const scope = opts.fold ? `${opts.fold.held ? "held-out fold" : "all but fold"} ${opts.fold.k}/${opts.fold.of} of ` : "";
  if (opts.json) console.log(JSON.stringify({ files: opts.files, fold: opts.fold, ...scoreJson(score) }, null, 2));
  else console.log(`${scope}${opts.files.join(" + ")}\n${formatScore(score, { failures: !opts.quiet })}`);
  const below = opts.floor !== null && score.accuracy < opts.floor;
  if (below) console.error(`accuracy ${(score.accuracy * 100).toFixed(1)}% is below the floor ${(opts.floor! * 100).toFixed(1)}%`);
  if (score.unsafeAllows.length) console.error(`${score.unsafeAllows.length} unsafe ALLOW(s): ${score.unsafeAllows.join(", ")}`);
  return score.unsafeAllows.length > 0 || below ? 1 : 0;
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
