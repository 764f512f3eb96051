/**
 * What the judge is shown for a proposal (preset `escrow`): Facts built from the simulated changes (the
 * ground truth of what leaves and enters the wallet), plus a CONTEXT with the wallet, its limits, what
 * the rolling cap already counts, and the simulation summary. The agent's note goes separately as
 * untrusted narration.
 */
import type { ActionFamily, ApprovalFact, Facts, TransferFact } from "../venues/types";
import { finish } from "../venues/lib/facts";
import type { SimulationReport } from "../chains/types";
import type { Limits } from "../wallets/limits";

export function proposalFacts(r: { kind: string; summary: string; chain: string; chainId: number | string; family: string; wallet: string; simulation: SimulationReport; exposureUsd: number; unpriced: boolean }): Facts {
  const sim = r.simulation;
  const transfers: TransferFact[] = [];
  const approvals: ApprovalFact[] = [];
  for (const c of sim.changes) {
    if (c.direction !== "out") continue;
    if (c.changeType === "transfer") {
      transfers.push({
        asset: c.symbol,
        tokenAddress: c.contractAddress === "native" ? null : c.contractAddress,
        amount: c.amount,
        amountBase: c.rawAmount,
        decimals: c.decimals,
        usd: c.usdValue,
        to: c.counterparty,
        from: r.wallet,
        kind: c.assetType === "native" ? "native" : `${c.assetType}.transfer`,
      });
    } else {
      approvals.push({
        token: c.symbol,
        tokenAddress: c.contractAddress,
        spender: c.counterparty,
        amount: c.unlimited ? null : c.amount,
        amountBase: c.unlimited ? null : c.rawAmount,
        unlimited: !!c.unlimited,
        usd: c.usdValue,
        kind: c.changeType === "approval_for_all" ? "setApprovalForAll" : "erc20",
      });
    }
  }
  const ins = sim.changes.filter((c) => c.direction === "in" && c.changeType === "transfer");
  const family: ActionFamily = r.kind === "x402_payment" ? "payment" : transfers.length && ins.length ? "swap" : transfers.length ? "transfer" : approvals.length ? "permission" : "unknown";
  const warnings = [...sim.warnings];
  if (sim.status === "reverted") warnings.unshift(`SIMULATION REVERTED: ${sim.error}`);
  if (sim.status === "unavailable") warnings.unshift("simulation unavailable: the changes are what the input declares, not what the chain computed");
  return finish({
    // The judge's venue for an escrow proposal is the chain family's (EVM keeps its historic name).
    venue: r.family === "evm" ? "ethereum" : r.family,
    actionFamily: family,
    actionType: r.kind,
    chain: r.chain,
    chainId: r.chainId,
    summary: `escrow ${r.kind}: ${r.summary}`,
    transfers,
    approvals,
    assets: sim.changes.map((c) => c.symbol),
    recipients: transfers.map((t) => t.to ?? "").filter(Boolean),
    notionalUsd: r.unpriced ? null : r.exposureUsd,
    warnings,
    details: {
      simulation: { status: sim.status, wouldRevert: sim.wouldRevert, error: sim.error || null, totalUsdOut: sim.totalUsdOut, totalUsdIn: sim.totalUsdIn, provider: sim.provider, declared: sim.declared },
    },
  });
}

export function proposalContext(r: {
  wallet: { name: string; address: string; chain: string; mode: string };
  limits: Limits;
  spentLast24hUsd: number;
  simulation: SimulationReport;
}): Record<string, unknown> {
  const s = r.simulation;
  return {
    escrowWallet: r.wallet,
    walletLimits: r.limits,
    spentLast24hUsd: r.spentLast24hUsd,
    simulation: {
      status: s.status,
      wouldRevert: s.wouldRevert,
      error: s.error || null,
      declared: s.declared,
      changes: s.changes.map((c) => ({ direction: c.direction, changeType: c.changeType, symbol: c.symbol, amount: c.amount, usdValue: c.usdValue, counterparty: c.counterparty, contractAddress: c.contractAddress })),
      totalUsdOut: s.totalUsdOut,
      totalUsdIn: s.totalUsdIn,
      warnings: s.warnings,
    },
  };
}
