/**
 * An approval said to be "exact" or "just enough" when no swap rides in the same batch and the context names no
 * pending one: whether it is exact cannot be confirmed (a human decides, as before), but one larger than the
 * per-action cap on what it serves (swaps, supplies, deposits, stakes) can be exact for no action the rules allow,
 * so it is a violation.
 *
 * Invariants: this only ever adds violations (never clears the missing fact that exactness is), transfer/payout caps
 * never bound an approval (an approval pays nobody), and a figure that cannot be measured adds nothing.
 */
import type { ApprovalView, Constraint, Finding } from "../types";
import { priceOf } from "../context";
import { USD_STABLES } from "../vocab";

type Ctx = Record<string, unknown> | null;
type Cap = Extract<Constraint, { kind: "cap" }>;

/** Activities an approval is granted for; a cap counts for it only when it names one of them or swaps. */
const SERVED = ["swap", "supply", "vault_deposit", "stake", "delegate", "repay", "order"];

function servesApproval(b: Cap): boolean {
  if (b.period !== "action" || b.limitOf) return false;
  if (b.activities?.length) return b.activities.some((a) => SERVED.includes(a));
  return b.scope === "swap" || b.scope === "order" || (b.scope === "any" && /\b(?:swap|supply|suppl(?:ied|ies)|deposit|stake|trade)/i.test(b.rule));
}

/** The approval's size in a rule's unit: the token itself, a dollar stablecoin as dollars, or dollars at the context price. */
export function sizeIn(a: ApprovalView, unit: string, ctx: Ctx): number | null {
  if (a.amount === null || a.token === null) return null;
  if (unit === a.token) return a.amount;
  if (unit === "USD" || USD_STABLES.has(unit)) {
    if (USD_STABLES.has(a.token)) return a.amount;
    const p = unit === "USD" ? priceOf(a.token, ctx) : null;
    return p === null ? null : a.amount * p;
  }
  return null;
}

/** Violations of a finite approval larger than every action it could serve; empty when none applies. */
export function oversizedApproval(a: ApprovalView, cs: Constraint[], ctx: Ctx, rule: string): Finding[] {
  const out: Finding[] = [];
  for (const b of cs) {
    if (b.kind !== "cap" || !servesApproval(b)) continue;
    const v = sizeIn(a, b.limit.unit, ctx);
    if (v !== null && v > b.limit.value + 1e-9)
      out.push({ type: "violation", message: `The approval of ${a.amount} ${a.token} is larger than any action "${b.rule}" allows, so it cannot be the exact amount "${rule}" asks for.` });
  }
  return out;
}

/** A builder-fee approval's rate ("0.03%") against "a max fee rate of at most 0.05%"; an unreadable rate is a missing fact. */
export function checkFeeRate(c: Extract<Constraint, { kind: "fee_rate_cap" }>, view: { approvals: ApprovalView[] }): Finding[] {
  const out: Finding[] = [];
  for (const a of view.approvals) {
    if (a.kind !== "builderFee") continue;
    const m = /^\s*(\d+(?:\.\d+)?)\s*%\s*$/.exec(a.raw ?? "");
    if (!m) out.push({ type: "unknown", message: `The builder fee rate ${a.raw ?? "?"} cannot be read, so "${c.rule}" cannot be checked.` });
    else if (Number(m[1]) > c.maxPct + 1e-12) out.push({ type: "violation", message: `The builder fee rate ${a.raw} is above the ${c.maxPct}% the rules allow ("${c.rule}").` });
  }
  return out;
}
