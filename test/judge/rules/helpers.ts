/** Hand-built Facts (following src/venues/types.ts) and JudgeInputs for rules-engine tests. */
import type { Facts, OrderFact, TransferFact } from "../../../src/venues/types";
import type { JudgeInput } from "../../../src/judge/types";
import { evaluateRules } from "../../../src/judge/rules/engine";

export function facts(p: Partial<Facts>): Facts {
  return { venue: "hyperliquid", actionFamily: "order", actionType: "order", chain: "hyperliquid", summary: "test action", assets: [], recipients: [], notionalUsd: null, warnings: [], ...p };
}

export function order(p: Partial<OrderFact>): OrderFact {
  return { asset: "BTC", market: "perp", side: "buy", size: 0.01, price: 100_000, notionalUsd: 1_000, reduceOnly: false, orderType: "limit", tif: "Gtc", ...p };
}

export function orderFacts(o: Partial<OrderFact>, extra: Partial<Facts> = {}): Facts {
  const of = order(o);
  return facts({ orders: [of], assets: [of.asset], notionalUsd: of.notionalUsd, ...extra });
}

export function transfer(p: Partial<TransferFact>, extra: Partial<Facts> = {}): Facts {
  const t: TransferFact = { asset: "USDC", amount: "100", usd: 100, to: "0x1111111111111111111111111111111111111111", kind: "erc20.transfer", ...p };
  return facts({ venue: "ethereum", actionFamily: "transfer", actionType: "transfer", chain: "ethereum", chainId: 1, transfers: [t], assets: [t.asset], recipients: t.to ? [t.to.toLowerCase()] : [], notionalUsd: t.usd, ...extra });
}

export function input(intent: string, action: unknown, f: Facts | null, context: Record<string, unknown> | null = null, extra: Partial<JudgeInput> = {}): JudgeInput {
  return { intent, action, facts: f, context, reference: null, note: null, preset: "generic", ...extra };
}

export function verdict(intent: string, f: Facts | null, context: Record<string, unknown> | null = null, extra: Partial<JudgeInput> = {}): string {
  return evaluateRules(input(intent, extra.action ?? { type: "test" }, f, context, extra)).verdict;
}
