/**
 * ModelJudge: the embedded rules engine first, then the model.
 *
 * Combination policy (fail closed; an unsafe ALLOW is the worst defect):
 *  1. Rules found a hard violation (violations non-empty), injection, or answered BLOCK -> BLOCK with the rules'
 *     reasoning; the model is NOT called (provider "rules"). A model can never ALLOW what rules BLOCKed.
 *  2. Otherwise the model decides (provider "openai:<model>" / "anthropic:<model>"):
 *     - ALLOW / BLOCK / ESCALATE stand as the model said. In particular a rules ESCALATE for something the rules
 *       engine did not understand or could not check does NOT cap a model ALLOW: judging what the rules cannot
 *       parse is the purpose of a model (but see 4.).
 *     - model null (unparseable answer) -> null (never replaced by the rules verdict).
 *     - model unavailable (JudgeUnavailableError) -> thrown; no fallback to the rules verdict.
 *  3. If the rules engine itself throws (a bug), the model still runs but its ALLOW is capped to ESCALATE,
 *     since hard violations could not be checked.
 *  4. The owner's own escalation rules ("needs human approval above $X") that the action triggers cap a model
 *     ALLOW to ESCALATE: the owner asked for a human, and a model is not one.
 *  A reverting simulation (src/judge/simulation.ts) is a rules violation, so (1.) blocks it without the model.
 * Transcript: [rules, ...model entries (prompt, model_output), combine].
 *
 * The evaluator is injected (createJudge passes evaluateRules from ./rules/engine); without one, the engine is
 * loaded lazily on first use, and a load failure counts as a rules engine crash (3.).
 */
import { canonicalJson } from "../lib/canonical-json";
import type { Judge, JudgeInput, JudgeOutput, TranscriptEntry, Verdict } from "./types";

/** The part of the rules engine's result this wrapper relies on (src/judge/rules/engine.ts RulesResult). */
export interface RulesCheck {
  verdict: Verdict | null;
  reasoning: string | null;
  violations: string[];
  unknowns: string[];
  constraints: unknown[];
  injection: string[];
  /** The owner's own "a human approves above X" rules that this action triggers. */
  escalations?: string[];
}

export type RulesEvaluator = (input: JudgeInput) => RulesCheck;

function jsonSafe(v: unknown): unknown {
  try {
    return JSON.parse(canonicalJson(v));
  } catch {
    return String(v);
  }
}

function rulesReasoning(r: RulesCheck): string {
  if (r.reasoning && r.reasoning.trim() !== "") return r.reasoning;
  if (r.injection.length > 0) return `Untrusted text tries to override the rules: ${r.injection[0]}`;
  if (r.violations.length > 0) return r.violations[0];
  return "The rules engine blocked this action.";
}

let defaultEvaluator: Promise<RulesEvaluator> | null = null;
function loadDefaultEvaluator(): Promise<RulesEvaluator> {
  defaultEvaluator ??= import("./rules/engine").then((m) => m.evaluateRules);
  return defaultEvaluator;
}

export class ModelJudge implements Judge {
  readonly name: string;
  private readonly evaluate: RulesEvaluator | null;

  constructor(
    private readonly model: Judge,
    opts: { rules?: RulesEvaluator } = {},
  ) {
    this.name = model.name;
    this.evaluate = opts.rules ?? null;
  }

  async judge(input: JudgeInput): Promise<JudgeOutput> {
    let rules: RulesCheck | null = null;
    let rulesError: string | null = null;
    try {
      const evaluate = this.evaluate ?? (await loadDefaultEvaluator());
      rules = evaluate(input);
    } catch (e) {
      rulesError = e instanceof Error ? e.message : String(e);
    }
    const violations = rules?.violations ?? [];
    const injection = rules?.injection ?? [];
    const rulesEntry: TranscriptEntry = {
      kind: "rules",
      data: rules
        ? jsonSafe({
            verdict: rules.verdict ?? null,
            reasoning: rules.reasoning ?? null,
            violations,
            unknowns: rules.unknowns ?? [],
            injection,
            constraints: rules.constraints ?? [],
          })
        : { error: rulesError },
    };

    if (rules && (violations.length > 0 || injection.length > 0 || rules.verdict === "BLOCK")) {
      const reasoning = rulesReasoning({ ...rules, violations, injection });
      return {
        verdict: "BLOCK",
        reasoning,
        provider: "rules",
        transcript: [
          rulesEntry,
          { kind: "combine", data: { rules: "BLOCK", model: "not called", final: "BLOCK", policy: "rules hard violation overrides the model" } },
        ],
      };
    }

    const out = await this.model.judge(input);
    let verdict = out.verdict;
    let reasoning = out.reasoning;
    let policy = "model decides; rules found no hard violation";
    const ownerEscalations = rules?.escalations ?? [];
    if (ownerEscalations.length > 0 && verdict === "ALLOW") {
      verdict = "ESCALATE";
      reasoning = `${ownerEscalations[0]} The owner's rules require a human to approve this, whatever the model concluded.`;
      policy = "owner escalation rule: model ALLOW capped to ESCALATE";
    } else if (rulesError !== null && verdict === "ALLOW") {
      verdict = "ESCALATE";
      reasoning = `The rules check could not run, so the model's ALLOW is held for review. Model reasoning: ${out.reasoning ?? ""}`.trim();
      policy = "rules engine failed: model ALLOW capped to ESCALATE";
    }
    return {
      verdict,
      reasoning,
      provider: out.provider,
      transcript: [
        rulesEntry,
        ...out.transcript,
        { kind: "combine", data: { rules: rules?.verdict ?? null, model: out.verdict, final: verdict, policy } },
      ],
    };
  }
}
