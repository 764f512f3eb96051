import type { JudgeInput } from "./types";

/**
 * The simulation report's error when it says the transaction reverts, else null. Escrow proposals carry the
 * report (SPEC 2.8) in `facts.details.simulation`; callers of the verification API may put one in
 * `context.simulation`. A reverting transaction is never allowed, by any judge.
 */
export function simulationRevert(input: JudgeInput): { error: string } | null {
  const candidates = [input.context?.simulation, input.facts?.details?.simulation];
  for (const c of candidates) {
    if (c && typeof c === "object" && !Array.isArray(c)) {
      const sim = c as Record<string, unknown>;
      if (sim.status === "reverted" || sim.wouldRevert === true) {
        return { error: typeof sim.error === "string" && sim.error.trim() !== "" ? sim.error.trim().slice(0, 300) : "no reason given" };
      }
    }
  }
  return null;
}
