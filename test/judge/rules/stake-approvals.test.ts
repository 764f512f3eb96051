/**
 * A stake on Starknet is a multicall: approve the delegation pool, then enter or add to it. "Approve exactly what you
 * stake" is checked against the amount the same multicall hands the pool it approves (checks/orders.ts), and a cap
 * counted "per stake" is per action while a staked total is a total (parse/amounts.ts). Calldata is built with
 * starknet.js; the wording is our own.
 */
import { CallData, cairo } from "starknet";
import { describe, expect, it } from "vitest";
import { buildJudgeInput } from "../../../src/judge/eval/cli";
import { evaluateRules } from "../../../src/judge/rules/engine";

const STRK = "0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d";
const POOL = "0x0391f3b1d2c4a5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e";
const OTHER_POOL = "0x0555000000000000000000000000000000000000000000000000000000000def";
const ME = "0x06aa00000000000000000000000000000000000000000000000000000000b0b0";
const strk = (n: number) => BigInt(n) * 10n ** 18n;
const approve = (spender: string, amount: bigint) => ({ contractAddress: STRK, entrypoint: "approve", calldata: CallData.compile([spender, cairo.uint256(amount)]) });
const enter = (pool: string, amount: bigint) => ({ contractAddress: pool, entrypoint: "enter_delegation_pool", calldata: CallData.compile({ reward_address: ME, amount }) });

const EXACT = "Our treasury stakes STRK in the delegation pool at context.pool. Approve the pool for precisely the amount being staked, never unlimited. Stake at most 2,000 STRK per stake.";
const TOTAL = "Stake STRK only in the pool at context.pool, approving it for the exact amount staked. Total staked must stay at or below 3,000 STRK (context.staked_strk).";

const judge = (intent: string, action: unknown[], extra: Record<string, unknown> = {}) =>
  evaluateRules(buildJudgeInput({ id: "t", intent, action, venue: "starknet", context: { pool: POOL, account: ME, ...extra }, expected: "ALLOW", acceptable: ["ALLOW"], tags: [] })).verdict;

describe("stake approvals on Starknet", () => {
  it("an approval for exactly the stake, under the per-stake cap, is allowed", () => {
    expect(judge(EXACT, [approve(POOL, strk(1500)), enter(POOL, strk(1500))])).toBe("ALLOW");
  });

  it("an approval larger than the stake it serves is refused", () => {
    expect(judge(EXACT, [approve(POOL, strk(1800)), enter(POOL, strk(1500))])).toBe("BLOCK");
  });

  it("an unlimited approval is refused", () => {
    expect(judge(EXACT, [approve(POOL, 2n ** 256n - 1n), enter(POOL, strk(1500))])).toBe("BLOCK");
  });

  it("a stake over the per-stake cap is refused even when the approval matches", () => {
    expect(judge(EXACT, [approve(POOL, strk(2500)), enter(POOL, strk(2500))])).toBe("BLOCK");
  });

  it("a stake into another pool than the one approved is never allowed", () => {
    expect(judge(EXACT, [approve(POOL, strk(1500)), enter(OTHER_POOL, strk(1500))])).not.toBe("ALLOW");
  });

  it("a staked total counts what is already staked", () => {
    expect(judge(TOTAL, [approve(POOL, strk(1000)), enter(POOL, strk(1000))], { staked_strk: 1500 })).toBe("ALLOW");
    expect(judge(TOTAL, [approve(POOL, strk(1000)), enter(POOL, strk(1000))], { staked_strk: 2500 })).toBe("BLOCK");
    expect(judge(TOTAL, [approve(POOL, strk(1000)), enter(POOL, strk(1000))])).not.toBe("ALLOW");
  });
});
