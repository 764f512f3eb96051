/**
 * Common shell for EVM protocol adapters. Shape detection claims only calldata specific to the protocol;
 * when the caller names the protocol, its adapter also describes the plain token steps used with it
 * (approve its router, wrap ETH) under its own name, because those belong to the same workflow.
 * Batches ({calls: [...]}) become one Facts whose family is the batch's main action.
 */
import type { ActionFamily, Facts, VenueAdapter } from "../types";
import { finish, type FactsInit } from "./facts";
import { parseEvmBatch, parseEvmTx, type EvmTx } from "./evm";
import { describeGeneric, describeUnknownCall } from "./evm-generic";

type Ctx = Record<string, unknown> | null | undefined;

export interface EvmProtocol {
  id: string;
  aliases: string[];
  /** Cheap check: is this calldata (or target) this protocol's? */
  matchesTx(tx: EvmTx): boolean;
  /** Facts for protocol calldata, or null when it is not this protocol's. */
  describeTx(tx: EvmTx, ctx: Ctx): FactsInit | null;
}

// a batch's headline family: what moves value out beats bookkeeping such as approvals
const RANK: ActionFamily[] = ["withdrawal", "transfer", "payment", "order", "swap", "vault", "staking", "position", "margin", "subaccount", "permission", "unknown"];

export function mergeCalls(venue: string, parts: FactsInit[]): FactsInit {
  if (parts.length === 1) return parts[0];
  const fam = [...parts].sort((a, b) => RANK.indexOf(a.actionFamily) - RANK.indexOf(b.actionFamily))[0].actionFamily;
  const main = parts.find((p) => p.actionFamily === fam) ?? parts[0];
  const chains = [...new Set(parts.map((p) => p.chain))];
  const merged: FactsInit = {
    venue,
    actionFamily: fam,
    actionType: `batch:${parts.map((p) => p.actionType ?? "?").join("+")}`,
    chain: chains.length === 1 ? chains[0] : null,
    chainId: main.chainId,
    orders: parts.flatMap((p) => p.orders ?? []),
    transfers: parts.flatMap((p) => p.transfers ?? []),
    approvals: parts.flatMap((p) => p.approvals ?? []),
    swap: parts.find((p) => p.swap)?.swap ?? null,
    leverage: parts.find((p) => p.leverage)?.leverage ?? null,
    staking: parts.find((p) => p.staking)?.staking ?? null,
    assets: parts.flatMap((p) => p.assets ?? []),
    recipients: parts.flatMap((p) => p.recipients ?? []),
    warnings: parts.flatMap((p) => p.warnings ?? []),
    calls: parts.map((p) => ({ venue: p.venue, actionFamily: p.actionFamily, actionType: p.actionType, summary: p.summary ?? "" })),
    details: { calls: parts.map((p) => p.details ?? {}) },
    summary: `Batch of ${parts.length} calls: ${parts.map((p) => p.summary ?? p.actionType).join("; ")}`,
  };
  const usd = parts.map((p) => (p.notionalUsd !== undefined ? p.notionalUsd : finish(p).notionalUsd));
  // approvals do not add value at stake on top of the swap or transfer they enable
  const valued = parts.map((p, i) => (p.actionFamily === "permission" && parts.length > 1 ? 0 : usd[i]));
  merged.notionalUsd = valued.some((v) => v === null) ? null : valued.reduce<number>((s, v) => s + (v ?? 0), 0);
  if (chains.length > 1) merged.warnings?.push("batch calls name different chains");
  return merged;
}

export function makeEvmAdapter(p: EvmProtocol): VenueAdapter & { protocol: EvmProtocol } {
  const describeOne = (tx: EvmTx, ctx: Ctx): { f: FactsInit; own: boolean } | null => {
    const own = p.describeTx(tx, ctx);
    if (own) return { f: own, own: true };
    const g = describeGeneric(tx, ctx, p.id);
    return g ? { f: g, own: false } : null;
  };
  return {
    id: p.id,
    aliases: p.aliases,
    protocol: p,
    matches(action) {
      const tx = parseEvmTx(action);
      if (tx) return p.matchesTx(tx);
      return (parseEvmBatch(action) ?? []).some((t) => p.matchesTx(t));
    },
    describe(action, ctx): Facts | null {
      const tx = parseEvmTx(action);
      if (tx) {
        const r = describeOne(tx, ctx);
        return r ? finish(r.f) : null;
      }
      const batch = parseEvmBatch(action);
      if (!batch) return null;
      const parts = batch.map((t) => describeOne(t, ctx));
      if (parts.every((x) => !x) || (parts.some((x) => !x) && !parts.some((x) => x?.own))) return null;
      return finish(mergeCalls(p.id, parts.map((x, i) => x?.f ?? describeUnknownCall(batch[i], ctx, p.id))));
    },
  };
}
