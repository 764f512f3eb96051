/**
 * Starknet multicalls: [{contractAddress, entrypoint, calldata}], one such Call object, or {calls | starknetCalls: [...]}, with an
 * optional STRK20 `proof`. ERC-20 transfer / transfer_from / approve / increase_allowance are decoded
 * (u256 = low, high felts), and the staking protocol's delegation-pool calls (starknet-staking.ts). Addresses are felts: compared numerically and reported in the padded
 * 0x + 64 hex form, since leading zeros vary between writers.
 */
import type { ApprovalFact, Facts, TransferFact, VenueAdapter } from "../types";
import { fromBase, usdOf, wholeUnits } from "../lib/decimal";
import { mergeCalls } from "../lib/evm-adapter";
import { facts, finish, fmt, fmtUsd, type FactsInit } from "../lib/facts";
import { canonSymbol, priceOf } from "../lib/prices";
import { isRecord, MAX_ITEMS, num, str } from "../lib/util";
import { describePoolCall, isPoolEntrypoint, type PoolToken } from "./starknet-staking";
import { felt, feltHex, U128_MAX } from "../lib/starknet-felt";

type Ctx = Record<string, unknown> | null | undefined;

const TOKENS: [bigint, string, number][] = [
  [0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938dn, "STRK", 18],
  [0x049d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7n, "ETH", 18],
  [0x033068f6539f8e6e6b131e6b2b814e6c34a5224bc66947c47dab9dfee93b35fbn, "USDC", 6],
  [0x053c91253bc9682c04929ca02ed00b3e423f6710d2ee7e0d5ebb06f3ecf368a8n, "USDC.E", 6],
  [0x068f5c6a61780768455de69077e07e89787839bf8166decfbf92b645209c0fb8n, "USDT", 6],
  [0x03fe2b97c1fd336e750087d68b9b867997fd64a2661ff3ca5a7c771641e8e7acn, "WBTC", 8],
];


interface Call {
  to: bigint;
  entrypoint: string;
  calldata: unknown[] | null;
}

function callOf(c: unknown): Call | null {
  if (!isRecord(c)) return null;
  const to = felt(c.contractAddress ?? c.contract_address);
  const ep = str(c.entrypoint) ?? str(c.entry_point) ?? str(c.entryPoint);
  if (to === null || !ep) return null;
  const cd = c.calldata ?? c.callData;
  return { to, entrypoint: ep, calldata: Array.isArray(cd) ? cd : null };
}

export function parseCalls(action: unknown): { calls: Call[]; proof: unknown } | null {
  // starknet.js's execute() takes one Call as readily as an array of them: a lone Call object is a 1-call multicall.
  const single = isRecord(action) && action.calls === undefined && action.starknetCalls === undefined && callOf(action) !== null;
  const list = Array.isArray(action) ? action : single ? [action] : isRecord(action) ? (action.calls ?? action.starknetCalls) : null;
  if (!Array.isArray(list) || list.length === 0 || list.length > MAX_ITEMS) return null;
  const calls = list.map(callOf);
  if (calls.some((c) => c === null)) return null;
  return { calls: calls as Call[], proof: isRecord(action) ? (action.proof ?? action.starknetProof) : undefined };
}

function token(addr: bigint, ctx: Ctx, w: string[]): { symbol: string | null; decimals: number | null } {
  const reg = TOKENS.find((t) => t[0] === addr);
  const c = isRecord(ctx) ? ctx : {};
  let fromCtx: { symbol: string | null; decimals: number | null } | null = null;
  for (const table of ["tokens", "decimals"]) {
    const t = c[table];
    if (!isRecord(t)) continue;
    for (const k of Object.keys(t)) {
      if (felt(k) !== addr) continue;
      const e = t[k];
      fromCtx = isRecord(e) ? { symbol: str(e.symbol), decimals: num(e.decimals) } : { symbol: null, decimals: num(e) };
    }
  }
  if (reg) {
    if (fromCtx?.decimals != null && fromCtx.decimals !== reg[2]) w.push(`context gives ${fromCtx.decimals} decimals for ${reg[1]}; it has ${reg[2]}`);
    // The bridged USDC ("USDC.e", the StarkGate token most Starknet wallets hold) is the owner's "USDC" when their
    // context names it so; only that pairing is taken from context, never a different token's name.
    const base = reg[1].endsWith(".E") ? reg[1].slice(0, -2) : null;
    if (base && fromCtx?.symbol && canonSymbol(fromCtx.symbol) === base) return { symbol: base, decimals: reg[2] };
    return { symbol: reg[1], decimals: reg[2] };
  }
  if (!fromCtx || fromCtx.decimals === null) w.push(`unknown token decimals for ${feltHex(addr)}`);
  return { symbol: fromCtx?.symbol ? canonSymbol(fromCtx.symbol) : null, decimals: fromCtx?.decimals ?? null };
}

function u256(lo: unknown, hi: unknown): bigint | null {
  const l = felt(lo);
  const h = felt(hi);
  if (l === null || h === null || l > U128_MAX || h > U128_MAX) return null;
  return (h << 128n) + l;
}

/** For each spender a multicall approves, the token approved (delegation pools take the token approved to them). */
function approvedTokens(calls: Call[], ctx: Ctx): Map<bigint, PoolToken> {
  const out = new Map<bigint, PoolToken>();
  for (const c of calls) {
    if (c.entrypoint !== "approve" && !c.entrypoint.startsWith("increase")) continue;
    const spender = felt(c.calldata?.[0]);
    const t = token(c.to, ctx, []);
    if (spender !== null && t.symbol && t.decimals !== null) out.set(spender, { symbol: t.symbol, decimals: t.decimals });
  }
  return out;
}

function describeCall(c: Call, ctx: Ctx, approved: Map<bigint, PoolToken>): FactsInit {
  const w: string[] = [];
  const ep = c.entrypoint;
  const cd = c.calldata ?? [];
  const contract = feltHex(c.to);
  if (isPoolEntrypoint(ep) && c.calldata) return describePoolCall({ pool: contract, entrypoint: ep, calldata: c.calldata }, approved.get(c.to) ?? null, ctx);
  const erc20 = ["transfer", "transfer_from", "transferFrom", "approve", "increase_allowance", "increaseAllowance"].includes(ep);
  if (!erc20 || !c.calldata) {
    const f = facts("starknet", "unknown", ep, "starknet");
    f.recipients = [contract];
    f.summary = `Call ${ep} on ${contract}`;
    f.details = { contract, calldataLength: cd.length };
    f.warnings = [`Starknet entrypoint ${ep} is not decoded`];
    if (ep === "apply_actions") w.push("STRK20 private action: its effects are not visible in the calldata");
    f.warnings.push(...w);
    f.notionalUsd = null;
    return f;
  }
  const from = ep === "transfer_from" || ep === "transferFrom";
  const [a0, a1, a2, a3] = cd;
  const party = felt(a0);
  const to = from ? felt(a1) : party;
  const amount = from ? u256(a2, a3) : u256(a1, a2);
  if (party === null || amount === null || (from && to === null)) w.push(`calldata of ${ep} does not decode as (address, u256 low, high)`);
  const t = token(c.to, ctx, w);
  const asset = t.symbol ?? contract;
  const whole = amount !== null && t.decimals !== null ? wholeUnits(amount, t.decimals) : null;
  const usd = amount !== null && t.decimals !== null ? usdOf(fromBase(amount, t.decimals), priceOf(asset, ctx)) : null;
  if (ep === "approve" || ep.startsWith("increase")) {
    const unlimited = amount !== null && (amount >= 2n ** 255n || (felt(a1) === U128_MAX && felt(a2) === U128_MAX));
    if (unlimited) w.push(`unlimited approval of ${asset} to ${party === null ? "?" : feltHex(party)}`);
    const ap: ApprovalFact = { token: asset, tokenAddress: contract, spender: party === null ? "?" : feltHex(party), amount: unlimited ? null : whole, amountBase: amount?.toString() ?? null, unlimited, usd: unlimited ? null : usd, kind: "erc20" };
    const f = facts("starknet", "permission", ep, "starknet");
    f.approvals = [ap];
    f.assets = [asset];
    f.summary = `Approve ${unlimited ? "UNLIMITED" : fmt(whole)} ${asset} for spender ${ap.spender}`;
    f.warnings = w;
    return f;
  }
  if (whole !== null && usd === null) w.push(`no context price for ${asset}: USD value unknown`);
  const tr: TransferFact = { asset, tokenAddress: contract, amount: whole, amountBase: amount?.toString() ?? null, decimals: t.decimals, usd, to: to === null ? null : feltHex(to), from: from && party !== null ? feltHex(party) : null, kind: `erc20.${ep}` };
  const f = facts("starknet", "transfer", ep, "starknet");
  f.transfers = [tr];
  f.assets = [asset];
  f.summary = `Transfer ${fmt(whole ?? `${amount} base units`)} ${asset} (${fmtUsd(usd)}) to ${tr.to ?? "?"}`;
  f.warnings = w;
  return f;
}

function describe(action: unknown, ctx?: Ctx): Facts | null {
  const p = parseCalls(action);
  if (!p) return null;
  const approved = approvedTokens(p.calls, ctx);
  const parts = p.calls.map((c) => describeCall(c, ctx, approved));
  const f = mergeCalls("starknet", parts);
  f.chain = "starknet";
  if (p.proof !== undefined) {
    f.details = { ...(f.details ?? {}), hasProof: true };
    f.warnings = [...(f.warnings ?? []), "carries a STRK20 proof (private action)"];
  }
  return finish(f);
}

export const starknet: VenueAdapter = {
  id: "starknet",
  aliases: ["strk", "stark", "starknetmainnet", "snmain", "starknetcalls"],
  matches: (action) => parseCalls(action) !== null,
  describe,
};
