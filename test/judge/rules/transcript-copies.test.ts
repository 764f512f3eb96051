/**
 * The transcript's constraints and clauses are JSON-safe copies made once per parsed intent and shared by every
 * result of that intent (engine.ts): one action's markings must never leak into another's, and nobody may edit
 * the shared copies.
 */
import { describe, expect, it } from "vitest";
import { evaluateRules } from "../../../src/judge/rules/engine";
import { facts, input, orderFacts } from "./helpers";

const INTENT = "Max $500 per order. Withdrawals happen on alternate fortnights after 3 sign-offs.";
const ORDER = orderFacts({ asset: "ETH", side: "buy", size: 0.1, price: 3_000, notionalUsd: 300 });
const WITHDRAWAL = facts({ actionFamily: "withdrawal", actionType: "withdraw3", summary: "Withdraw 200 USDC", assets: ["USDC"], notionalUsd: 200 });
type Clause = { clause: string; bearsOnAction?: boolean };
const marked = (clauses: unknown[]) => (clauses as Clause[]).filter((c) => c.bearsOnAction === false).map((c) => c.clause);

describe("transcript copies shared across results of one intent", () => {
  it("marks the set-aside clause on the order's result only, before and after the other action is judged", () => {
    const order = evaluateRules(input(INTENT, { type: "test" }, ORDER));
    const withdrawal = evaluateRules(input(INTENT, { type: "test" }, WITHDRAWAL));
    const orderAgain = evaluateRules(input(INTENT, { type: "test" }, ORDER));
    expect(marked(order.clauses)).toEqual(["Withdrawals happen on alternate fortnights after 3 sign-offs"]);
    expect(marked(withdrawal.clauses)).toEqual([]);
    expect(marked(orderAgain.clauses)).toEqual(marked(order.clauses));
    expect(JSON.parse(JSON.stringify(withdrawal.clauses))).toEqual(withdrawal.clauses);
  });

  it("the shared copies cannot be edited by a caller", () => {
    const r = evaluateRules(input(INTENT, { type: "test" }, WITHDRAWAL));
    expect(r.constraints.length).toBeGreaterThan(0);
    expect(() => (r.constraints as unknown[]).push({})).toThrow(TypeError);
    expect(() => Object.assign(r.clauses[0] as object, { reading: "constraint" })).toThrow(TypeError);
    expect(() => Object.assign(r.constraints[0] as object, { kind: "permit" })).toThrow(TypeError);
  });
});
