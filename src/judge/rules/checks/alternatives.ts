/**
 * Ceilings given per asset as alternatives ("4 SOL, or 650 USDC per payout", "per swap: 20 SOL or 3k USDC in",
 * "WETH: 4; USDC: 12,500"). The owner wrote one ceiling for each asset, so:
 * - each cap counts its own asset only: the USDC ceiling does not measure the dollar value of SOL sold into USDC
 *   (the SOL ceiling is the one the owner wrote for that side);
 * - an action in none of the assets has no ceiling the owner wrote: it is not allowed on these caps (ESCALATE),
 *   never let through because no alternative happens to measure it.
 */
import type { ActionView, Constraint, Finding } from "../types";
import { USD_STABLES } from "../vocab";

type Cap = Extract<Constraint, { kind: "cap" }>;

/** The assets the action puts at stake: what a swap sells, what moves, what an order trades. */
function stakeAssets(view: ActionView): string[] {
  const out: string[] = [];
  if (view.swap?.sellAsset) out.push(view.swap.sellAsset);
  for (const m of view.moves) if (m.asset) out.push(m.asset);
  for (const o of view.orders) if (o.asset) out.push(o.asset);
  if (out.length === 0) out.push(...view.assets);
  return out.map((a) => a.toUpperCase());
}

/** ETH and WETH, and any two dollar stablecoins, are one asset for a ceiling. */
function same(a: string, b: string): boolean {
  const n = (x: string) => (x === "WETH" ? "ETH" : x);
  return n(a) === n(b) || (USD_STABLES.has(a) && USD_STABLES.has(b));
}

/** A swap that sells another asset is not this cap's to count (the alternative for that asset is). */
export function otherSide(c: Cap, view: ActionView): boolean {
  return !!c.alts && !!view.swap?.sellAsset && !same(view.swap.sellAsset.toUpperCase(), c.limit.unit);
}

/** An action in scope whose assets no alternative names (said once, by the group's first cap). */
export function unattributed(c: Cap, view: ActionView): Finding[] {
  if (!c.alts || c.alts[0] !== c.limit.unit) return [];
  const assets = stakeAssets(view);
  if (assets.length === 0) return [{ type: "unknown", message: `The action's asset is unknown, so which of the ceilings in "${c.rule}" applies cannot be told.` }];
  const loose = assets.filter((a) => !c.alts!.some((u) => same(a, u)));
  if (loose.length === 0) return [];
  return [{ type: "unknown", message: `"${c.rule}" gives a ceiling for ${c.alts.join(" and ")} only; none is written for ${[...new Set(loose)].join(", ")}.` }];
}
