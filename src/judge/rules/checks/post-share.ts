/**
 * The share of one asset in a pair of holdings after the action (parse/post-share.ts). The holdings are read from the
 * context path the rule names; the action moves them: a stake of the other asset of the pair turns it into the capped
 * one one for one (ETH staked with Lido becomes stETH), a move out of either lowers it. A swap into or out of the pair
 * gives only a minimum output, so the share after it cannot be bounded: a question for a human. A missing holding is
 * never read as zero.
 */
import type { ActionView, Constraint, Finding } from "../types";
import { atPath, canonSym, num, isRec } from "../context";

type Ctx = Record<string, unknown> | null;
type PostShare = Extract<Constraint, { kind: "post_share" }>;

function holding(map: Record<string, unknown>, asset: string): number | null {
  for (const [k, v] of Object.entries(map)) if (canonSym(k) === canonSym(asset) || k.toUpperCase() === asset) return num(v);
  return null;
}

export function checkPostShare(c: PostShare, view: ActionView, ctx: Ctx): Finding[] {
  const inPair = (s: string | null) => s === null || c.of.includes(s) || c.of.some((x) => canonSym(x) === canonSym(s));
  const touches = view.moves.some((m) => inPair(m.asset)) || (view.swap !== null && (inPair(view.swap.sellAsset) || inPair(view.swap.buyAsset)));
  if (!touches) return [];
  const unknown = (why: string): Finding[] => [{ type: "unknown", message: `${why}, so the share of ${c.asset} after this action ("${c.rule}") cannot be computed.` }];
  if (view.swap) return unknown("A swap gives only a minimum output");
  const map = atPath(ctx, c.path);
  if (!isRec(map)) return unknown(`The context does not give ${c.path}`);
  const [a, b] = c.of;
  const have: Record<string, number | null> = { [a]: holding(map, a), [b]: holding(map, b) };
  if (have[a] === null || have[b] === null) return unknown(`${c.path} does not give both ${a} and ${b}`);
  const other = c.asset === a ? b : a;
  const after: Record<string, number> = { [a]: have[a] as number, [b]: have[b] as number };
  const staking = view.activities.includes("stake");
  // A move listed twice (the value sent to the contract and the same value with no recipient) is counted once.
  const addressed = view.moves.filter((m) => m.to !== null);
  for (const m of addressed.length ? addressed : view.moves) {
    if (m.asset === null || m.amount === null) return unknown("The amount or asset of a move is not known");
    const sym = c.of.find((x) => canonSym(x) === canonSym(m.asset)) ?? null;
    if (!sym) continue;
    after[sym] -= m.amount;
    if (staking && sym === other) after[c.asset] += m.amount;
  }
  const total = after[a] + after[b];
  if (total <= 0) return unknown(`${a} and ${b} would be gone`);
  const share = (after[c.asset] / total) * 100;
  return share > c.maxPct + 1e-9 ? [{ type: "violation", message: `After this action ${c.asset} would be ${share.toFixed(1)}% of ${a} plus ${b} (${after[a]} ${a}, ${after[b]} ${b}), above ${c.maxPct}% ("${c.rule}").` }] : [];
}
