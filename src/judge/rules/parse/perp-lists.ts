/**
 * Asset lists that come with a market type scope the orders they name (see bindPerpLists).
 */
import type { Constraint } from "../types";

/**
 * "Schedule A (Markets): the BTC and HYPE perpetual contracts", "perps: ETH / SOL": a list of the markets traded
 * scopes the orders, not every action. Read for everything, it blocked a USDC transfer between the account's own
 * balances. Such a list (an asset list beside a market type, bound to no activity) takes the market type's
 * activities, unless another list in the intent binds every action (then the two are one list, as before).
 */
export function perpList(made: Constraint[]): Constraint[] {
  const market = made.find((k) => k.kind === "allow" && k.dim === "marketType" && k.activities.length > 0);
  return market ? made.filter((k) => k.kind === "allow" && k.dim === "asset" && k.activities.length === 0) : [];
}

export function bindPerpLists(cs: Constraint[], lists: Constraint[]): void {
  if (cs.some((k) => k.kind === "allow" && k.dim === "asset" && k.activities.length === 0 && !lists.includes(k))) return;
  for (const k of lists) if (k.kind === "allow") k.activities = ["order", "cancel"];
}
