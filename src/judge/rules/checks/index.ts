/**
 * Runs every parsed constraint against the action view and collects findings.
 */
import type { Activity, ActionView, Constraint, Finding } from "../types";
import { checkCap, checkEscalateAbove, checkLeverage, checkSlippage } from "./amounts";
import { checkBeneficiary, checkList } from "./lists";
import { checkApprovalExact, checkOrderType, checkReduceOnly, checkSide } from "./orders";
import { checkForbid, checkScope } from "./scope";

type Ctx = Record<string, unknown> | null;

export function runChecks(cs: Constraint[], view: ActionView, ctx: Ctx, permitted: Activity[]): Finding[] {
  const out: Finding[] = [...checkScope(view, cs, permitted)];
  for (const c of cs) {
    switch (c.kind) {
      case "permit":
        break;
      case "forbid":
        out.push(...checkForbid(view, c));
        break;
      case "allow":
      case "deny":
        out.push(...checkList(c, view, ctx));
        break;
      case "beneficiary":
        out.push(...checkBeneficiary(c, view));
        break;
      case "cap":
        out.push(...checkCap(c, view, ctx));
        break;
      case "escalate_above":
        out.push(...checkEscalateAbove(c, view, ctx));
        break;
      case "leverage_cap":
      case "no_leverage_increase":
        out.push(...checkLeverage(c, view, ctx));
        break;
      case "slippage_cap":
        out.push(...checkSlippage(c, view));
        break;
      case "side":
        out.push(...checkSide(c, view, ctx));
        break;
      case "reduce_only":
        out.push(...checkReduceOnly(c, view));
        break;
      case "order_type":
        out.push(...checkOrderType(c, view));
        break;
      case "approval_exact":
        out.push(...checkApprovalExact(c, view, ctx));
        break;
    }
  }
  return out;
}
