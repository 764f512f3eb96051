import type { Facts } from "../venues/types";

export type Verdict = "ALLOW" | "BLOCK" | "ESCALATE";
export const PRESETS = ["generic", "trading", "payments", "escrow"] as const;
export type PresetId = (typeof PRESETS)[number];

export interface Reference {
  source?: string;
  excerpt: string;
}

export interface JudgeInput {
  intent: string;
  /** The action as the caller sent it: a string (semantic) or an object. */
  action: unknown;
  /** Facts from the venue adapter, or null when none matched (semantic mode). */
  facts: Facts | null;
  /** CONTEXT: caller-supplied facts (prices, positions, counters...), without `reference`. */
  context: Record<string, unknown> | null;
  /** Untrusted third-party background (SPEC 4.1), already trimmed and cut. Never authorizes. */
  reference: Reference | null;
  /** Untrusted narration from a proposal's `note`. Never authorizes. */
  note?: string | null;
  preset: PresetId;
}

/** One entry of the run's transcript; the receipt's transcriptRoot is a Merkle root over these. */
export interface TranscriptEntry {
  kind: string; // "input", "facts", "prompt", "rules", "model_output", ...
  data: unknown; // JSON-safe
}

export interface JudgeOutput {
  verdict: Verdict | null;
  reasoning: string | null;
  /** Which engine decided: "rules", "openai:<model>", "anthropic:<model>". */
  provider: string;
  transcript: TranscriptEntry[];
}

export interface Judge {
  readonly name: string;
  /**
   * Runs in this process, free and in bounded time (the rules engine): the verification judges before it
   * debits and writes the run once, completed (src/verification/service.ts). Remote judges leave it unset.
   */
  readonly inProcess?: boolean;
  /** Throws JudgeUnavailableError on transport failure or timeout (the caller refunds and answers 502). */
  judge(input: JudgeInput): Promise<JudgeOutput>;
}

export class JudgeUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "JudgeUnavailableError";
  }
}
