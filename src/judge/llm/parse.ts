/**
 * Parsing of a model's answer into {verdict, reasoning}. Accepted: a JSON object with `verdict` one of
 * ALLOW / BLOCK / ESCALATE (case-insensitive, trimmed) and `reasoning` a string; the JSON may be the whole
 * text or wrapped in one ``` / ```json fence (with optional prose around a single fenced block).
 * Anything else is `verdict: null` with a short note as reasoning: the caller must not act on it.
 */
import type { Verdict } from "../types";

export interface ParsedVerdict {
  verdict: Verdict | null;
  reasoning: string | null;
  /** Why parsing failed (null on success). */
  error: string | null;
}

export const REASONING_MAX = 4000;
const VERDICTS: readonly Verdict[] = ["ALLOW", "BLOCK", "ESCALATE"];

function candidates(text: string): string[] {
  const t = text.trim();
  const out = [t];
  const whole = /^```[a-zA-Z]*\s*\n?([\s\S]*?)\n?\s*```$/.exec(t);
  if (whole) out.push(whole[1].trim());
  const blocks = [...t.matchAll(/```(?:json|JSON)?\s*\n([\s\S]*?)\n\s*```/g)];
  if (blocks.length === 1) out.push(blocks[0][1].trim());
  return out;
}

export function parseVerdict(text: string | null | undefined): ParsedVerdict {
  if (typeof text !== "string" || text.trim() === "") {
    return { verdict: null, reasoning: "The model returned no answer.", error: "empty output" };
  }
  let obj: unknown = undefined;
  for (const c of candidates(text)) {
    try {
      obj = JSON.parse(c);
      break;
    } catch {
      /* next candidate */
    }
  }
  if (obj === undefined) return { verdict: null, reasoning: "The model's answer was not valid JSON.", error: "invalid JSON" };
  if (obj === null || typeof obj !== "object" || Array.isArray(obj)) {
    return { verdict: null, reasoning: "The model's answer was not a JSON object.", error: "not an object" };
  }
  const rec = obj as Record<string, unknown>;
  const v = typeof rec.verdict === "string" ? rec.verdict.trim().toUpperCase() : null;
  if (!v || !(VERDICTS as readonly string[]).includes(v)) {
    return { verdict: null, reasoning: "The model's answer had no valid verdict.", error: "bad verdict" };
  }
  if (typeof rec.reasoning !== "string") {
    return { verdict: null, reasoning: "The model's answer had no reasoning.", error: "bad reasoning" };
  }
  const reasoning = Array.from(rec.reasoning.trim()).slice(0, REASONING_MAX).join("");
  return { verdict: v as Verdict, reasoning, error: null };
}
