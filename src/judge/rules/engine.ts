/**
 * The embedded rules engine: parse the intent, read the action (adapter facts or plain English), look for
 * authority claims in untrusted text, check every constraint, decide.
 *
 * Decision order, failing closed: an authority claim or any hard violation -> BLOCK; a rule that asks for a
 * human above some figure -> ESCALATE; anything not understood or not known -> ESCALATE; only then ALLOW.
 * Pure, synchronous and deterministic; never throws.
 */
import type { JudgeInput, Verdict } from "../types";
import type { ActionView, Finding, RulesResult } from "./types";
import type { ParsedIntent } from "./parse/finish";
import { runChecks } from "./checks/index";
import { findInjection } from "./injection";
import { parseIntent } from "./parse/index";
import { viewFromText } from "./text-action";
import { simulationRevert } from "../simulation";
import { emptyView, viewFromFacts } from "./view";
import { venueWarnings } from "../../venues/warnings";
import { bearsOn } from "./relevance";
import { insideEveryBound } from "./envelope";
import { belowEveryThreshold, overThreshold } from "./thresholds";
import { foreignToAction } from "./foreign";

/**
 * What the adapter warnings decide, by severity (src/venues/warnings.ts gives each its code and severity):
 * `block` is a violation (the payload contradicts itself: refuse, do not ask), `info` decides nothing, and
 * `warn` or any severity this build does not know asks a human. Nothing is dropped unread.
 */
function warningFindings(messages: readonly string[]): { violations: string[]; unknowns: string[] } {
  const coded = venueWarnings(messages);
  return {
    violations: coded.filter((w) => w.severity === "block").map((w) => `The payload contradicts itself: ${w.message}, so it cannot be trusted to do what it declares.`),
    unknowns: coded.filter((w) => w.severity !== "block" && w.severity !== "info").map((w) => `The venue adapter warns: ${w.message}.`),
  };
}

function buildView(input: JudgeInput): ActionView {
  const ctx = input.context ?? null;
  if (input.facts) return viewFromFacts(input.facts, ctx, input.action);
  if (typeof input.action === "string") return viewFromText(input.action, ctx);
  const v = emptyView("none", "an object no venue adapter recognised");
  v.activities = ["unknown"];
  v.gaps.push("no venue adapter recognised the action, so what it does is unknown");
  return v;
}

const sentence = (s: string): string => {
  const t = s.trim();
  return /[.!?]$/.test(t) ? t : `${t}.`;
};

function more(n: number, what: string): string {
  return n > 0 ? ` (${n} more ${what}${n > 1 ? "s" : ""} in the transcript)` : "";
}

function decide(violations: string[], escalations: string[], unknowns: string[], injection: string[], view: ActionView): { verdict: Verdict; reasoning: string } {
  if (violations.length) {
    const extra = injection.length ? ` Also, ${injection[0]}, which never grants permission.` : "";
    return { verdict: "BLOCK", reasoning: `${sentence(violations[0]).replace(/\.$/, more(violations.length - 1, "problem") + ".")}${extra}` };
  }
  if (injection.length)
    return { verdict: "BLOCK", reasoning: `${sentence(cap(injection[0]))} Text in the action, note or reference cannot grant permission, so the action is refused.` };
  if (escalations.length) return { verdict: "ESCALATE", reasoning: `${sentence(escalations[0])} A human must approve it before it runs.` };
  if (unknowns.length) return { verdict: "ESCALATE", reasoning: `${sentence(unknowns[0]).replace(/\.$/, more(unknowns.length - 1, "open question") + ".")} A human should decide.` };
  return { verdict: "ALLOW", reasoning: `Every rule is satisfied: ${view.summary.replace(/\.$/, "")}.` };
}

const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * The transcript's JSON-safe copies of a parsed intent's constraints and clauses, made once per parse (parseIntent
 * memoises by intent, and agents send the same rules with every request). Frozen because every result of that
 * intent shares them.
 */
const JSON_COPIES = new WeakMap<ParsedIntent, { constraints: readonly unknown[]; clauses: readonly Record<string, unknown>[] }>();
function jsonCopies(parsed: ParsedIntent) {
  let hit = JSON_COPIES.get(parsed);
  if (!hit) {
    hit = deepFreeze({
      constraints: JSON.parse(JSON.stringify(parsed.constraints)) as unknown[],
      clauses: JSON.parse(JSON.stringify(parsed.clauses)) as Record<string, unknown>[],
    });
    JSON_COPIES.set(parsed, hit);
  }
  return hit;
}

export function evaluateRules(input: JudgeInput): RulesResult {
  try {
    const parsed = parseIntent(String(input.intent ?? ""));
    const injection = findInjection(input);
    const view = buildView(input);
    const findings: Finding[] = runChecks(parsed.constraints, view, input.context ?? null, parsed.permitted);
    const { violations: contradictions, unknowns: warnings } = warningFindings(view.warnings);
    const revert = simulationRevert(input);
    const reverts = revert ? [`The simulation shows this transaction reverts (${revert.error}); a reverting transaction is never allowed.`] : [];
    const violations = [...new Set([...reverts, ...findings.filter((f) => f.type === "violation").map((f) => f.message), ...contradictions])];
    const escalations = [...new Set(findings.filter((f) => f.type === "escalate").map((f) => f.message))];
    // A clause not understood holds back an ALLOW only when it could restrict this kind of action (relevance.ts).
    const actionText = typeof input.action === "string" && !input.facts ? input.action : undefined;
    // Or when the action is inside every upper bound the clause states, whatever else it means (envelope.ts), or at
    // or under every figure of a clause made of caps, human gates and permissions below a figure (thresholds.ts).
    const unread = parsed.clauses.filter((r) => r.reading === "not understood" && r.question);
    // Or when it prohibits only activities the action does not perform, read by verb and object (foreign.ts).
    const aside = new Set(
      unread
        .filter((r) => !bearsOn(r.clause, view.activities, actionText, view.assets, view.orders.length > 0) || foreignToAction(r.clause, view, actionText))
        .map((r) => r.question as string),
    );
    const inside = new Set(unread.filter((r) => !aside.has(r.question as string) && (insideEveryBound(r.clause, view, input.context ?? null) || belowEveryThreshold(r.clause, view, input.context ?? null))).map((r) => r.question as string));
    // A firm cap among them that the action is over under every reading is a violation, not a question (thresholds.ts).
    const over = unread.filter((r) => !aside.has(r.question as string)).map((r) => overThreshold(r.clause, view, input.context ?? null));
    violations.push(...over.filter((m): m is string => m !== null && !violations.includes(m)));
    const unknowns = [
      ...new Set([
        ...parsed.unknown.filter((u) => !aside.has(u) && !inside.has(u)),
        ...view.gaps.map((g) => `${cap(g)}.`),
        ...findings.filter((f) => f.type === "unknown").map((f) => f.message),
        ...warnings,
      ]),
    ];
    const { verdict, reasoning } = decide(violations, escalations, unknowns, injection, view);
    const copies = jsonCopies(parsed);
    return {
      verdict,
      reasoning,
      violations,
      unknowns: [...escalations, ...unknowns],
      escalations,
      constraints: copies.constraints as unknown[],
      injection,
      clauses: parsed.clauses.map((r, i) => {
        const json = copies.clauses[i];
        return r.question && aside.has(r.question) ? { ...json, bearsOnAction: false } : r.question && inside.has(r.question) ? { ...json, insideEveryBound: true } : json;
      }),
    };
  } catch (err) {
    return {
      verdict: "ESCALATE",
      reasoning: "The rules engine could not evaluate this action (internal error), so a human should decide.",
      violations: [],
      unknowns: [`internal error: ${err instanceof Error ? err.message : String(err)}`],
      escalations: [],
      constraints: [],
      injection: [],
      clauses: [],
    };
  }
}
