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
  redeem: "redeeming (from a lending pool, a vault or outcome shares)",
  borrow: "borrowing",
  repay: "repaying debt",
  wrap: "wrapping",
  unwrap: "unwrapping",
  liquidity: "providing liquidity",
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
  redeem: "a redemption (from a lending pool, a vault or outcome shares)",
  borrow: "a borrow",
  repay: "a debt repayment",
  wrap: "a wrap",
  unwrap: "an unwrap",
  liquidity: "a liquidity change",
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
  // "you can approve only our execution bot": approving an agent is a permission change an approval verb may mean.
  permission: ["approval"],
};

/** Activities a constraint presupposes: a leverage cap means leverage may be changed within it. */
export function impliedActivities(cs: Constraint[]): Activity[] {
  const out = new Set<Activity>();
  // A human line read from "no need to ask below X" names a kind of action without permitting it.
  for (const c of cs.filter((k) => !(k.kind === "escalate_above" && k.noGrant))) {
    if (c.kind === "leverage_cap" || c.kind === "leverage_escalate" || c.kind === "no_leverage_increase" || (c.kind === "margin_mode" && !c.escalate)) out.add("leverage");
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
    // "recipients: context.address_book only": a list of who may be paid, bound to no activity, presupposes paying them.
    if (c.kind === "allow" && c.dim === "recipient" && c.activities.length === 0) ["transfer", "payment"].forEach((a) => out.add(a as Activity));
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
  // Only a prohibition that binds every action of its kinds settles them here. One bound to an asset, a direction, a
  // kind of permission, an asset class or a pattern ("never send HYPE", "no NFTs", "no looping") leaves the others of
  // that kind to the scope: a USDC transfer nobody permitted is not allowed because only HYPE sends are forbidden.
  const whole = (c: Extract<Constraint, { kind: "forbid" }>): boolean => !c.asset && !c.direction && !c.permissionKind && !c.assetClass && !c.together && !c.typeRe;
  const forbidden = new Set(cs.flatMap((c) => (c.kind === "forbid" && whole(c) ? c.activities : [])));
  const ok = new Set<Activity>([...permitted, ...implied]);
  if (ok.has("order")) ok.add("cancel");
  // A closer scoped to a family of activity ("no other payments") speaks only about that family: an action of another
  // kind is left to the rules below as if no closer were written (they never ALLOW what no sentence permits).
  const closers = cs.filter((c): c is Extract<Constraint, { kind: "only_listed" }> => c.kind === "only_listed");
  const covers = (c: Extract<Constraint, { kind: "only_listed" }>, a: Activity): boolean => !c.activities || c.activities.includes(a);
  // A closer closes the grants that were read. An activity that only a cap mentions ("max 2 ETH per order") was
  // granted by a clause the reader did not turn into a list of what it may touch, so the closer cannot tell what is
  // "listed": such an action is held for a human rather than let through by the closer being read.
  const byCaps = new Set(impliedActivities(cs.filter((k) => k.kind === "cap" || k.kind === "escalate_above")));
  const lists = cs.flatMap((k) => (k.kind === "allow" && k.dim !== "venue" && k.dim !== "chain" ? k.activities : []));
  const byOthers = new Set([...permitted, ...lists, ...impliedActivities(cs.filter((k) => k.kind !== "cap" && k.kind !== "escalate_above"))]);
  for (const a of view.activities) {
    if (!forbidden.has(a) && byCaps.has(a) && !byOthers.has(a) && !(a === "cancel" && byOthers.has("order"))) {
      const closer = closers.find((c) => covers(c, a));
      if (closer) {
        out.push({ type: "unknown", message: `The rules close their list ("${closer.rule}"), but nothing read lists what ${ACT_LABEL[a]} may touch; only a limit mentions it (${view.summary}).` });
        continue;
      }
    }
    if (ok.has(a) || forbidden.has(a)) continue;
    const closed = closers.find((c) => !c.ask && covers(c, a));
    const askOthers = closers.find((c) => c.ask && covers(c, a));
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
    if (askOthers) {
      out.push({ type: "unknown", message: `The rules permit ${list(permitted)}, and this action is ${ACT_NOUN[a]}, which they leave to a human ("${askOthers.rule}").` });
      continue;
    }
    out.push({ type: "violation", message: `The rules only permit ${list(permitted)}, and this action is ${ACT_NOUN[a]}: ${view.summary}` });
  }
  return out;
}

export function checkForbid(view: ActionView, c: Extract<Constraint, { kind: "forbid" }>): Finding[] {
  const hit = view.activities.filter((a) => c.activities.includes(a));
  if (hit.length === 0) return [];
  if (c.together && !c.activities.every((a) => view.activities.includes(a))) return [];
  if (c.typeRe && !new RegExp(c.typeRe, "i").test(`${view.actionType ?? ""} ${view.summary}`)) return [];
  // "must not send any asset to another address": a move between the account's own balances reaches no other address.
  if (c.external && hit.every((a) => a === "internal_transfer") && view.moves.length > 0 && view.moves.every((m) => !m.to && !m.own)) return [];
  // "shall not approve any agent wallet" binds agent approvals only: a permission change of a known other kind is outside it.
  if (c.permissionKind && hit.every((a) => a === "permission") && view.approvals.length > 0 && view.approvals.every((a) => a.kind && a.kind !== c.permissionKind)) return [];
  // "Never remove margin": a known margin addition (and nothing else forbidden) is outside it.
  if (c.direction && hit.every((a) => a === "margin") && view.marginDirection && view.marginDirection !== c.direction) return [];
  if (c.asset) {
    const moved = view.assets;
    if (moved.length && !moved.includes(c.asset)) return [];
  }
  if (c.assetClass === "nft") {
    const nft = view.moves.some((m) => m.asset?.includes("#")) || view.approvals.some((a) => a.kind === "setApprovalForAll");
    // An ERC-721 approve or transferFrom reads like an ERC-20 one: only tokens known by symbol are known not to be NFTs.
    const fungible = (s: string | null | undefined): boolean => !!s && /^[A-Z][A-Z0-9.]{0,11}$/i.test(s) && !/^0x/i.test(s);
    const known = [...view.moves.map((m) => m.asset), ...view.approvals.map((a) => a.token), ...view.assets];
    if (!nft) {
      if (known.length && known.every(fungible)) return [];
      return [{ type: "unknown", message: `"${c.rule}" forbids NFTs, and whether this action touches one cannot be told: ${view.summary}` }];
    }
  }
  return [{ type: "violation", message: `"${c.rule}" forbids ${c.asset ? `${c.label} of ${c.asset}` : c.label}, and this action is ${ACT_NOUN[hit[0]]}: ${view.summary}` }];
}
