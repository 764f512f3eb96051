/**
 * Building and finishing Facts. Adapters fill what they decoded; `finish` normalises the parts every
 * rule relies on (upper-case assets, lower-case EVM recipients, de-duplication) and derives the total
 * notional only when every component is priced, so a missing price gives null rather than an undercount.
 */
import type { ActionFamily, Facts } from "../types";
import { canonSymbol } from "./prices";

export type FactsInit = Omit<Facts, "notionalUsd" | "assets" | "recipients" | "warnings" | "summary"> & {
  notionalUsd?: number | null;
  assets?: string[];
  recipients?: string[];
  warnings?: string[];
  summary?: string;
};

export function facts(venue: string, actionFamily: ActionFamily, actionType: string | null, chain: string | null): FactsInit {
  return { venue, actionFamily, actionType, chain };
}

export function normRecipient(r: string): string {
  const t = r.trim();
  return /^0x[0-9a-fA-F]{40}$/.test(t) ? t.toLowerCase() : t;
}

function sumOrNull(xs: (number | null | undefined)[]): number | null {
  let total = 0;
  for (const x of xs) {
    if (x === null || x === undefined || Number.isNaN(x)) return null;
    total += x;
  }
  if (!Number.isFinite(total)) return Number.MAX_VALUE;
  return Math.round(total * 1e9) / 1e9;
}

export function derivedNotional(f: FactsInit): number | null {
  if (f.orders && f.orders.length > 0) return sumOrNull(f.orders.map((o) => o.notionalUsd));
  if (f.swap) return f.swap.sell.usd ?? f.swap.buy.usd ?? null;
  if (f.transfers && f.transfers.length > 0) return sumOrNull(f.transfers.map((t) => t.usd));
  if (f.approvals && f.approvals.length > 0 && f.approvals.every((a) => !a.unlimited)) {
    return sumOrNull(f.approvals.map((a) => a.usd));
  }
  return null;
}

export function finish(f: FactsInit): Facts {
  const assets = new Set<string>();
  for (const a of f.assets ?? []) if (a) assets.add(canonSymbol(a));
  const recipients = new Set<string>();
  for (const r of f.recipients ?? []) if (r) recipients.add(normRecipient(r));
  // the protocol contract holding a deposit for the owner is the venue, not a beneficiary
  for (const t of f.transfers ?? []) if (t.to && !t.internal && !t.intoProtocol) recipients.add(normRecipient(t.to));
  for (const a of f.approvals ?? []) if (a.spender) recipients.add(normRecipient(a.spender));
  if (f.swap?.recipient) recipients.add(normRecipient(f.swap.recipient));
  const out: Facts = {
    venue: f.venue,
    actionFamily: f.actionFamily,
    actionType: f.actionType,
    chain: f.chain,
    summary: f.summary ?? `${f.venue} ${f.actionType ?? f.actionFamily}`,
    assets: [...assets],
    recipients: [...recipients],
    notionalUsd: f.notionalUsd !== undefined ? f.notionalUsd : derivedNotional(f),
    warnings: [...new Set(f.warnings ?? [])],
  };
  if (f.chainId !== undefined) out.chainId = f.chainId;
  if (f.orders) out.orders = f.orders;
  if (f.transfers) out.transfers = f.transfers;
  if (f.approvals) out.approvals = f.approvals;
  if (f.swap !== undefined) out.swap = f.swap;
  if (f.leverage !== undefined) out.leverage = f.leverage;
  if (f.staking !== undefined) out.staking = f.staking;
  if (f.calls !== undefined) out.calls = f.calls;
  if (f.details) out.details = f.details;
  return sanitize(out, 0) as Facts;
}

/**
 * Receipts hash Facts as canonical JSON, which rejects NaN and Infinity: absurd magnitudes (a 1e300 price
 * times a 1e80 size) are clamped to the largest finite number, which still exceeds any cap, and NaN
 * becomes null (unknown).
 */
function sanitize(v: unknown, depth: number): unknown {
  if (typeof v === "number") return Number.isNaN(v) ? null : Number.isFinite(v) ? v : v > 0 ? Number.MAX_VALUE : -Number.MAX_VALUE;
  if (typeof v === "bigint") return v.toString();
  if (v === null || typeof v !== "object" || depth > 12) return v;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = sanitize(v[i], depth + 1);
    return v;
  }
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) o[k] = sanitize(o[k], depth + 1);
  return o;
}

// toLocaleString builds a formatter per call (tens of microseconds); these run on every request
const PLAIN = new Intl.NumberFormat("en-US", { maximumFractionDigits: 8, useGrouping: false });
const USD_SMALL = new Intl.NumberFormat("en-US", { maximumFractionDigits: 4 });
const USD = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });

/** Human number for summaries: up to 8 decimals, no exponent for ordinary magnitudes. */
export function fmt(n: number | string | null | undefined): string {
  if (n === null || n === undefined) return "?";
  if (typeof n === "string") return n;
  if (!Number.isFinite(n)) return "?";
  return PLAIN.format(n);
}

export function fmtUsd(n: number | null | undefined): string {
  if (n === null || n === undefined || Number.isNaN(n)) return "USD unknown";
  if (!Number.isFinite(n)) return "more than $1e308";
  return `~$${(Math.abs(n) < 10 ? USD_SMALL : USD).format(n)}`;
}
