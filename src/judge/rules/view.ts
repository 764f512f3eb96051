/**
 * The action as the checks read it. Adapter Facts are mapped onto the engine's activity vocabulary
 * ("supply", "delegate", "wrap"...), amounts become numbers, and anything the adapter could not establish
 * becomes a gap, so the engine can say which fact is missing instead of guessing.
 */
import type { Facts } from "../../venues/types";
import type { Activity, ActionView, ApprovalView, MoveView, OrderView, SwapView } from "./types";
import { canonSym, num, priceOf } from "./context";
import { CHAIN_IDS } from "./vocab";

type Ctx = Record<string, unknown> | null;

export function emptyView(source: ActionView["source"], summary: string): ActionView {
  return {
    source,
    venue: null,
    chain: null,
    chainId: null,
    activities: [],
    actionType: null,
    summary,
    orders: [],
    moves: [],
    swap: null,
    approvals: [],
    leverage: null,
    assets: [],
    recipients: [],
    beneficiaries: [],
    hosts: [],
    notionalUsd: null,
    contracts: [],
    gaps: [],
    warnings: [],
  };
}

/** Map one adapter family + action type onto activities. */
export function activitiesOf(family: string, type: string | null, f?: Partial<Facts>): Activity[] {
  const t = (type ?? "").toLowerCase();
  switch (family) {
    case "order":
      if (/cancel/.test(t)) return ["cancel"];
      return ["order"];
    case "margin":
      return f?.leverage || /leverage/.test(t) ? ["leverage"] : ["margin"];
    case "withdrawal":
      return ["withdrawal"];
    case "transfer":
      if (/bridge/.test(t)) return ["bridge"];
      if (/closeaccount/.test(t)) return ["close_account"];
      return f?.transfers?.length && f.transfers.every((x) => x.internal) ? ["internal_transfer"] : ["transfer"];
    case "payment":
      return ["payment"];
    case "swap":
      if (t === "deposit" || /^wrap/.test(t)) return ["wrap"];
      if ((t === "withdraw" || /^unwrap/.test(t)) && f?.swap) return ["unwrap"];
      if (/bridge/.test(t)) return ["bridge"];
      return ["swap"];
    case "staking": {
      const d = f?.staking?.direction ?? "";
      if (d === "delegate") return ["delegate"];
      if (d === "undelegate") return ["undelegate"];
      if (d === "unstake" || d === "withdraw") return ["unstake"];
      if (d === "stake" || d === "deposit") return ["stake"];
      if (/undelegate|unstake|withdraw|unbond/.test(t)) return ["unstake"];
      if (/delegate/.test(t)) return ["delegate"];
      return ["stake"];
    }
    case "vault": {
      const entering = /supply|deposit|mint|stake|add|join|enter|lock/.test(t) || (/vaulttransfer/.test(t) && !!f?.transfers?.some((x) => !x.internal));
      const leaving = /withdraw|redeem|remove|exit|burn|unlock/.test(t) || /vaulttransfer/.test(t);
      if (!entering && !leaving) return ["unknown"];
      if (f?.venue === "aave" || f?.venue === "morpho" || /supply/.test(t)) return [entering ? "supply" : "redeem"];
      return [entering ? "vault_deposit" : "vault_withdraw"];
    }
    case "position":
      if (/borrow/.test(t)) return ["borrow"];
      if (/repay/.test(t)) return ["repay"];
      return ["unknown"];
    case "subaccount":
      // Moving funds between the master account and its own sub-accounts is an internal transfer, not creating one.
      return /transfer/.test(t) ? ["internal_transfer"] : ["subaccount"];
    case "permission": {
      const kinds = (f?.approvals ?? []).map((a) => a.kind ?? "erc20");
      if (kinds.length && kinds.every((k) => k === "erc20" || k === "permit2" || k === "permit")) return ["approval"];
      if (/approve|permit|allowance/.test(t) && !/agent|builder/.test(t)) return ["approval"];
      return ["permission"];
    }
    default:
      return ["unknown"];
  }
}

const toNum = (s: string | number | null | undefined): number | null => (s === null || s === undefined ? null : num(s));

function orderView(o: NonNullable<Facts["orders"]>[number], details: unknown): OrderView {
  const tif = o.tif ? o.tif.toLowerCase() : null;
  const trigger = o.orderType === "trigger";
  const isMarketLike = o.orderType === "market" || tif === "ioc" || tif === "fok" || tif === "fak" || !!o.trigger?.isMarket;
  return {
    asset: o.market === "prediction" ? (o.outcome ?? o.asset) : canonSym(o.asset),
    marketType: o.market,
    side: o.side ?? null,
    size: o.size,
    price: o.price,
    notionalUsd: o.notionalUsd,
    notionalAtMark: o.orderType === "market" && (o.priceBasis === "context" || o.priceBasis === "mark"),
    reduceOnly: !!o.reduceOnly,
    orderType: o.orderType,
    tif,
    isMarketLike,
    trigger,
    question: o.marketLabel ?? null,
    tokenId: o.tokenId ?? (o.market === "prediction" ? o.asset : null),
    // Hyperliquid's twapOrder gives its duration in the facts' details (one TWAP per action).
    ...(o.orderType === "twap" ? { minutes: details && typeof details === "object" ? toNum((details as Record<string, unknown>).minutes as number | null) : null } : {}),
  };
}

function urlsIn(v: unknown, depth = 0): string[] {
  if (depth > 4) return [];
  if (typeof v === "string") {
    const m = /^https?:\/\/([^/\s:?#]+)/i.exec(v.trim());
    return m ? [m[1].toLowerCase()] : [];
  }
  if (Array.isArray(v)) return v.flatMap((x) => urlsIn(x, depth + 1));
  if (typeof v === "object" && v !== null) return Object.values(v).flatMap((x) => urlsIn(x, depth + 1));
  return [];
}

/** Exact-input or exact-output: Jupiter says so in its quote (swapMode), EVM routers in the function they call. */
function swapMode(f: Facts): "in" | "out" | null {
  const named = typeof f.details?.swapMode === "string" ? f.details.swapMode : (f.actionType ?? "");
  if (/exact[_-]?out|exactOutput|TokensForExact|ETHForExact/i.test(named)) return "out";
  if (/exact[_-]?in|exactInput|ExactTokensFor|ExactETHFor/i.test(named)) return "in";
  return null;
}

export function viewFromFacts(f: Facts, ctx: Ctx, action: unknown): ActionView {
  const v = emptyView("facts", f.summary);
  v.venue = f.venue;
  v.chain = f.chain ? f.chain.toLowerCase() : f.chainId != null ? (CHAIN_IDS[String(f.chainId)] ?? null) : null;
  v.chainId = f.chainId != null ? String(f.chainId) : null;
  v.actionType = f.actionType;
  const dir = (f.details as Record<string, unknown> | undefined)?.direction;
  if (f.actionFamily === "margin" && (dir === "add" || dir === "remove")) v.marginDirection = dir;
  const calls = f.calls && f.calls.length ? f.calls : null;
  v.activities = calls ? [...new Set(calls.flatMap((c) => activitiesOf(c.actionFamily, c.actionType, { ...f, venue: c.venue })))] : activitiesOf(f.actionFamily, f.actionType, f);
  if (calls && f.approvals?.length && !v.activities.includes("approval")) v.activities.push("approval");
  v.orders = (f.orders ?? []).map((o) => orderView(o, f.details));
  v.moves = (f.transfers ?? []).map(
    (t): MoveView => ({ asset: canonSym(t.asset), amount: toNum(t.amount), usd: t.usd ?? null, to: t.internal ? null : t.to, own: t.to ?? t.from ?? null }),
  );
  if (f.staking) {
    const s = f.staking;
    const amount = toNum(s.amount);
    v.moves.push({ asset: canonSym(s.asset), amount, usd: s.usd ?? (amount !== null ? mul(amount, priceOf(s.asset, ctx)) : null), to: s.validator ?? null });
  }
  if (f.swap) {
    const s = f.swap;
    const sellAmount = toNum(s.sell.amount);
    const buyMin = toNum(s.buy.minAmount ?? null);
    const sellAsset = canonSym(s.sell.asset);
    const buyAsset = canonSym(s.buy.asset);
    const sw: SwapView = {
      sellAsset,
      sellAmount,
      sellUsd: s.sell.usd ?? mul(sellAmount, priceOf(sellAsset, ctx)),
      buyAsset,
      buyMin,
      buyUsdMin: mul(buyMin, priceOf(buyAsset, ctx)),
      slippageBps: s.slippageBps,
      recipient: s.recipient,
      mode: swapMode(f),
    };
    v.swap = sw;
  }
  v.approvals = (f.approvals ?? []).map(
    (a): ApprovalView => ({ token: canonSym(a.token), spender: a.spender, amount: toNum(a.amount), unlimited: a.unlimited, kind: a.kind ?? null, raw: a.amount ?? null }),
  );
  if (f.leverage) v.leverage = { asset: canonSym(f.leverage.asset), value: f.leverage.value, isCross: f.leverage.isCross ?? null };
  const assets = new Set<string>();
  for (const o of v.orders) if (o.asset && o.marketType !== "prediction") assets.add(o.asset);
  for (const m of v.moves) if (m.asset) assets.add(m.asset);
  if (v.swap?.sellAsset) assets.add(v.swap.sellAsset);
  if (v.swap?.buyAsset) assets.add(v.swap.buyAsset);
  if (v.leverage?.asset) assets.add(v.leverage.asset);
  if (assets.size === 0) for (const a of f.assets) if (!/^(ACCOUNT|FEE)$/.test(a)) assets.add(canonSym(a) ?? a);
  v.assets = [...assets];
  v.recipients = f.recipients.slice();
  const d = f.details ?? {};
  const party = typeof d.onBehalfOfOrTo === "string" ? d.onBehalfOfOrTo : null;
  if (party && v.activities.some((a) => a === "supply" || a === "repay" || a === "borrow" || a === "vault_deposit")) v.beneficiaries.push(party);
  if (v.activities.includes("vault_deposit") && typeof d.receiver === "string") v.beneficiaries.push(d.receiver);
  if (typeof d.destinationChain === "string") v.destinationChain = d.destinationChain.toLowerCase();
  v.hosts = [...new Set([...urlsIn(d), ...urlsIn(action)])];
  v.contracts = contractsOf(f, action);
  const from = action && typeof action === "object" ? (action as Record<string, unknown>).from : undefined;
  v.sender = typeof from === "string" && /^0x[0-9a-fA-F]{40}$/.test(from) ? from : null;
  v.notionalUsd = f.notionalUsd;
  v.warnings = f.warnings.slice();
  return v;
}

function mul(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : a * b;
}

/** The EVM contract(s) the action calls, from the adapter's details or the raw transaction. */
export function contractsOf(f: Facts | null, action: unknown): string[] {
  const out: string[] = [];
  const d = f?.details ?? {};
  if (typeof d.to === "string") out.push(d.to);
  if (Array.isArray(d.calls)) for (const c of d.calls) if (c && typeof c === "object" && typeof (c as Record<string, unknown>).to === "string") out.push((c as Record<string, string>).to);
  if (out.length === 0 && action && typeof action === "object" && typeof (action as Record<string, unknown>).to === "string") out.push((action as Record<string, string>).to);
  return out;
}
