/**
 * A floor on what the wallet keeps of one asset after the action ("must still hold at least 2 ETH after any
 * transfer"). What the action takes out of that asset (its moves and the input of a swap) is subtracted from the
 * balance the context gives; the result may not go below the floor. The balance is read only where the rules
 * point (the clause's path) or from the asset's own entry in a balances map; a figure in base units (lamports,
 * wei) or dollars is never taken for whole units. No balance: the floor cannot be checked (ESCALATE), never ALLOW.
 * Network fees are not counted: they are tiny next to any floor an owner writes, and no adapter reports them.
 */
import type { ActionView, Constraint, Finding } from "../types";
import { atPath, num, isRec } from "../context";
import { qty } from "../text";

type Ctx = Record<string, unknown> | null;
type Floor = Extract<Constraint, { kind: "balance_floor" }>;

/** Keys that hold a figure in another unit than whole tokens. */
const OTHER_UNIT = /lamport|wei|raw|base|atom|sats?\b|micro|usd|value|notional|_e\d+/i;
/** Where owners keep a wallet's balances when the rule names no path. */
const BALANCE_MAPS = ["balances", "balance", "holdings", "wallet_balances", "wallet.balances", "hot_wallet.balances"];

/** The asset's entry in a map: its symbol as the key, in any case ("ETH", "eth", "sol_balance"). */
function entryOf(map: Record<string, unknown>, asset: string): number | null {
  const a = asset.toLowerCase();
  for (const [k, v] of Object.entries(map)) {
    const key = k.toLowerCase();
    if (key === a || key === `${a}_balance` || key === `balance_${a}`) return num(v);
  }
  return null;
}

export function balanceOf(c: Floor, ctx: Ctx): { value: number | null; where: string } {
  if (c.path) {
    const v = atPath(ctx, c.path);
    const last = c.path.split(".").at(-1) ?? "";
    if (isRec(v)) return { value: entryOf(v, c.asset), where: `${c.path}.${c.asset}` };
    if (OTHER_UNIT.test(last)) return { value: null, where: c.path };
    return { value: num(v), where: c.path };
  }
  for (const p of BALANCE_MAPS) {
    const v = atPath(ctx, p);
    if (isRec(v)) {
      const x = entryOf(v, c.asset);
      if (x !== null) return { value: x, where: `context.${p}.${c.asset}` };
    }
  }
  return { value: null, where: `the wallet's ${c.asset} balance` };
}

/**
 * What the action takes out of the asset, in whole units; null when a move of it has no known amount. A move listed
 * twice (the value sent to a contract and the same value with no recipient) is counted once.
 */
export function outflowOf(asset: string, view: ActionView): number | null {
  const moves = view.moves.filter((m) => m.asset === asset);
  if (moves.some((m) => m.amount === null)) return null;
  const addressed = moves.filter((m) => m.to !== null);
  let out = (addressed.length > 0 ? addressed : moves).reduce((s, m) => s + (m.amount ?? 0), 0);
  if (view.swap && view.swap.sellAsset === asset) {
    if (view.swap.sellAmount === null) return null;
    out += view.swap.sellAmount;
  }
  return out;
}

export function checkBalanceFloor(c: Floor, view: ActionView, ctx: Ctx): Finding[] {
  const touches = view.moves.some((m) => m.asset === c.asset || m.asset === null) || (view.swap !== null && (view.swap.sellAsset === c.asset || view.swap.sellAsset === null));
  if (!touches) return [];
  // A move or a swap input of an unknown asset may be this one.
  const unknownAsset = view.moves.some((m) => m.asset === null) || (view.swap !== null && view.swap.sellAsset === null);
  const out = unknownAsset ? null : outflowOf(c.asset, view);
  if (out === null) return [{ type: "unknown", message: `How much ${c.asset} this action takes out is not known, so "${c.rule}" cannot be checked.` }];
  if (out === 0) return [];
  const bal = balanceOf(c, ctx);
  if (bal.value === null) return [{ type: "unknown", message: `The context does not give ${bal.where} in whole ${c.asset}, so what this action leaves ("${c.rule}") cannot be computed.` }];
  const after = bal.value - out;
  const below = c.strict ? after <= c.min : after < c.min - 1e-12;
  return below ? [{ type: "violation", message: `This action takes ${qty(out, c.asset)} out of ${qty(bal.value, c.asset)} (${bal.where}), leaving ${qty(after, c.asset)}, below the floor of ${qty(c.min, c.asset)} ("${c.rule}").` }] : [];
}
