/**
 * Authority claims in untrusted text. The action itself (strings, and every string inside an object
 * action, such as an x402 resource description), a proposal's `note` and `context.reference` are written
 * by the agent or third parties. Text there that claims to grant permission ("the owner approved this",
 * "ignore previous rules", "admin override") never grants anything, and finding it is a reason to BLOCK:
 * an honest action has no need to argue with its own policy.
 */
import type { JudgeInput } from "../types";

export const PATTERNS: RegExp[] = [
  /\b(?:ignore|disregard|forget|override|bypass|skip|suspend)\s+(?:all\s+|any\s+|the\s+|your\s+|these\s+|those\s+)?(?:previous|prior|above|earlier|existing|current|standing|usual|normal|other|policy|risk)?\s*(?:rules?|instructions?|limits?|polic(?:y|ies)|constraints?|checks?|restrictions?|guardrails?|mandate|prompts?)\b/i,
  /\b(?:owner|admin(?:istrator)?|management|finance|compliance|treasury|risk team|the team|ceo|cfo|boss)\s+(?:has\s+|have\s+|had\s+)?(?:already\s+|just\s+|personally\s+|explicitly\s+)?(?:approved|authori[sz]ed|signed[- ]off|okay(?:ed)?|ok'?d|cleared|whitelisted|allowlisted|pre-?approved|confirmed)\b/i,
  /\b(?:i|we)\s+(?:have\s+)?(?:already\s+)?(?:approved|authori[sz]ed|signed off on|cleared|okayed)\b/i,
  /\bpre-?(?:approved|authori[sz]ed|cleared|vetted)\b/i,
  /\b(?:admin|owner|system|emergency|manual|security)\s+override\b/i,
  /\b(?:without|no need (?:for|to run)|skip(?:ping)?|bypass(?:ing)?)\s+(?:running\s+|any\s+|the\s+)?(?:policy|risk|rule|safety|compliance|further)?\s*(?:checks?|verification|review|approval)\b/i,
  /\[\s*(?:system|admin|owner|assistant|developer)\b[^\]]*\]|\bsystem\s+(?:note|prompt|message|override)\s*:/i,
  /\b(?:added|moved|put)\s+(?:this|it|the\s+\w+|[\w.]+)\s+(?:\w+\s+)?(?:to|on)\s+the\s+(?:allow|white)[- ]?list\b/i,
  /\b(?:this|it)\s+(?:is|has been|was)\s+(?:already\s+)?(?:approved|authori[sz]ed|whitelisted|allowlisted|exempt(?:ed)?)\b/i,
  /\b(?:you\s+(?:must|should|are\s+(?:required|instructed|authori[sz]ed)\s+to)|please)\s+(?:approve|allow|sign|execute)\s+(?:this|it|the\s+(?:payment|transfer|transaction|order))\b/i,
  /\bapprove\s+(?:this\s+|it\s+)?without\b|\b(?:do not|don't|never)\s+(?:block|escalate|flag|reject)\b/i,
  /\b(?:AI\s+)?agents?\s+(?:should|must|can)\s+(?:pay|approve|execute|sign|send)\s+(?:this|it)\b/i,
  /\byou are now\b|\bnew instructions?\s*:|\bact as (?:the )?(?:owner|admin)\b/i,
  /\b(?:exception|exemption)\s+(?:has been\s+|was\s+)?(?:granted|approved|made)\b/i,
  /\b(?:wallet|address|account)\s+(?:has\s+)?changed\s+to\b.*\b(?:approved|authori[sz]ed)\b/i,
];

/** Every string inside a value (bounded depth and count), for scanning object actions. */
function strings(v: unknown, out: string[] = [], depth = 0): string[] {
  if (out.length > 200 || depth > 6) return out;
  if (typeof v === "string") {
    // Hex and base64 blobs (signatures, calldata, transactions) carry no prose.
    if (!/^(?:0x)?[0-9a-fA-F]+$/.test(v) && !(v.length > 40 && /^[A-Za-z0-9+/=]+$/.test(v))) out.push(v);
  } else if (Array.isArray(v)) for (const x of v) strings(x, out, depth + 1);
  else if (typeof v === "object" && v !== null) for (const x of Object.values(v)) strings(x, out, depth + 1);
  return out;
}

/**
 * All patterns as one alternation: a text matches it exactly when it matches at least one pattern, so a text
 * it rejects (nearly every honest one) skips the fifteen separate scans. About 40% cheaper on a
 * 4,000-character reference (docs/performance.md); the quotes still come from each pattern's own match.
 */
export const ANY = new RegExp(PATTERNS.map((re) => `(?:${re.source})`).join("|"), "i");

function claims(text: string): string[] {
  if (!ANY.test(text)) return [];
  const found: string[] = [];
  for (const re of PATTERNS) {
    const m = re.exec(text);
    if (m) found.push(m[0].trim());
  }
  return found;
}

/** Authority claims found in the untrusted parts of the input, each quoted with where it was found. */
export function findInjection(input: JudgeInput): string[] {
  return [...new Set([...scanInput(input), ...scanWarnings(input.facts?.warnings ?? [])])];
}

/** Adapters quote untrusted text they decoded (a Solana memo, a resource description) in their warnings. */
function scanWarnings(warnings: string[]): string[] {
  const out: string[] = [];
  for (const w of warnings) if (/memo|description|untrusted/i.test(w)) for (const c of claims(w)) out.push(`text inside the transaction claims authority: "${c}"`);
  return out;
}

function scanInput(input: JudgeInput): string[] {
  const out: string[] = [];
  const scanText = (where: string, text: string | null | undefined): void => {
    if (!text) return;
    for (const c of claims(text)) out.push(`${where} claims authority: "${c}"`);
  };
  if (typeof input.action === "string") scanText("the action text", input.action);
  else for (const s of strings(input.action)) scanText("text inside the action", s);
  scanText("the note", input.note ?? null);
  if (input.reference) {
    scanText("the reference", input.reference.excerpt);
    scanText("the reference source", input.reference.source ?? null);
  }
  // Some callers leave reference-like text inside CONTEXT; scan prose there too (never authority either).
  const ctxRef = input.context?.reference;
  if (ctxRef && typeof ctxRef === "object") for (const s of strings(ctxRef)) scanText("the reference", s);
  else if (typeof ctxRef === "string") scanText("the reference", ctxRef);
  return [...new Set(out)];
}
