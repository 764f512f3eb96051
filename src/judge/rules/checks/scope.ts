/**
 * What the rules permit at all, and what they forbid outright. An action whose kind no sentence permits is
 * blocked when the rules name a scope ("Trade only BTC and ETH perpetuals") and it is unrelated to it, and
 * held for a human when it is a close relative (changing leverage under "trade") or the rules set no scope.
 */
import type { Activity, ActionView, Constraint, Finding } from "../types";

export const ACT_LABEL: Record<Activity, string> = {
  order: "placing orders",
  cancel: "cancelling orders",
  leverage: "changing leverage",
  margin: "changing margin",
  transfer: "transfers",
  internal_transfer: "moving funds between the account's own balances",
  withdrawal: "withdrawals",
  payment: "payments",
  swap: "swaps",
  bridge: "bridging",
  approval: "token approvals",
  permission: "permission changes",
  close_account: "closing token accounts",
  subaccount: "sub-account changes",
  stake: "staking",
  unstake: "unstaking",
  delegate: "delegating",
  undelegate: "undelegating",
  vault_deposit: "vault deposits",
  vault_withdraw: "vault withdrawals",
  supply: "supplying to a lending pool",
  redeem: "withdrawing from a lending pool",
  borrow: "borrowing",
  repay: "repaying debt",
  wrap: "wrapping",
  unwrap: "unwrapping",
  unknown: "unrecognised actions",
};

/** The action itself, for "this action is ...". */
export const ACT_NOUN: Record<Activity, string> = {
  order: "an order",
  cancel: "an order cancellation",
  leverage: "a leverage change",
  margin: "a margin change",
  transfer: "a transfer",
  internal_transfer: "a move between the account's own balances",
  withdrawal: "a withdrawal",
  payment: "a payment",
  swap: "a swap",
  bridge: "a bridge transfer",
  approval: "a token approval",
  permission: "a permission change",
  close_account: "closing a token account",
  subaccount: "a sub-account change",
  stake: "a staking deposit",
  unstake: "an unstake",
  delegate: "a delegation",
  undelegate: "an undelegation",
  vault_deposit: "a vault deposit",
  vault_withdraw: "a vault withdrawal",
  supply: "a lending-pool supply",
  redeem: "a lending-pool withdrawal",
  borrow: "a borrow",
  repay: "a debt repayment",
  wrap: "a wrap",
  unwrap: "an unwrap",
  unknown: "an unrecognised action",
};

/** Activities that sit next to a permitted one: not permitted in so many words, not clearly outside either. */
const RELATED: Partial<Record<Activity, Activity[]>> = {
  leverage: ["order"],
  margin: ["order"],
  internal_transfer: ["order"],
  approval: ["swap", "supply", "vault_deposit", "repay", "stake", "order"],
  wrap: ["swap"],
  unwrap: ["swap"],
  redeem: ["supply"],
  vault_withdraw: ["vault_deposit"],
  unstake: ["stake", "delegate"],
  // A swap transaction may close the temporary wrapped-SOL account it opened.
  close_account: ["swap"],
  undelegate: ["delegate"],
  repay: ["borrow", "supply"],
  stake: ["delegate"],
  delegate: ["stake"],
  transfer: ["payment"],
  payment: ["transfer"],
};

/** Activities a constraint presupposes: a leverage cap means leverage may be changed within it. */
export function impliedActivities(cs: Constraint[]): Activity[] {
  const out = new Set<Activity>();
  for (const c of cs) {
    if (c.kind === "leverage_cap" || c.kind === "leverage_escalate" || c.kind === "no_leverage_increase" || c.kind === "margin_mode") out.add("leverage");
    if ((c.kind === "cap" || c.kind === "escalate_above") && c.scope === "margin") out.add("margin");
    if (c.kind === "approval_exact") out.add("approval");
    if (c.kind === "escalate_on") c.activities.forEach((a) => out.add(a));
    if (c.kind === "slippage_cap" || c.kind === "swap_mode" || c.kind === "swap_direction") out.add("swap");
    if (c.kind === "side" || c.kind === "reduce_only" || c.kind === "order_type" || c.kind === "price_cap") out.add("order");
    if ((c.kind === "cap" || c.kind === "escalate_above") && c.scope === "order") out.add("order");
    if ((c.kind === "cap" || c.kind === "escalate_above") && c.scope === "swap") out.add("swap");
    if ((c.kind === "cap" || c.kind === "escalate_above") && c.scope === "transfer") ["transfer", "payment"].forEach((a) => out.add(a as Activity));
    if (c.kind === "allow" && c.dim === "spender") out.add("approval");
    if (c.kind === "allow" && c.dim === "host") out.add("payment");
    // "Only ETH perp orders", "only this market": a list of markets presupposes orders on them.
    if (c.kind === "exits_allowed" || (c.kind === "allow" && ["marketType", "market", "outcome", "topic"].includes(c.dim))) out.add("order");
  }
  if (out.has("order")) out.add("cancel");
  return [...out];
}

const list = (acts: Activity[]): string => {
  const labels = [...new Set(acts.filter((a) => a !== "cancel").map((a) => ACT_LABEL[a]))];
  return labels.length <= 1 ? (labels[0] ?? "nothing") : `${labels.slice(0, -1).join(", ")} and ${labels[labels.length - 1]}`;
};

export function checkScope(view: ActionView, cs: Constraint[], permitted: Activity[]): Finding[] {
  const out: Finding[] = [];
  const implied = impliedActivities(cs);
  const forbidden = new Set(cs.flatMap((c) => (c.kind === "forbid" ? c.activities : [])));
  const ok = new Set<Activity>([...permitted, ...implied]);
  if (ok.has("order")) ok.add("cancel");
  const closed = cs.find((c) => c.kind === "only_listed");
  for (const a of view.activities) {
    if (ok.has(a) || forbidden.has(a)) continue;
    if (closed && ok.size > 0 && a !== "unknown") {
      out.push({ type: "violation", message: `The rules permit only ${list([...ok])} ("${closed.rule}"), and this action is ${ACT_NOUN[a]}: ${view.summary}` });
      continue;
    }
    if (a === "unknown") {
      out.push({ type: "unknown", message: `The action could not be classified (${view.summary}), so it cannot be checked against the rules.` });
      continue;
    }
    if (permitted.length === 0) {
      out.push({ type: "unknown", message: `The rules do not say whether ${ACT_LABEL[a]} is allowed (${view.summary}).` });
      continue;
    }
    if ((RELATED[a] ?? []).some((r) => ok.has(r))) {
      out.push({ type: "unknown", message: `The rules permit ${list(permitted)} but do not say whether ${ACT_LABEL[a]} is allowed (${view.summary}).` });
      continue;
    }
    out.push({ type: "violation", message: `The rules only permit ${list(permitted)}, and this action is ${ACT_NOUN[a]}: ${view.summary}` });
  }
  return out;
}

export function checkForbid(view: ActionView, c: Extract<Constraint, { kind: "forbid" }>): Finding[] {
  const hit = view.activities.filter((a) => c.activities.includes(a));
  if (hit.length === 0) return [];
  // "shall not approve any agent wallet" binds agent approvals only: a permission change of a known other kind is outside it.
  if (c.permissionKind && hit.every((a) => a === "permission") && view.approvals.length > 0 && view.approvals.every((a) => a.kind && a.kind !== c.permissionKind)) return [];
  // "Never remove margin": a known margin addition (and nothing else forbidden) is outside it.
  if (c.direction && hit.every((a) => a === "margin") && view.marginDirection && view.marginDirection !== c.direction) return [];
  if (c.asset) {
    const moved = view.assets;
    if (moved.length && !moved.includes(c.asset)) return [];
  }
  return [{ type: "violation", message: `"${c.rule}" forbids ${c.asset ? `${c.label} of ${c.asset}` : c.label}, and this action is ${ACT_NOUN[hit[0]]}: ${view.summary}` }];
}
