/**
 * Starknet delegation-pool calls (src/venues/adapters/starknet-staking.ts), with calldata built by starknet.js the
 * way a wallet builds it: the pool's amount is a u128 (one felt), the approval before it a u256 (low, high).
 */
import { CallData, cairo } from "starknet";
import { describe, expect, it } from "vitest";
import { detectAction } from "../../src/venues/registry";

const STRK = "0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d";
const POOL = "0x02a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f";
const OTHER_POOL = "0x0777000000000000000000000000000000000000000000000000000000000abc";
const ME = "0x05f1e2d3c4b5a69788796a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d";
const strk = (n: number) => BigInt(n) * 10n ** 18n;

const approve = (spender: string, amount: bigint) => ({ contractAddress: STRK, entrypoint: "approve", calldata: CallData.compile([spender, cairo.uint256(amount)]) });
const enter = (pool: string, amount: bigint) => ({ contractAddress: pool, entrypoint: "enter_delegation_pool", calldata: CallData.compile({ reward_address: ME, amount }) });
const add = (pool: string, amount: bigint) => ({ contractAddress: pool, entrypoint: "add_to_delegation_pool", calldata: CallData.compile({ pool_member: ME, amount }) });

describe("starknet delegation pools", () => {
  it("approve + enter_delegation_pool is a delegation of the approved token to the pool, valued at the context price", () => {
    const f = detectAction([approve(POOL, strk(1500)), enter(POOL, strk(1500))], "starknet", { prices: { STRK: 0.5 } });
    expect(f).toMatchObject({ actionFamily: "staking", actionType: "batch:approve+enter_delegation_pool", recipients: [POOL], warnings: [] });
    expect(f?.staking).toMatchObject({ asset: "STRK", amount: "1500", amountBase: strk(1500).toString(), usd: 750, direction: "delegate", validator: POOL });
    expect(f?.approvals?.[0]).toMatchObject({ token: "STRK", amount: "1500", spender: POOL });
    expect(JSON.stringify(f?.details)).toContain(ME.slice(3));
  });

  it("add_to_delegation_pool reads the same way", () => {
    const f = detectAction([approve(POOL, strk(20)), add(POOL, strk(20))], "starknet", {});
    expect(f?.staking).toMatchObject({ asset: "STRK", amount: "20", direction: "delegate", validator: POOL });
  });

  it("without an approval to that pool in the multicall the token is unknown, and the adapter says so", () => {
    for (const calls of [[enter(POOL, strk(5))], [approve(OTHER_POOL, strk(5)), enter(POOL, strk(5))]]) {
      const f = detectAction(calls, "starknet", { prices: { STRK: 0.5 } });
      expect(f?.staking).toMatchObject({ asset: "?", amount: null, usd: null });
      expect(f?.warnings.join(" ")).toMatch(/token enter_delegation_pool stakes is not known/);
    }
  });

  it("an amount that is not a u128 is not decoded", () => {
    const bad = { contractAddress: POOL, entrypoint: "enter_delegation_pool", calldata: [ME, (2n ** 128n).toString()] };
    const f = detectAction([approve(POOL, strk(1)), bad], "starknet", {});
    expect(f?.staking?.amount).toBeNull();
    expect(f?.warnings.join(" ")).toMatch(/does not decode as a u128/);
  });

  it("exit intent is an undelegation; the exit action a withdrawal with no amount in its calldata", () => {
    const intent = detectAction([{ contractAddress: POOL, entrypoint: "exit_delegation_pool_intent", calldata: CallData.compile({ amount: strk(3) }) }], "starknet", {});
    expect(intent).toMatchObject({ actionFamily: "staking", recipients: [] });
    expect(intent?.staking).toMatchObject({ direction: "undelegate", amountBase: strk(3).toString() });
    const action = detectAction([{ contractAddress: POOL, entrypoint: "exit_delegation_pool_action", calldata: CallData.compile({ pool_member: ME }) }], "starknet", {});
    expect(action?.staking).toMatchObject({ direction: "withdraw", amount: null, amountBase: null });
  });
});
