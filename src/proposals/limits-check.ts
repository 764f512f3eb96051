/**
 * Wallet limits against a simulation's asset changes (SPEC 3: "checked against the simulated effects
 * before the judge runs"). Pure.
 *
 * What counts as money out ("exposure"): every transfer out, plus every approval the wallet grants (an
 * approval lets the spender move funds later without a proposal, so it is spending authority given
 * away now; when the simulation could read it, what the approval leaves after the transaction: an approval
 * spent in full in the same batch, as in approve + swap, counts nothing). An unlimited approval or an NFT
 * approval-for-all exceeds any USD limit. Gas is a cost of the transaction, not a transfer, and is not
 * counted.
 *
 * Outcomes: a violation blocks (free, no judge); otherwise `checkable` says whether every set limit could
 * be evaluated (an outflow with no USD price leaves a USD limit unchecked, which holds the proposal for
 * the owner even on ALLOW).
 */
import type { AddressComparator, AssetChange } from "../chains/types";
import type { Limits } from "../wallets/limits";

export interface LimitVerdict {
  ok: boolean;
  /** The limit that blocked and why, in a sentence naming the limit. */
  reason: string | null;
  checkable: boolean;
  /** Priced exposure (transfers out + approvals), USD; what the daily cap reserves. */
  exposureUsd: number;
  /** Some exposure has no USD price (or is unlimited). */
  unpriced: boolean;
}

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;
const fmt = (n: number) => `$${n.toLocaleString("en-US", { maximumFractionDigits: 2, minimumFractionDigits: 2 })}`;

/**
 * An approval the same transaction spends in full (residual.ts: allowance 0 afterwards), or a revocation:
 * it leaves no authority behind, so it is not an outflow (the transfer it funds is counted on its own).
 */
const lapses = (c: AssetChange) => c.changeType === "approval" && (c.rawAmount === "0" || c.residualRaw === "0");

/** Exposure of one change; Infinity for unlimited grants; null when unpriced. */
function exposure(c: AssetChange): number | null {
  if (c.direction !== "out") return 0;
  if (lapses(c)) return 0;
  if (c.changeType === "approval" && c.residualRaw !== undefined) {
    // Count what the approval leaves after the transaction, not what it granted.
    const left = BigInt(c.residualRaw);
    if (left >= 1n << 255n) return Number.POSITIVE_INFINITY;
    const granted = BigInt(c.rawAmount);
    if (c.usdValue === null || granted === 0n) return c.usdValue;
    return left >= granted ? c.usdValue : (c.usdValue * Number(left)) / Number(granted);
  }
  if (c.changeType !== "transfer" && c.unlimited) return Number.POSITIVE_INFINITY;
  return c.usdValue;
}

export function exposureOf(changes: AssetChange[]): { usd: number; unpriced: boolean; unlimited: boolean } {
  let usd = 0;
  let unpriced = false;
  let unlimited = false;
  for (const c of changes) {
    const e = exposure(c);
    if (e === null) unpriced = true;
    else if (e === Number.POSITIVE_INFINITY) unlimited = true;
    else usd += e;
  }
  return { usd: round6(usd), unpriced, unlimited };
}

/** Per-transaction checks (everything but the rolling cap, which needs the wallet lock). */
/**
 * `addresses`: the wallet chain's comparator (the adapter's codec): EVM case-insensitive, Solana base58
 * exactly, Starknet felts by value. The pseudo-address "native" matches only itself.
 */
export function checkLimits(limits: Limits, changes: AssetChange[], opts: { simulated: boolean; addresses: AddressComparator }): LimitVerdict {
  const listed = (list: string[], v: string) => list.some((a) => a === v || opts.addresses.equals(a, v));
  const exp = exposureOf(changes);
  const result = (reason: string | null, checkable = true): LimitVerdict => ({ ok: reason === null, reason, checkable, exposureUsd: exp.usd, unpriced: exp.unpriced || exp.unlimited });
  const outs = changes.filter((c) => c.direction === "out" && !lapses(c));

  if (limits.tokenAllowlist) {
    const allowed = limits.tokenAllowlist;
    for (const c of outs) {
      if (!listed(allowed, c.contractAddress)) {
        const what = c.changeType === "transfer" ? `${c.amount} ${c.symbol}` : `an approval of ${c.symbol}`;
        return result(`tokenAllowlist: ${what} (${c.contractAddress}) is not an allowed token`);
      }
    }
  }
  if (limits.recipientAllowlist) {
    const allowed = limits.recipientAllowlist;
    for (const c of outs) {
      if (!listed(allowed, c.counterparty)) {
        const role = c.changeType === "transfer" ? `recipient (receives ${c.amount} ${c.symbol})` : `spender (approved for ${c.symbol})`;
        return result(`recipientAllowlist: ${c.counterparty} is not an allowed ${role}`);
      }
    }
  }
  if (limits.maxPerTxUsd !== undefined) {
    if (exp.unlimited) return result(`maxPerTxUsd: an unlimited approval exceeds the limit of ${fmt(limits.maxPerTxUsd)} per transaction`);
    if (exp.usd > limits.maxPerTxUsd + 1e-9) return result(`maxPerTxUsd: this proposal moves ${fmt(exp.usd)}, above the limit of ${fmt(limits.maxPerTxUsd)} per transaction`);
  }
  if (limits.dailyCapUsd !== undefined && exp.unlimited) return result(`dailyCapUsd: an unlimited approval exceeds the daily cap of ${fmt(limits.dailyCapUsd)}`);

  const usdLimits = limits.maxPerTxUsd !== undefined || limits.dailyCapUsd !== undefined;
  const anyLimit = usdLimits || !!limits.tokenAllowlist || !!limits.recipientAllowlist;
  const checkable = (!anyLimit || opts.simulated) && !(usdLimits && exp.unpriced);
  return result(null, checkable);
}

/** The rolling 24-hour cap, given what is already reserved in the window (other proposals). */
export function checkDailyCap(limits: Limits, spentUsd: number, exposureUsd: number): string | null {
  if (limits.dailyCapUsd === undefined) return null;
  if (spentUsd + exposureUsd > limits.dailyCapUsd + 1e-9) {
    return `dailyCapUsd: ${fmt(spentUsd)} already counted in the last 24 hours plus ${fmt(exposureUsd)} here is above the daily cap of ${fmt(limits.dailyCapUsd)}`;
  }
  return null;
}
