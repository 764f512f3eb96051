/**
 * Runs every parsed constraint against the action view and collects findings.
 */
import type { Activity, ActionView, Constraint, Finding } from "../types";
import { checkCap, checkEscalateAbove, checkLeverage, checkSlippage } from "./amounts";
import { checkBeneficiary, checkList } from "./lists";
import { checkFeeRate } from "./approval-bounds";
import { checkApprovalExact, checkOrderType, checkPriceCap, checkReduceOnly, checkSide, checkTwapDuration } from "./orders";
import { ACT_NOUN, checkForbid, checkScope } from "./scope";
import { checkFloor, checkPriceFloor } from "./ranges";
import { checkCounterpartyNotes } from "./notes";
import { checkHostPayee } from "./payees";
import { checkPayeeAmount } from "./payee-amounts";
import { checkPayeeOnce } from "./payee-once";
import { checkGrants } from "./grants";
import { checkHealthFloor } from "./health";
import { checkPositionRule } from "./positions";
import { checkBalanceFloor } from "./balance-floor";
import { checkPostShare } from "./post-share";
import { gateFindings } from "./conditions";
import { gateForList, toGate } from "./gate-closer";

type Ctx = Record<string, unknown> | null;

export function runChecks(cs: Constraint[], view: ActionView, ctx: Ctx, permitted: Activity[]): Finding[] {
  const out: Finding[] = [...checkScope(view, cs, permitted), ...checkCounterpartyNotes(view, ctx)];
  // "Reduce-only exits are always allowed": order rules then bind only the orders that open or add.
  const orderView = cs.some((c) => c.kind === "exits_allowed") ? { ...view, orders: view.orders.filter((o) => !o.reduceOnly) } : view;
  const onlyExits = view.orders.length > 0 && orderView.orders.length === 0 && view.activities.every((a) => a === "order" || a === "cancel");
  // "Stop-losses are fine": reduce-only trigger orders are not held to the entry order-type rules.
  const typeView = cs.some((c) => c.kind === "protective_ok") ? { ...orderView, orders: orderView.orders.filter((o) => !(o.trigger && o.reduceOnly)) } : orderView;
  const grants = cs.filter((c): c is Extract<Constraint, { kind: "grant" }> => c.kind === "grant");
  if (grants.length) out.push(...checkGrants(grants, view, ctx));
  for (const c of cs) {
    // "Never close positions" still binds the reduce-only exits it is about.
    if (onlyExits && c.kind !== "forbid" && c.kind !== "allow" && c.kind !== "deny" && !(c.kind === "position_rule" && c.forbids === "close")) continue;
    // Lists and caps folded into a grant are checked only there (checks/grants.ts).
    if ((c.kind === "allow" || c.kind === "cap") && c.grantId !== undefined) continue;
    const from = out.length;
    checkOne(c);
    // "Everything not covered above needs my sign-off": outside a grant's own list is the owner's call (gate-closer.ts).
    const gate = c.kind === "allow" ? gateForList(c, cs, view) : null;
    if (gate) out.splice(from, out.length - from, ...toGate(out.slice(from), gate));
    // "if funding is over 0.03%/h, no new longs": the rule's findings stand only while its condition holds.
    if (c.when) gateFindings(out, from, c.when, c.rule, view, ctx);
  }
  return out;

  function checkOne(c: Constraint): void {
    switch (c.kind) {
      case "grant":
        break;
      case "permit":
      case "exits_allowed":
      case "protective_ok":
      case "only_listed":
        break;
      case "escalate_on": {
        const hit = view.activities.find((a) => c.activities.includes(a));
        if (hit) out.push({ type: "escalate", message: `This action is ${ACT_NOUN[hit]} (${view.summary}), and "${c.rule}".` });
        break;
      }
      case "forbid":
        out.push(...checkForbid(view, c));
        break;
      case "allow":
      case "deny":
        out.push(...checkList(c, view, ctx, cs));
        break;
      case "beneficiary":
        out.push(...checkBeneficiary(c, view, ctx));
        break;
      case "host_payee":
        out.push(...checkHostPayee(c, view, ctx));
        break;
      case "payee_amount":
        out.push(...checkPayeeAmount(c, view, ctx));
        break;
      case "payee_once":
        out.push(...checkPayeeOnce(c, view, ctx, cs.flatMap((k) => (k.kind === "allow" && k.dim === "recipient" ? (k.refs ?? []) : []))));
        break;
      case "cap":
        out.push(...checkCap(c, orderView, ctx));
        break;
      case "escalate_above":
        out.push(...checkEscalateAbove(c, orderView, ctx));
        break;
      case "floor":
        out.push(...checkFloor(c, orderView, ctx));
        break;
      case "price_floor":
        out.push(...checkPriceFloor(c, orderView));
        break;
      case "health_floor":
        out.push(...checkHealthFloor(c, view, ctx));
        break;
      case "balance_floor":
        out.push(...checkBalanceFloor(c, view, ctx));
        break;
      case "post_share":
        out.push(...checkPostShare(c, view, ctx));
        break;
      case "leverage_cap":
      case "leverage_escalate":
      case "no_leverage_increase":
        out.push(...checkLeverage(c, orderView, ctx));
        break;
      case "margin_mode":
        if (view.leverage && view.leverage.isCross !== undefined) {
          const mode = view.leverage.isCross === null ? null : view.leverage.isCross ? "cross" : "isolated";
          if (mode === null) out.push({ type: "unknown", message: `The leverage setting does not say its margin mode, so "${c.rule}" cannot be checked.` });
          else if (c.escalate) {
            if (mode === c.mode) out.push({ type: "escalate", message: `The leverage setting puts ${view.leverage.asset ?? "the asset"} on ${mode} margin, and "${c.rule}".` });
          }
          // "keep margin on cross; switching to isolated needs my sign-off": the owner named a human as the way to the
          // other mode, so the switch is theirs to decide (the referral escalates it), not refused.
          else if (mode !== c.mode && !cs.some((k) => k.kind === "margin_mode" && k.escalate && k.mode === mode))
            out.push({ type: "violation", message: `The leverage setting switches ${view.leverage.asset ?? "the"} to ${mode} margin, but "${c.rule}".` });
        }
        break;
      case "slippage_cap":
        out.push(...checkSlippage(c, orderView, ctx));
        break;
      case "side":
        out.push(...checkSide(c, orderView, ctx));
        break;
      case "reduce_only":
        out.push(...checkReduceOnly(c, orderView, ctx));
        break;
      case "position_rule":
        out.push(...checkPositionRule(c, c.forbids === "close" ? view : orderView, ctx));
        break;
      case "order_type":
        out.push(...checkOrderType(c, typeView));
        break;
      case "twap_duration":
        out.push(...checkTwapDuration(c, orderView));
        break;
      case "price_cap":
        out.push(...checkPriceCap(c, orderView));
        break;
      case "fee_rate_cap":
        out.push(...checkFeeRate(c, view));
        break;
      case "approval_exact":
        out.push(...checkApprovalExact(c, view, ctx, cs));
        break;
      case "swap_direction": {
        // Several directions ("WETH to USDC, or USDC to DAI") are alternatives: the swap must follow one of them.
        const dirs = cs.filter((k): k is typeof c => k.kind === "swap_direction");
        if (c !== dirs[0] || !view.swap || !view.activities.includes("swap")) break;
        // Native and wrapped native are one token for a direction rule.
        const wrapped = (s: string | null): string | null => (s === "ETH" ? "WETH" : s === "SOL" ? "WSOL" : s);
        const sellAsset = wrapped(view.swap.sellAsset);
        const buyAsset = wrapped(view.swap.buyAsset);
        const has = (list: string[], s: string): boolean => list.some((x) => wrapped(x) === s);
        if (!sellAsset || !buyAsset) out.push({ type: "unknown", message: `The swap's tokens are not both known, so its direction under "${c.rule}" cannot be checked.` });
        else if (!dirs.some((d) => has(d.sell, sellAsset) && has(d.buy, buyAsset)))
          out.push({ type: "violation", message: `This swap sells ${sellAsset} for ${buyAsset}, but "${c.rule}" allows only ${dirs.map((d) => `${d.sell.join("/")} into ${d.buy.join("/")}`).join(" or ")}.` });
        break;
      }
      case "swap_mode":
        if (view.swap) {
          const mode = view.swap.mode ?? null;
          if (mode === null) out.push({ type: "unknown", message: `Whether this swap fixes its input or its output amount is not known, so "${c.rule}" cannot be checked.` });
          else if (mode !== c.mode) out.push({ type: "violation", message: `This is an exact-${mode === "in" ? "input" : "output"} swap, but "${c.rule}".` });
        }
        break;
    }
  }
}
