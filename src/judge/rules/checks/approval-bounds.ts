/**
 * An approval said to be "exact" or "just enough" when no swap rides in the same batch and the context names no
 * pending one: it is exact for *some* action the rules allow when it is finite, goes to a spender the rules name,
 * and is no larger than the per-action cap on what it serves (swaps, supplies, deposits, stakes). Above that cap it
 * could serve no allowed action (a violation); above a "needs a human" line on that activity, a human decides.
 *
 * Invariants: transfer/payout caps never bound an approval (an approval pays nobody); a figure that cannot be
 * measured (no price for a USD line) is a missing fact; with no named spender the approval stays unchecked
 * (unknown), so "exact" alone never allows an approval to anyone.
 */
import type { ApprovalView, Constraint, Finding } from "../types";
import { priceOf } from "../context";
import { USD_STABLES } from "../vocab";

type Ctx = Record<string, unknown> | null;
type Bound = Extract<Constraint, { kind: "cap" | "escalate_above" }>;

/** Activities an approval is granted for; a cap counts for it only when it names one of them or swaps. */
const SERVED = ["swap", "supply", "vault_deposit", "stake", "delegate", "repay", "order"];

function servesApproval(b: Bound): boolean {
  if (b.kind === "cap" && (b.period !== "action" || b.limitOf)) return false;
  if (b.kind === "cap" && b.activities?.length) return b.activities.some((a) => SERVED.includes(a));
  return b.scope === "swap" || b.scope === "order" || (b.scope === "any" && /\b(?:swap|supply|suppl(?:ied|ies)|deposit|stake|trade|approv)/i.test(b.rule));
}

/** The approval's size in a rule's unit: the token itself, a dollar stablecoin as dollars, or dollars at the context price. */
function sizeIn(a: ApprovalView, unit: string, ctx: Ctx): number | null {
  if (a.amount === null || a.token === null) return null;
  if (unit === a.token) return a.amount;
  if (unit === "USD" || USD_STABLES.has(unit)) {
    if (USD_STABLES.has(a.token)) return a.amount;
    const p = unit === "USD" ? priceOf(a.token, ctx) : null;
    return p === null ? null : a.amount * p;
  }
  return null;
}

/** Findings for one finite approval checked by its bounds; null when the rules give no spender for it. */
export function boundApproval(a: ApprovalView, cs: Constraint[], ctx: Ctx, rule: string): Finding[] | null {
  const spenderNamed = cs.some((k) => k.kind === "allow" && k.dim === "spender" && k.activities.includes("approval"));
  if (!spenderNamed) return null;
  const bounds = cs.filter((k): k is Bound => (k.kind === "cap" || k.kind === "escalate_above") && servesApproval(k));
  const out: Finding[] = [];
  const caps = bounds.filter((b) => b.kind === "cap");
  for (const b of bounds) {
    const v = sizeIn(a, b.limit.unit, ctx);
    if (v === null) {
      if (a.token !== null && (b.limit.unit === a.token || b.limit.unit === "USD")) out.push({ type: "unknown", message: `The ${a.token} approval cannot be measured against "${b.rule}".` });
      continue;
    }
    if (b.kind === "cap" && v > b.limit.value + 1e-9)
      out.push({ type: "violation", message: `The approval of ${a.amount} ${a.token} is larger than any action "${b.rule}" allows, so it is not the exact amount "${rule}" asks for.` });
    if (b.kind === "escalate_above" && (b.inclusive ? v >= b.limit.value : v > b.limit.value + 1e-9))
      out.push({ type: "escalate", message: `The approval of ${a.amount} ${a.token} is for more than ${b.limit.value} ${b.limit.unit}, where "${b.rule}".` });
  }
  void caps;
  return out;
}
