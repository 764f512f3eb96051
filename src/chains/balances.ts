/** Chain-neutral arithmetic over SPEC 2.6 balance entries. */
import type { BalanceEntry } from "./types";

/** Sum of the priced entries (unpriced ones are left out and named in `unpriced`). */
export function totalUsd(entries: BalanceEntry[]): { balanceUsd: number; unpriced: string[] } {
  let total = 0;
  const unpriced: string[] = [];
  for (const e of entries) {
    if (e.usdValue === null) unpriced.push(e.symbol);
    else total += e.usdValue;
  }
  return { balanceUsd: Math.round(total * 100) / 100, unpriced };
}
