/** Chain-neutral wording of a SPEC 2.8 simulation report. */
import type { SimulationReport } from "./types";

/** One line for replies and listings, e.g. "clean: out 5 USDC ($5.00) to 0xdead...; gas 51,000". */
export function simulationSummary(r: SimulationReport): string {
  const moves = r.changes
    .filter((c) => c.direction === "out" || c.changeType === "transfer")
    .slice(0, 4)
    .map((c) => {
      const usd = c.usdValue === null ? "" : ` ($${c.usdValue.toFixed(2)})`;
      const verb = c.changeType === "transfer" ? (c.direction === "out" ? "out" : "in") : "approve";
      return `${verb} ${c.amount} ${c.symbol}${usd} ${c.direction === "out" ? "to" : "from"} ${short(c.counterparty)}`;
    });
  const more = r.changes.length > 4 ? ` (+${r.changes.length - 4} more)` : "";
  const head = r.status === "reverted" ? `reverts: ${r.error}` : r.status === "unavailable" ? "simulation unavailable" : "clean";
  const body = moves.length ? `: ${moves.join("; ")}${more}` : r.status === "clean" ? ": no asset changes" : "";
  return `${head}${body}`.slice(0, 400);
}

/** Long addresses of any family shortened the same way (0x1234...abcd, 7xKXtg...sAsU). */
const short = (a: string) => (a.length > 16 ? `${a.slice(0, 6)}...${a.slice(-4)}` : a);
