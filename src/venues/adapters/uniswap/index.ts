/**
 * Uniswap: V3 SwapRouter and SwapRouter02 (exactInput/Output[Single], multicall with unwrapWETH9/sweep/
 * refundETH), V2 routers, and the Universal Router's execute(). The swap's real recipient is resolved
 * through the router's placeholders (address(1) = sender, address(2) = the router, then unwrap/sweep).
 */
import type { Hex } from "viem";
import type { ApprovalFact } from "../../types";
import { makeEvmAdapter } from "../../lib/evm-adapter";
import { approvalFact, withMeta } from "../../lib/evm-generic";
import { facts, type FactsInit } from "../../lib/facts";
import { swapFacts, type SwapLeg } from "../../lib/evm-swap";
import type { EvmTx } from "../../lib/evm";
import { ADDRESS_THIS, decodeRouterCall, MSG_SENDER, type RouterStep } from "./routers";
import { decodeUniversal, type UrStep } from "./universal";

type Ctx = Record<string, unknown> | null | undefined;

export const ROUTERS: Record<string, string> = {
  "0xe592427a0aece92de3edee1f18e0157c05861564": "SwapRouter",
  "0x68b3465833fb72a70ecdf485e0e4c7bd8665fc45": "SwapRouter02",
  "0x2626664c2603336e57b271c5c0b26f421741e481": "SwapRouter02",
  "0x7a250d5630b4cf539739df2c5dacb4c659f2488d": "V2Router02",
  "0x4752ba5dbc23f44d87826276bf6fd6b1c372ad24": "V2Router02",
  "0x3fc91a3afd70395cd496c647d5a6cc9d4b2b7fad": "UniversalRouter",
  "0x66a9893cc07d91d95644aedd05d03f95e1dba8af": "UniversalRouter",
  "0x6ff5693b99212da76ad316178a184ab56d299b43": "UniversalRouter",
  "0xa51afafe0263b40edaef0df8781ea9aa03e381a3": "UniversalRouter",
  "0xef1c6e67703c7bd7107eed8303fbe6ec2554bf6b": "UniversalRouter",
};

const UR_SELECTORS = new Set(["0x3593564c", "0x24856bc3"]);

function routerSteps(data: Hex, depth = 0): RouterStep[] | null {
  const s = decodeRouterCall(data);
  if (!s) return null;
  if (s.kind !== "multicall") return [s];
  if (depth > 0) return null;
  const out: RouterStep[] = [];
  for (const d of s.inner ?? []) {
    const inner = routerSteps(d, depth + 1);
    if (!inner) out.push({ kind: "other", fn: d.slice(0, 10) });
    else out.push(...inner);
  }
  return out;
}

function resolveRecipient(r: string | null | undefined, tx: EvmTx, later: { recipient?: string | null }[]): string | null {
  if (!r) return null;
  if (r === MSG_SENDER) return tx.from ?? "sender";
  if (r === ADDRESS_THIS || r === tx.to) {
    const next = later.find((x) => x.recipient && x.recipient !== ADDRESS_THIS && x.recipient !== tx.to);
    return next ? resolveRecipient(next.recipient, tx, []) : "router";
  }
  return r;
}

function combineLegs(legs: SwapLeg[], w: string[]): SwapLeg {
  if (legs.length === 1) return legs[0];
  const same = legs.every((l) => l.tokenIn === legs[0].tokenIn && l.tokenOut === legs[0].tokenOut && (l.amountIn === null) === (legs[0].amountIn === null));
  if (!same) {
    w.push(`${legs.length} swaps with different tokens in one transaction; the swap fact shows the first, all are listed in details`);
    return { ...legs[0], tokenOut: legs[legs.length - 1].tokenOut, minOut: legs[legs.length - 1].minOut };
  }
  const sum = (xs: (bigint | null | undefined)[]) => (xs.some((x) => x === null || x === undefined) ? null : xs.reduce<bigint>((s, x) => s + (x as bigint), 0n));
  return {
    ...legs[0],
    amountIn: sum(legs.map((l) => l.amountIn)) ?? legs[0].amountIn,
    minOut: sum(legs.map((l) => l.minOut)),
    amountOut: sum(legs.map((l) => l.amountOut)),
    maxIn: sum(legs.map((l) => l.maxIn)),
    route: legs.map((l) => l.route).join(" | "),
  };
}

function fromLegs(type: string, legs: SwapLeg[], tx: EvmTx, ctx: Ctx, w: string[], unwrapTo: string | null, approvals: ApprovalFact[], details: Record<string, unknown>): FactsInit {
  const leg = combineLegs(legs, w);
  const f = swapFacts("uniswap", type, leg, tx, ctx, w);
  if (approvals.length) f.approvals = approvals;
  if (unwrapTo) details.unwrapToNative = unwrapTo;
  if (tx.value > 0n) details.paysNativeValue = tx.value.toString();
  f.details = { router: ROUTERS[tx.to] ?? "unknown router", ...details, legs: legs.length };
  if (!ROUTERS[tx.to]) w.push(`swap sent to ${tx.to}, which is not a known Uniswap router`);
  return withMeta(f, tx, w);
}

function describeUniversalTx(tx: EvmTx, ctx: Ctx): FactsInit | null {
  const steps = decodeUniversal(tx.data);
  if (!steps) return null;
  const w: string[] = [];
  const legs: SwapLeg[] = [];
  const approvals: ApprovalFact[] = [];
  steps.forEach((s, i) => {
    if (s.leg) legs.push({ ...s.leg, recipient: resolveRecipient(s.leg.recipient, tx, steps.slice(i + 1).filter((x) => x.command === "UNWRAP_WETH" || x.command === "SWEEP")) });
    if (s.permit) approvals.push(approvalFact(s.permit.token, s.permit.spender, s.permit.amount ?? 0n, tx, ctx, w, "permit2", 160));
    if (s.command === "PAY_PORTION" || s.command === "TRANSFER") w.push(`${s.command} sends part of the output to ${s.recipient}`);
    if (s.command === "V4_SWAP" || s.command.startsWith("0x")) w.push(`Universal Router command ${s.command} not decoded`);
  });
  const unwrap = steps.find((s) => s.command === "UNWRAP_WETH");
  for (const l of legs) if (l.amountIn === null && l.amountOut === null) w.push("swap amounts not decoded");
  for (const l of legs) if (l.amountIn === 2n ** 255n) l.amountIn = tx.value > 0n ? tx.value : null;
  if (legs.length === 0) {
    const f = facts("uniswap", "unknown", "execute", tx.chain);
    f.summary = `Universal Router execute: ${steps.map((s) => s.command).join(", ")}`;
    f.approvals = approvals.length ? approvals : undefined;
    f.details = { commands: steps.map((s) => s.command) };
    w.push("no decodable swap in the Universal Router commands");
    return withMeta(f, tx, w);
  }
  return fromLegs("execute", legs, tx, ctx, w, unwrap ? resolveRecipient(unwrap.recipient, tx, []) : null, approvals, { commands: steps.map((s: UrStep) => s.command) });
}

function describeTx(tx: EvmTx, ctx: Ctx): FactsInit | null {
  if (tx.selector && UR_SELECTORS.has(tx.selector)) return describeUniversalTx(tx, ctx);
  const steps = routerSteps(tx.data);
  if (!steps) return null;
  const swaps = steps.filter((s) => s.kind === "swap" && s.leg);
  if (swaps.length === 0) return null;
  const w: string[] = [];
  const helpers = steps.filter((s) => s.kind === "unwrap" || s.kind === "sweep");
  const legs = swaps.map((s) => {
    const leg = { ...(s.leg as SwapLeg) };
    if (s.usesEth) {
      if (leg.amountIn === null && leg.amountOut === null) leg.amountIn = tx.value;
      else if (leg.amountOut !== null && leg.amountOut !== undefined) leg.maxIn = tx.value;
    }
    leg.recipient = resolveRecipient(leg.recipient, tx, helpers);
    return leg;
  });
  const unwrap = steps.find((s) => s.kind === "unwrap");
  const type = steps.length === 1 ? swaps[0].fn : `multicall:${steps.map((s) => s.fn).join("+")}`;
  if (steps.some((s) => s.kind === "other")) w.push("multicall contains calls that were not decoded");
  return fromLegs(type, legs, tx, ctx, w, unwrap ? resolveRecipient(unwrap.recipient, tx, []) : null, [], {});
}

function matchesTx(tx: EvmTx): boolean {
  if (!tx.selector) return false;
  if (UR_SELECTORS.has(tx.selector)) return true;
  const steps = routerSteps(tx.data);
  return !!steps && steps.some((s) => s.kind === "swap");
}

export const uniswap = makeEvmAdapter({ id: "uniswap", aliases: ["uni", "univ3", "uniswapv3", "uniswapv2", "uniswapv4", "universalrouter", "swaprouter"], matchesTx, describeTx });
