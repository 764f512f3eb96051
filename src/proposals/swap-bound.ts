/**
 * The swap route's slippage bound, applied to swaps decoded in raw calls (issue 18, item 7). The planner
 * reports each decoded swap's minimum output (`PlannedTransaction.minimumOutputs`); here, with the limits
 * and before the judge, the minimums per token are compared with what the clean simulation says the wallet
 * receives of that token. A floor more than MAX_SLIPPAGE_BPS below it (the most the swap route lets a
 * caller choose) blocks the proposal, free, like a limit. A zero minimum never gets here: the planner
 * refuses it. Tokens the wallet does not receive (a swap paying someone else) are left to the recipient
 * allowlist and the judge, which read the simulation. Pure.
 */
import type { AddressComparator, MinimumOutput, SimulationReport } from "../chains/types";
import { formatUnits } from "../lib/money";

/** The swap route's upper bound on `slippageBps` (src/swaps/service.ts: 1 to 1,000). */
export const MAX_SLIPPAGE_BPS = 1000;

export function checkMinimumOutputs(mins: MinimumOutput[] | undefined, sim: SimulationReport, addresses: AddressComparator): string | null {
  if (!mins?.length || sim.status !== "clean") return null;
  const byToken = new Map<string, { min: bigint; where: string[] }>();
  for (const m of mins) {
    const key = [...byToken.keys()].find((k) => addresses.equals(k, m.token)) ?? m.token;
    const e = byToken.get(key) ?? { min: 0n, where: [] };
    byToken.set(key, { min: e.min + BigInt(m.minRaw), where: [...e.where, m.where] });
  }
  for (const [token, { min, where }] of byToken) {
    const ins = sim.changes.filter((c) => c.direction === "in" && c.changeType === "transfer" && c.contractAddress !== "native" && addresses.equals(c.contractAddress, token));
    const received = ins.reduce((s, c) => s + BigInt(c.rawAmount), 0n);
    if (received === 0n) continue;
    // The swap route's own floor, rounded down the same way (minimumOutFor): its 1,000 bps swaps pass.
    if (min >= (received * BigInt(10_000 - MAX_SLIPPAGE_BPS)) / 10_000n) continue;
    const { decimals, symbol } = ins[0];
    const bps = Number(((received - min) * 10_000n) / received);
    return (
      `swap minimum output: ${where.join(" and ")} accept${where.length === 1 ? "s" : ""} as little as ${formatUnits(min, decimals)} ${symbol}, ${bps} bps below the ` +
      `${formatUnits(received, decimals)} ${symbol} the simulation receives; the service allows at most ${MAX_SLIPPAGE_BPS} bps of slippage (as the swap route does): raise the minimum output`
    );
  }
  return null;
}
