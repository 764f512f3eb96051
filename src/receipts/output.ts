import type { Hex } from "viem";
import { canonicalJson } from "../lib/canonical-json";
import type { Verdict } from "../judge/types";
import type { Keccak } from "./digest";
import { keccakJs } from "./transcript";

export interface JudgeDecision {
  verdict: Verdict | null;
  reasoning: string | null;
}

/**
 * outputHash = keccak256(utf8(canonicalJson({verdict, reasoning}))). Both members are always present
 * (null stays null), so canonical form is `{"reasoning":...,"verdict":...}`.
 */
export function outputHash(output: JudgeDecision, keccak: Keccak = keccakJs): Hex {
  return keccak(canonicalJson({ verdict: output.verdict ?? null, reasoning: output.reasoning ?? null }));
}
