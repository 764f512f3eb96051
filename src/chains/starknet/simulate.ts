/**
 * Simulation through `starknet_simulateTransactions` into the neutral report (SPEC 2.8): the Transfer
 * events of the four tokens that move the wallet's funds become asset changes (the emitter is the
 * enclosing invocation's `contract_address`, trace events carry none), Approval events by the wallet are
 * approvals plus a warning, the STRK fee is reported beside them, and a `revert_reason` is `reverted`.
 * A wallet whose account is not deployed yet is simulated as [DEPLOY_ACCOUNT, INVOKE], as it will be sent.
 */
import { formatUnits } from "../../lib/money";
import type { AssetRegistry } from "../port";
import { NATIVE, type AssetChange, type ChainWarning, type RawChange, type Simulated, type SimulationReport, type SimulationStatus } from "../types";
import { SEL, STRK_ADDRESS } from "./constants";
import { toAddress } from "./felt";
import { executeCalldata, type StarknetPayload } from "./plan";
import { StarknetRpcError, type StarknetRpc } from "./rpc-client";
import { deployTx, invokeTx, ZERO_BOUNDS, type FeeEstimate } from "./txs";

interface TraceInvocation {
  contract_address: string;
  events?: { order: number; keys: string[]; data: string[] }[];
  calls?: TraceInvocation[];
  revert_reason?: string;
}

interface SimulatedTx {
  transaction_trace: { execute_invocation?: TraceInvocation; constructor_invocation?: TraceInvocation; execution_resources?: { l2_gas?: number } };
  fee_estimation: FeeEstimate;
}

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

export interface SimulateArgs {
  rpc: StarknetRpc;
  assets: AssetRegistry;
  caip2: string;
  wallet: string;
  payload: StarknetPayload;
  /** Account nonce; null when the account is not deployed. */
  nonce: bigint | null;
  /** Needed when the account is not deployed. */
  publicKey: string | null;
  declared: RawChange[];
  now: () => Date;
}

/** Events of an invocation tree with their emitter, in emission order. */
export function traceEvents(root: TraceInvocation | undefined): { from: string; keys: bigint[]; data: bigint[]; order: number }[] {
  const out: { from: string; keys: bigint[]; data: bigint[]; order: number }[] = [];
  const walk = (inv: TraceInvocation) => {
    for (const e of inv.events ?? []) out.push({ from: toAddress(BigInt(inv.contract_address)), keys: e.keys.map(BigInt), data: e.data.map(BigInt), order: e.order });
    (inv.calls ?? []).forEach(walk);
  };
  if (root) walk(root);
  return out.sort((a, b) => a.order - b.order);
}

/** Transfer and Approval events that touch `wallet`, in the Cairo 1 layout or the legacy one. */
export function changesFromEvents(wallet: string, events: ReturnType<typeof traceEvents>, isToken: (address: string) => boolean): { changes: RawChange[]; unknownTokens: string[] } {
  const w = BigInt(wallet);
  const changes: RawChange[] = [];
  const unknownTokens: string[] = [];
  for (const e of events) {
    const sel = e.keys[0];
    let a: bigint, b: bigint, low: bigint, high: bigint;
    if (e.keys.length === 3 && e.data.length === 2) [a, b, low, high] = [e.keys[1]!, e.keys[2]!, e.data[0]!, e.data[1]!];
    else if (e.keys.length === 1 && e.data.length === 4) [a, b, low, high] = [e.data[0]!, e.data[1]!, e.data[2]!, e.data[3]!];
    else continue;
    const amount = low + (high << 128n);
    if (sel === SEL.Transfer && (a === w || b === w) && a !== b) {
      if (!isToken(e.from)) unknownTokens.push(e.from);
      changes.push({ direction: a === w ? "out" : "in", assetType: "erc20", changeType: "transfer", token: e.from, rawAmount: amount, counterparty: toAddress(a === w ? b : a), unlimited: false });
    } else if (sel === SEL.Approval && a === w) {
      if (!isToken(e.from)) unknownTokens.push(e.from);
      changes.push({ direction: "out", assetType: "erc20", changeType: "approval", token: e.from, rawAmount: amount, counterparty: toAddress(b), unlimited: amount >= 2n ** 255n });
    }
  }
  return { changes, unknownTokens };
}

/** Raw changes priced and described by the Starknet asset registry (simulations and STRK20 actions alike). */
export async function priceChanges(assets: AssetRegistry, raw: RawChange[]): Promise<AssetChange[]> {
  const out: AssetChange[] = [];
  for (const r of raw) {
    const t = assets.byAddress(r.token);
    const decimals = t?.decimals ?? 0;
    const p = t && !r.unlimited ? await assets.usd(t.address) : null;
    out.push({
      direction: r.direction,
      assetType: r.assetType,
      changeType: r.changeType,
      symbol: t?.symbol ?? "UNKNOWN",
      name: t?.name ?? "Unknown token",
      contractAddress: r.token === NATIVE ? NATIVE : r.token,
      rawAmount: r.rawAmount.toString(),
      decimals,
      amount: formatUnits(r.rawAmount, decimals),
      usdValue: p === null ? null : round6(Number(formatUnits(r.rawAmount, decimals)) * p),
      counterparty: r.counterparty,
      logoUrl: null,
      ...(r.changeType !== "transfer" ? { unlimited: r.unlimited } : {}),
    });
  }
  return out;
}

export async function simulateStarknet(a: SimulateArgs): Promise<Simulated> {
  const simulatedAt = a.now().toISOString();
  const warnings: ChainWarning[] = [];
  const txs: unknown[] = [];
  if (a.nonce === null) {
    if (!a.publicKey) return unavailable(a, simulatedAt, "the wallet's account is not deployed and its public key is unknown");
    txs.push(deployTx({ publicKey: a.publicKey, bounds: ZERO_BOUNDS, query: true }));
    warnings.push({ code: "starknet_account_deploy", severity: "info", message: "the wallet's account contract is deployed first, in the same submission (its fee is included)" });
  }
  txs.push(invokeTx({ sender: a.wallet, calldata: executeCalldata(a.payload), nonce: a.nonce ?? 1n, bounds: ZERO_BOUNDS, query: true, proofFacts: a.payload.proofFacts }));
  if (a.payload.proofFacts) {
    warnings.push({
      code: "strk20_proof_not_stored",
      severity: "info",
      message: "a STRK20 private action: the proof is not stored, so if this waits for the owner a fresh proof is needed at confirmation (proofs expire in about five minutes)",
    });
  }
  let sims: SimulatedTx[];
  try {
    sims = await a.rpc.call<SimulatedTx[]>("starknet_simulateTransactions", { block_id: "latest", transactions: txs, simulation_flags: ["SKIP_VALIDATE"] });
  } catch (e) {
    if (e instanceof StarknetRpcError) {
      return finish(a, { status: "reverted", declared: false, error: `${e.message}: ${e.detail}`, changes: await priceChanges(a.assets, []), gasUsed: 0n, fee: 0n, warnings, simulatedAt });
    }
    return unavailable(a, simulatedAt, (e as Error).message);
  }
  const invoke = sims[sims.length - 1]!;
  const fee = sims.reduce((s, x) => s + BigInt(x.fee_estimation.overall_fee), 0n);
  const exec = invoke.transaction_trace.execute_invocation;
  const reverted = exec?.revert_reason !== undefined || sims.some((s) => s.transaction_trace.constructor_invocation?.revert_reason !== undefined);
  const { changes, unknownTokens } = reverted ? { changes: [], unknownTokens: [] } : changesFromEvents(a.wallet, traceEvents(exec), (t) => a.assets.byAddress(t) !== null);
  for (const t of new Set(unknownTokens)) warnings.push({ code: "unknown_token", severity: "block", message: `the calls move a token this service does not know (${t}); the owner decides` });
  for (const c of changes.filter((x) => x.changeType === "approval")) {
    const sym = a.assets.byAddress(c.token)?.symbol ?? c.token;
    warnings.push({ code: "token_approval", severity: "warn", message: `approves ${c.counterparty} to spend ${c.unlimited ? "an unlimited amount of" : formatUnits(c.rawAmount, a.assets.byAddress(c.token)?.decimals ?? 0)} ${sym} from the wallet later` });
  }
  const gasUsed = sims.reduce((s, x) => s + BigInt(x.transaction_trace.execution_resources?.l2_gas ?? 0), 0n);
  return finish(a, {
    status: reverted ? "reverted" : "clean",
    declared: false,
    error: reverted ? (exec?.revert_reason ?? "the account deployment reverted") : "",
    changes: await priceChanges(a.assets, changes),
    gasUsed,
    fee,
    warnings,
    simulatedAt,
  });
}

async function unavailable(a: SimulateArgs, simulatedAt: string, error: string): Promise<Simulated> {
  return finish(a, { status: "unavailable", declared: true, error, changes: await priceChanges(a.assets, a.declared), gasUsed: 0n, fee: 0n, warnings: [], simulatedAt });
}

function finish(
  a: SimulateArgs,
  r: { status: SimulationStatus; declared: boolean; error: string; changes: AssetChange[]; gasUsed: bigint; fee: bigint; warnings: ChainWarning[]; simulatedAt: string },
): Simulated {
  const warnings = [...r.warnings];
  let out = 0;
  let inn = 0;
  for (const c of r.changes) {
    if (c.changeType !== "transfer") continue;
    if (c.usdValue === null) {
      warnings.push({ code: "unpriced_asset", severity: "warn", message: `no USD price for ${c.symbol} (${c.contractAddress}); USD totals leave it out` });
      continue;
    }
    if (c.direction === "out") out += c.usdValue;
    else inn += c.usdValue;
  }
  if (r.fee > 0n) warnings.push({ code: "starknet_fee", severity: "info", message: `fee about ${formatUnits(r.fee, 18)} STRK (paid by the wallet, in STRK at ${STRK_ADDRESS})` });
  const report: SimulationReport = {
    ok: r.status === "clean",
    status: r.status,
    declared: r.declared,
    wouldRevert: r.status === "reverted",
    error: r.error,
    caip2: a.caip2,
    changes: r.changes,
    totalUsdOut: round6(out),
    totalUsdIn: round6(inn),
    gasUsed: r.gasUsed.toString(),
    logsExcerpt: r.changes.slice(0, 20).map((c) => `${c.contractAddress} ${c.changeType} ${c.direction} ${c.amount} ${c.symbol} ${c.counterparty}`),
    warnings: [...new Set(warnings.map((w) => w.message))],
    simulatedAt: r.simulatedAt,
    provider: r.status === "unavailable" ? "none" : "starknet_simulateTransactions",
  };
  return { report, warnings };
}
