/**
 * The default judge: the embedded rules engine behind the Judge interface. Offline and deterministic; it
 * never throws (an internal error becomes ESCALATE inside evaluateRules).
 */
import type { Judge, JudgeInput, JudgeOutput } from "../types";
import { evaluateRules } from "./engine";

export class RulesJudge implements Judge {
  readonly name = "rules";
  readonly inProcess = true;

  async judge(input: JudgeInput): Promise<JudgeOutput> {
    const r = evaluateRules(input);
    return {
      verdict: r.verdict,
      reasoning: r.reasoning,
      provider: "rules",
      transcript: [{ kind: "rules", data: { clauses: r.clauses, constraints: r.constraints, violations: r.violations, unknowns: r.unknowns, injection: r.injection } }],
    };
  }
}
