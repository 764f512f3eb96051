/**
 * Starknet delegation pools (the staking protocol's pool contracts): enter_delegation_pool(reward_address, amount),
 * add_to_delegation_pool(pool_member, amount), exit_delegation_pool_intent(amount) and
 * exit_delegation_pool_action(pool_member). Amounts are u128: one felt, unlike an ERC-20's u256 (low, high).
 *
 * The pool pulls its token with transfer_from, so a stake is normally a multicall that first approves the pool.
 * The token staked is the one the same multicall approves to this pool; with no such approval the calldata does not
 * say which token the pool takes (STRK pools and BTC-wrapper pools share the entrypoints), so the amount is left
 * unknown and the adapter says so.
 */
import type { StakingFact } from "../types";
import { fromBase, usdOf, wholeUnits } from "../lib/decimal";
import { facts, fmt, fmtUsd, type FactsInit } from "../lib/facts";
import { priceOf } from "../lib/prices";
import { felt, feltHex, U128_MAX } from "../lib/starknet-felt";

type Direction = StakingFact["direction"];
const ENTRYPOINTS: Record<string, { direction: Direction; amountAt: number | null; partyAt: number | null; verb: string }> = {
  enter_delegation_pool: { direction: "delegate", amountAt: 1, partyAt: 0, verb: "Enter delegation pool" },
  add_to_delegation_pool: { direction: "delegate", amountAt: 1, partyAt: 0, verb: "Add to delegation pool" },
  exit_delegation_pool_intent: { direction: "undelegate", amountAt: 0, partyAt: null, verb: "Start exiting delegation pool" },
  exit_delegation_pool_action: { direction: "withdraw", amountAt: null, partyAt: 0, verb: "Finish exiting delegation pool" },
};

export const isPoolEntrypoint = (ep: string): boolean => ep in ENTRYPOINTS;

export interface PoolToken {
  symbol: string;
  decimals: number;
}

export interface PoolCall {
  pool: string;
  entrypoint: string;
  calldata: unknown[];
}

/**
 * Facts of one delegation-pool call. `token` is the token the same multicall approves to this pool (null: none).
 */
export function describePoolCall(c: PoolCall, token: PoolToken | null, ctx: Record<string, unknown> | null | undefined): FactsInit {
  const spec = ENTRYPOINTS[c.entrypoint];
  const w: string[] = [];
  const raw = spec.amountAt === null ? null : felt(c.calldata[spec.amountAt]);
  if (spec.amountAt !== null && (raw === null || raw > U128_MAX)) w.push(`calldata of ${c.entrypoint} does not decode as a u128 amount`);
  const base = raw !== null && raw <= U128_MAX ? raw : null;
  const partyFelt = spec.partyAt === null ? null : felt(c.calldata[spec.partyAt]);
  if (spec.partyAt !== null && partyFelt === null) w.push(`calldata of ${c.entrypoint} does not decode as an address`);
  if (spec.amountAt !== null && !token) w.push(`the token ${c.entrypoint} stakes is not known: no approval to the pool ${c.pool} in the same multicall`);
  const amount = base !== null && token ? wholeUnits(base, token.decimals) : null;
  const usd = base !== null && token ? usdOf(fromBase(base, token.decimals), priceOf(token.symbol, ctx)) : null;
  const f = facts("starknet", "staking", c.entrypoint, "starknet");
  f.staking = { asset: token?.symbol ?? "?", amount, amountBase: base?.toString() ?? null, usd, direction: spec.direction, validator: c.pool };
  f.assets = token ? [token.symbol] : [];
  f.recipients = spec.direction === "delegate" ? [c.pool] : [];
  f.notionalUsd = usd;
  const party = partyFelt === null ? null : feltHex(partyFelt);
  // Where the pool pays rewards (enter) or whose stake grows or leaves (add, exit): kept for the transcript.
  f.details = { pool: c.pool, ...(party ? { [c.entrypoint === "enter_delegation_pool" ? "rewardAddress" : "poolMember"]: party } : {}) };
  const what = spec.amountAt === null ? "" : ` ${amount !== null ? fmt(amount) : `${base ?? "?"} base units of`} ${token?.symbol ?? "an unknown token"} (${fmtUsd(usd)})`;
  f.summary = `${spec.verb} ${c.pool}${what}`;
  f.warnings = w;
  return f;
}
