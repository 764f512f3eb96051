/**
 * Hyperliquid non-order actions. Units follow the venue: usdSend / withdraw3 / usdClassTransfer / spotSend
 * amounts are whole-unit strings; updateIsolatedMargin.ntli, vaultTransfer.usd and subAccountTransfer.usd
 * are USDC x 1e6; HYPE staking `wei` is x 1e8.
 */
import type { ActionFamily, ApprovalFact, TransferFact } from "../../types";
import { dec, fromBase, toNum, toStr, usdOf } from "../../lib/decimal";
import { facts, fmt, fmtUsd, type FactsInit } from "../../lib/facts";
import { priceOf } from "../../lib/prices";
import { bigInt, bool, evmAddr, num, str } from "../../lib/util";
import { resolveAsset, tokenName } from "./assets";

type Ctx = Record<string, unknown> | null | undefined;
type A = Record<string, unknown>;

const HL = "hyperliquid";

function usdc(amountRaw: unknown): { amount: string | null; usd: number | null } {
  // usdClassTransfer may carry " subaccount:0x..." after the number
  const text = typeof amountRaw === "string" ? amountRaw.trim().split(/\s+/)[0] : amountRaw;
  const d = dec(text);
  return d ? { amount: toStr(d), usd: Math.abs(toNum(d)) } : { amount: null, usd: null };
}

function micro(v: unknown): { amount: string | null; usd: number | null; base: string | null } {
  const b = bigInt(v);
  if (b === null) return { amount: null, usd: null, base: null };
  const d = fromBase(b < 0n ? -b : b, 6);
  return { amount: toStr(d), usd: toNum(d), base: b.toString() };
}

function transfer(kind: string, asset: string, amount: string | null, usd: number | null, to: string | null, extra: Partial<TransferFact> = {}): TransferFact {
  return { asset, amount, usd, to, kind, ...extra };
}

function base(family: ActionFamily, type: string): FactsInit {
  return facts(HL, family, type, HL);
}

function send(type: string, a: A, ctx: Ctx, warnings: string[]): FactsInit {
  const to = evmAddr(a.destination) ?? str(a.destination);
  if (!to) warnings.push(`${type} without a valid destination`);
  const f = base(type === "withdraw3" ? "withdrawal" : "transfer", type);
  let asset = "USDC";
  let amount: string | null;
  let usd: number | null;
  if (type === "spotSend" || type === "sendAsset") {
    asset = tokenName(a.token) ?? "UNKNOWN";
    const d = dec(a.amount);
    amount = d ? toStr(d) : null;
    usd = usdOf(d, priceOf(asset, ctx));
    if (usd === null) warnings.push(`no context price for ${asset}: USD value unknown`);
  } else ({ amount, usd } = usdc(a.amount));
  if (amount === null) warnings.push(`${type} amount missing or not a number`);
  f.transfers = [transfer(type, asset, amount, usd, to)];
  f.assets = [asset];
  f.details = { token: str(a.token), sourceDex: str(a.sourceDex), destinationDex: str(a.destinationDex), fromSubAccount: str(a.fromSubAccount) };
  if (type === "withdraw3") f.details.destinationChain = "arbitrum";
  const verb = type === "withdraw3" ? "Withdraw" : "Send";
  f.summary = `${verb} ${fmt(amount)} ${asset} (${fmtUsd(usd)}) to ${to ?? "?"}${type === "withdraw3" ? " on Arbitrum" : ""}`;
  return f;
}

function staking(type: string, a: A, ctx: Ctx, warnings: string[]): FactsInit {
  const w = bigInt(a.wei);
  if (w === null) warnings.push(`${type} wei missing or not an integer`);
  const d = w === null ? null : fromBase(w, 8);
  const amount = d ? toStr(d) : null;
  const usd = usdOf(d, priceOf("HYPE", ctx));
  const validator = type === "tokenDelegate" ? (evmAddr(a.validator) ?? str(a.validator)) : null;
  const undelegate = bool(a.isUndelegate) === true;
  const direction = type === "cDeposit" ? "deposit" : type === "cWithdraw" ? "withdraw" : undelegate ? "undelegate" : "delegate";
  const f = base("staking", type);
  f.staking = { asset: "HYPE", amount, amountBase: w?.toString() ?? null, usd, direction, validator };
  f.assets = ["HYPE"];
  f.recipients = validator && !undelegate ? [validator] : [];
  f.notionalUsd = usd;
  const what =
    type === "cDeposit" ? "Move HYPE from spot into staking" : type === "cWithdraw" ? "Move HYPE from staking back to spot" : undelegate ? `Undelegate HYPE from ${validator}` : `Delegate HYPE to ${validator}`;
  f.summary = `${what}: ${fmt(amount)} HYPE (${fmtUsd(usd)})`;
  return f;
}

export function describeOther(type: string, a: A, ctx: Ctx, warnings: string[]): FactsInit | null {
  switch (type) {
    case "usdSend":
    case "spotSend":
    case "withdraw3":
    case "sendAsset":
      return send(type, a, ctx, warnings);
    case "usdClassTransfer": {
      const { amount, usd } = usdc(a.amount);
      const toPerp = bool(a.toPerp);
      const f = base("transfer", type);
      const dest = toPerp === false ? "spot" : "perp";
      f.transfers = [transfer(type, "USDC", amount, usd, null, { internal: true })];
      f.assets = ["USDC"];
      f.details = { toPerp, destination: `own ${dest} account` };
      f.summary = `Move ${fmt(amount)} USDC between own spot and perp balances (to ${dest})`;
      return f;
    }
    case "updateLeverage": {
      const asset = resolveAsset(a.asset, ctx);
      const lev = num(a.leverage);
      const isCross = bool(a.isCross);
      if (!asset.known) warnings.push(`unknown Hyperliquid asset index ${asset.index ?? String(a.asset)}: add it to context.assets`);
      if (lev === null) warnings.push("leverage missing or not a number");
      const f = base("margin", type);
      f.leverage = lev === null ? null : { asset: asset.symbol, value: lev, isCross };
      f.assets = [asset.symbol];
      f.summary = `Set ${asset.symbol} leverage to ${fmt(lev)}x (${isCross === false ? "isolated" : isCross ? "cross" : "?"})`;
      return f;
    }
    case "updateIsolatedMargin":
    case "topUpIsolatedOnlyMargin": {
      const asset = resolveAsset(a.asset, ctx);
      if (!asset.known) warnings.push(`unknown Hyperliquid asset index ${asset.index ?? String(a.asset)}: add it to context.assets`);
      const f = base("margin", type);
      f.assets = [asset.symbol];
      if (type === "topUpIsolatedOnlyMargin") {
        f.summary = `Top up isolated margin on ${asset.symbol} to leverage ${String(a.leverage)}`;
        return f;
      }
      const m = micro(a.ntli);
      const ntli = bigInt(a.ntli);
      const adding = ntli === null || ntli >= 0n;
      f.notionalUsd = m.usd;
      f.details = { marginUsdc: m.amount, direction: adding ? "add" : "remove", isBuy: bool(a.isBuy) };
      f.summary = `${adding ? "Add" : "Remove"} ${fmt(m.amount)} USDC isolated margin ${adding ? "to" : "from"} the ${asset.symbol} ${bool(a.isBuy) === false ? "short" : "long"} position`;
      if (m.amount === null) warnings.push("ntli missing or not an integer (USDC x 1e6)");
      return f;
    }
    case "vaultTransfer": {
      const vault = evmAddr(a.vaultAddress) ?? str(a.vaultAddress);
      const deposit = bool(a.isDeposit) !== false;
      const m = micro(a.usd);
      const f = base("vault", type);
      f.assets = ["USDC"];
      f.transfers = [transfer(type, "USDC", m.amount, m.usd, deposit ? vault : null, { amountBase: m.base, decimals: 6, from: deposit ? null : vault, internal: !deposit })];
      f.recipients = deposit && vault ? [vault] : [];
      f.notionalUsd = m.usd;
      f.summary = `${deposit ? "Deposit" : "Withdraw"} ${fmt(m.amount)} USDC ${deposit ? "into" : "from"} vault ${vault ?? "?"}`;
      return f;
    }
    case "subAccountTransfer":
    case "subAccountSpotTransfer": {
      const sub = evmAddr(a.subAccountUser) ?? str(a.subAccountUser);
      const deposit = bool(a.isDeposit) !== false;
      let asset = "USDC";
      let amount: string | null;
      let usd: number | null;
      if (type === "subAccountTransfer") ({ amount, usd } = micro(a.usd));
      else {
        asset = tokenName(a.token) ?? "UNKNOWN";
        const d = dec(a.amount);
        amount = d ? toStr(d) : null;
        usd = usdOf(d, priceOf(asset, ctx));
      }
      const f = base("subaccount", type);
      f.assets = [asset];
      f.transfers = [transfer(type, asset, amount, usd, deposit ? sub : null, { from: deposit ? null : sub, internal: !deposit })];
      f.summary = `${deposit ? "Move" : "Pull"} ${fmt(amount)} ${asset} ${deposit ? "to" : "from"} sub-account ${sub ?? "?"}`;
      return f;
    }
    case "createSubAccount": {
      const f = base("subaccount", type);
      f.details = { name: str(a.name) };
      f.summary = `Create sub-account "${str(a.name) ?? "?"}"`;
      return f;
    }
    case "approveAgent": {
      const agent = evmAddr(a.agentAddress) ?? str(a.agentAddress);
      const f = base("permission", type);
      const approval: ApprovalFact = { token: "ACCOUNT", spender: agent ?? "?", amount: null, amountBase: null, unlimited: true, usd: null, kind: "agent" };
      f.approvals = [approval];
      f.details = { agentName: str(a.agentName) };
      f.notionalUsd = null;
      f.summary = `Approve API/agent wallet ${agent ?? "?"}${str(a.agentName) ? ` ("${str(a.agentName)}")` : ""} to trade for this account`;
      warnings.push("approveAgent grants an agent wallet trading rights over the whole account");
      return f;
    }
    case "approveBuilderFee": {
      const builder = evmAddr(a.builder) ?? str(a.builder);
      const rate = str(a.maxFeeRate);
      const f = base("permission", type);
      f.approvals = [{ token: "FEE", spender: builder ?? "?", amount: rate, amountBase: null, unlimited: false, usd: null, kind: "builderFee" }];
      f.notionalUsd = null;
      f.summary = `Approve builder ${builder ?? "?"} to charge fees up to ${rate ?? "?"}`;
      return f;
    }
    case "convertToMultiSigUser":
    case "userDexAbstraction":
    case "agentEnableDexAbstraction":
    case "linkStakingUser":
    case "userSetAbstraction": {
      const f = base("permission", type);
      f.details = { raw: Object.keys(a).slice(0, 20) };
      f.summary = `Change account settings: ${type}`;
      return f;
    }
    case "cDeposit":
    case "cWithdraw":
    case "tokenDelegate":
      return staking(type, a, ctx, warnings);
    case "claimRewards":
    case "setReferrer":
    case "spotUser":
    case "evmUserModify":
    case "noop":
    case "reserveRequestWeight":
    case "setDisplayName": {
      const f = base("unknown", type);
      f.summary = `Hyperliquid ${type}`;
      return f;
    }
    default:
      return null;
  }
}
