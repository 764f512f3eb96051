/**
 * Hyperliquid exchange actions, bare ({type: "order", ...}) or as the signed /exchange request body
 * ({action, nonce, signature, vaultAddress?}).
 */
import type { Facts, VenueAdapter } from "../../types";
import { finish, type FactsInit } from "../../lib/facts";
import { evmAddr, isRecord, str } from "../../lib/util";
import { describeOther } from "./actions";
import { describeCancel, describeModify, describeOrderAction, describeTwap } from "./orders";

const ORDER_TYPES = new Set(["order", "modify", "batchModify", "twapOrder", "cancel", "cancelByCloid", "scheduleCancel", "twapCancel"]);
const OTHER_TYPES = new Set([
  "usdSend",
  "spotSend",
  "sendAsset",
  "withdraw3",
  "usdClassTransfer",
  "updateLeverage",
  "updateIsolatedMargin",
  "topUpIsolatedOnlyMargin",
  "vaultTransfer",
  "subAccountTransfer",
  "subAccountSpotTransfer",
  "createSubAccount",
  "approveAgent",
  "approveBuilderFee",
  "convertToMultiSigUser",
  "userDexAbstraction",
  "agentEnableDexAbstraction",
  "linkStakingUser",
  "userSetAbstraction",
  "cDeposit",
  "cWithdraw",
  "tokenDelegate",
  "claimRewards",
  "setReferrer",
  "spotUser",
  "evmUserModify",
  "noop",
  "reserveRequestWeight",
  "setDisplayName",
]);

function unwrap(action: unknown): { a: Record<string, unknown>; envelope: Record<string, unknown> | null } | null {
  if (!isRecord(action)) return null;
  if (typeof action.type === "string") return { a: action, envelope: null };
  if (isRecord(action.action) && typeof action.action.type === "string") return { a: action.action, envelope: action };
  return null;
}

function known(type: string): boolean {
  return ORDER_TYPES.has(type) || OTHER_TYPES.has(type);
}

function matches(action: unknown): boolean {
  const u = unwrap(action);
  if (!u) return false;
  const type = u.a.type as string;
  if (!known(type)) return false;
  // "order" alone is a common word; require the Hyperliquid order shape
  if (type === "order") return Array.isArray(u.a.orders);
  return true;
}

function describe(action: unknown, ctx?: Record<string, unknown> | null): Facts | null {
  const u = unwrap(action);
  if (!u) return null;
  const type = u.a.type as string;
  if (!known(type)) return null;
  if (type === "order" && !Array.isArray(u.a.orders)) return null;
  const warnings: string[] = [];
  let f: FactsInit | null;
  if (type === "order") f = describeOrderAction(u.a, ctx, warnings);
  else if (type === "modify") f = describeModify(u.a, ctx, warnings, false);
  else if (type === "batchModify") f = describeModify(u.a, ctx, warnings, true);
  else if (type === "twapOrder") f = describeTwap(u.a, ctx, warnings);
  else if (ORDER_TYPES.has(type)) f = describeCancel(type, u.a, ctx, warnings);
  else f = describeOther(type, u.a, ctx, warnings);
  if (!f) return null;
  const network = str(u.a.hyperliquidChain);
  if (network && network.toLowerCase() === "testnet") {
    f.chain = "hyperliquid-testnet";
    warnings.push("Hyperliquid testnet action");
  }
  f.details = { ...(f.details ?? {}), hyperliquidChain: network, signatureChainId: str(u.a.signatureChainId) };
  if (u.envelope) {
    const vault = evmAddr(u.envelope.vaultAddress);
    if (vault) {
      f.details.actingFor = vault;
      warnings.push(`action is signed on behalf of vault/sub-account ${vault}`);
    }
  }
  f.warnings = [...(f.warnings ?? []), ...warnings];
  return finish(f);
}

export const hyperliquid: VenueAdapter = { id: "hyperliquid", aliases: ["hl", "hyperliquiddex", "hlperps"], matches, describe };
