/**
 * What an approval leaves behind. A batch that approves a spender and lets it pull the tokens in the same
 * transaction (approve + swap) grants no lasting authority: counting the approval as money out on top of
 * the transfer it funds would count a swap twice against the wallet's limits.
 *
 * After a clean simulation with ERC-20 approvals, this runs the same transaction again in eth_simulateV1
 * followed by `allowance(wallet, spender)` reads in the same block, and writes the allowance each approval
 * leaves (`residualRaw`, base units) onto its change. limits-check counts that residual, not the grant; a
 * residual of 0 is not an outflow at all. When the node cannot answer, nothing is added and the full grant
 * counts (the conservative reading).
 */
import { decodeFunctionResult, encodeFunctionData, erc20Abi, toHex, type Hex } from "viem";
import type { EvmChain } from "./chain";
import type { AssetChange, SimulationReport, SimulationTx } from "./simulate";

/** An asset change with the allowance an approval leaves after the transaction, when known. */
export type ChangeWithResidual = AssetChange & { residualRaw?: string };

interface SimulateV1Block {
  calls: { status: string; returnData?: Hex }[];
}

export async function withResidualAllowances(chain: EvmChain, tx: SimulationTx, report: SimulationReport): Promise<SimulationReport> {
  const approvals = report.changes.filter((c) => c.changeType === "approval" && c.assetType === "erc20" && c.direction === "out");
  if (report.status !== "clean" || report.provider !== "eth_simulateV1" || approvals.length === 0) return report;
  const overrides = tx.delegateTo ? { [tx.from]: { code: `0xef0100${tx.delegateTo.slice(2).toLowerCase()}` } } : undefined;
  const reads = approvals.map((c) => ({
    from: tx.from,
    to: c.contractAddress,
    data: encodeFunctionData({ abi: erc20Abi, functionName: "allowance", args: [tx.from, c.counterparty as Hex] }),
  }));
  let calls: SimulateV1Block["calls"];
  try {
    const res = await chain.rpc<SimulateV1Block[]>("eth_simulateV1", [
      { blockStateCalls: [{ ...(overrides ? { stateOverrides: overrides } : {}), calls: [{ from: tx.from, to: tx.to, value: toHex(tx.value), data: tx.data }, ...reads] }], validation: false },
      "latest",
    ]);
    calls = res?.[0]?.calls ?? [];
  } catch {
    return report;
  }
  if (calls.length !== reads.length + 1 || calls[0].status !== "0x1") return report;
  const residual = new Map<AssetChange, string>();
  approvals.forEach((c, i) => {
    const r = calls[i + 1];
    if (r.status !== "0x1" || !r.returnData) return;
    try {
      residual.set(c, decodeFunctionResult({ abi: erc20Abi, functionName: "allowance", data: r.returnData }).toString());
    } catch {
      // not an ERC-20 allowance answer: leave the full grant counted
    }
  });
  if (residual.size === 0) return report;
  return { ...report, changes: report.changes.map((c) => (residual.has(c) ? { ...c, residualRaw: residual.get(c) } : c)) };
}
