/**
 * Simulation of the exact transaction a wallet would sign, into the SPEC 2.8 report.
 *
 * Order: `eth_simulateV1` (with traceTransfers, so native ETH moves show up as logs), then
 * `debug_traceCall` with the call tracer and logs, then "unavailable" with the changes the input
 * declares (`declared: true`). A batch (`evm_calls`) is simulated as the wallet calling itself with
 * `execute(calls)` while its code is overridden with the EIP-7702 delegation designator, which is exactly
 * what executes on chain once the delegation is in place.
 *
 * A node that answers with an execution error (e.g. "insufficient funds for gas * price + value") is a
 * `reverted` simulation: the transaction cannot run. Only a node that cannot simulate at all (method not
 * supported, unreachable) leads to the fallback and eventually to `unavailable`.
 */
import { decodeErrorResult, formatUnits, parseAbi, type Address, type Hex } from "viem";
import type { Clock } from "../../lib/clock";
import type { EvmChain } from "./chain";
import { RpcError } from "./chain";
import { extractChanges, logsFromCallFrame, type CallFrame, type RawChange, type RawLog } from "./effects";
import { NATIVE } from "./tokens";
import type { AssetChange, SimulationReport, SimulationStatus } from "../types";
import { BatchExecutorAbi } from "../../sandbox/contracts";

export type { AssetChange, SimulationReport, SimulationStatus };

export interface SimulationTx {
  from: Address;
  to: Address;
  value: bigint;
  data: Hex;
  /** Simulate with the wallet delegated (EIP-7702) to this code. */
  delegateTo?: Address | null;
}

const ERC20_META = parseAbi(["function symbol() view returns (string)", "function decimals() view returns (uint8)", "function name() view returns (string)"]);

export async function simulateEvm(chain: EvmChain, tx: SimulationTx, opts: { clock: Clock; declared?: RawChange[] }): Promise<SimulationReport> {
  const call = { from: tx.from, to: tx.to, value: `0x${tx.value.toString(16)}`, data: tx.data };
  const overrides = tx.delegateTo ? { [tx.from]: { code: `0xef0100${tx.delegateTo.slice(2).toLowerCase()}` } } : undefined;
  const failures: string[] = [];

  let outcome: { logs: RawLog[]; gasUsed: bigint; reverted: boolean; error: string; provider: string } | null = null;
  try {
    const res = await chain.rpc<SimulateV1Block[]>("eth_simulateV1", [
      { blockStateCalls: [{ ...(overrides ? { stateOverrides: overrides } : {}), calls: [call] }], traceTransfers: true, validation: false },
      "latest",
    ]);
    const c = res?.[0]?.calls?.[0];
    if (!c) throw new RpcError("eth_simulateV1", null, "empty result");
    const reverted = c.status !== "0x1";
    outcome = {
      logs: reverted ? [] : (c.logs ?? []),
      gasUsed: BigInt(c.gasUsed ?? "0x0"),
      reverted,
      error: reverted ? revertReason(c.returnData, c.error?.message) : "",
      provider: "eth_simulateV1",
    };
  } catch (err) {
    if (isExecutionError(err)) outcome = { logs: [], gasUsed: 0n, reverted: true, error: (err as RpcError).message.replace(/^eth_simulateV1: /, ""), provider: "eth_simulateV1" };
    else failures.push(errText(err));
  }

  if (!outcome) {
    try {
      const frame = await chain.rpc<CallFrame>("debug_traceCall", [
        call,
        "latest",
        { tracer: "callTracer", tracerConfig: { withLog: true }, ...(overrides ? { stateOverrides: overrides } : {}) },
      ]);
      const reverted = !!frame.error;
      outcome = {
        logs: reverted ? [] : logsFromCallFrame(frame),
        gasUsed: BigInt(frame.gasUsed ?? "0x0"),
        reverted,
        error: reverted ? revertReason(frame.output, frame.revertReason ?? frame.error) : "",
        provider: "debug_traceCall",
      };
    } catch (err) {
      if (isExecutionError(err)) outcome = { logs: [], gasUsed: 0n, reverted: true, error: (err as RpcError).message.replace(/^debug_traceCall: /, ""), provider: "debug_traceCall" };
      else failures.push(errText(err));
    }
  }

  const simulatedAt = opts.clock.now().toISOString();
  if (!outcome) {
    const declared = opts.declared ?? [];
    const priced = await enrich(chain, declared);
    return finishReport(chain, {
      status: "unavailable",
      declared: declared.length > 0,
      error: `simulation unavailable: ${failures.join("; ")}`.slice(0, 500),
      changes: priced,
      gasUsed: 0n,
      logs: [],
      warnings: ["the chain could not simulate this transaction; the changes shown are what the input declares"],
      simulatedAt,
      provider: "none",
    });
  }

  const extracted = extractChanges(tx.from, outcome.logs, chain.tokens.bySymbol("WETH")?.address ?? null);
  const changes = await enrich(chain, extracted.changes);
  const warnings = [...extracted.warnings];
  let { reverted, error } = outcome;
  if (!reverted) {
    const gas = await gasShortfall(chain, tx, outcome.gasUsed);
    if (gas) {
      reverted = true;
      error = gas;
    }
  }
  return finishReport(chain, {
    status: reverted ? "reverted" : "clean",
    declared: false,
    error,
    changes: reverted ? [] : changes,
    gasUsed: outcome.gasUsed,
    logs: outcome.logs,
    warnings,
    simulatedAt,
    provider: outcome.provider,
  });
}

interface SimulateV1Block {
  calls: { status: string; gasUsed?: string; returnData?: Hex; logs?: RawLog[]; error?: { message?: string; code?: number } }[];
}

/** The node ran the transaction and it failed (as opposed to: could not run it). */
function isExecutionError(err: unknown): boolean {
  if (!(err instanceof RpcError) || !err.answered) return false;
  if (err.code === -32601) return false; // method not found
  return /insufficient funds|revert|execution|out of gas|invalid opcode|gas required exceeds/i.test(err.message);
}

const errText = (e: unknown) => (e instanceof Error ? e.message : String(e)).slice(0, 200);

function revertReason(data: string | undefined, fallback: string | undefined): string {
  if (data && data !== "0x" && /^0x[0-9a-fA-F]*$/.test(data)) {
    try {
      const d = decodeErrorResult({ abi: BatchExecutorAbi, data: data as Hex });
      const args = ((d.args ?? []) as readonly unknown[]).map((a) => String(a));
      const name: string = d.errorName;
      if (name === "Error" && args[0]) return `execution reverted: ${args[0]}`;
      return `execution reverted: ${name}(${args.join(", ")})`;
    } catch {
      return `execution reverted with data ${data.slice(0, 74)}`;
    }
  }
  return fallback ? fallback.slice(0, 300) : "execution reverted";
}

/** The wallet must hold value plus gas at the current fee; otherwise the transaction cannot be sent. */
async function gasShortfall(chain: EvmChain, tx: SimulationTx, gasUsed: bigint): Promise<string | null> {
  try {
    const [balance, fees] = await Promise.all([chain.client.getBalance({ address: tx.from }), chain.client.estimateFeesPerGas()]);
    const valueOut = tx.value;
    const gasCost = (gasUsed + 30_000n) * (fees.maxFeePerGas ?? 0n);
    if (balance < valueOut + gasCost) {
      return `the wallet holds ${formatUnits(balance, 18)} ETH; this transaction needs about ${formatUnits(valueOut + gasCost, 18)} ETH (value plus gas). Fund the wallet with ETH for gas.`;
    }
  } catch {
    // A failed balance read does not make the simulation unclean; execution would surface the problem.
  }
  return null;
}

const metaCache = new Map<string, { symbol: string; name: string; decimals: number | null }>();

async function tokenMeta(chain: EvmChain, token: string): Promise<{ symbol: string; name: string; decimals: number | null; logoUrl: string | null }> {
  if (token === NATIVE) return { ...chain.tokens.native, logoUrl: null };
  const known = chain.tokens.byAddress(token);
  if (known) return known;
  const key = `${chain.info.chainId}:${token}`;
  let m = metaCache.get(key);
  if (!m) {
    const read = async <T>(fn: "symbol" | "decimals" | "name"): Promise<T | null> => {
      try {
        return (await chain.client.readContract({ address: token as Address, abi: ERC20_META, functionName: fn })) as T;
      } catch {
        return null;
      }
    };
    const [symbol, decimals, name] = await Promise.all([read<string>("symbol"), read<number>("decimals"), read<string>("name")]);
    m = { symbol: (symbol ?? "UNKNOWN").slice(0, 32), name: (name ?? "Unknown token").slice(0, 64), decimals: decimals === null ? null : Number(decimals) };
    metaCache.set(key, m);
  }
  return { ...m, logoUrl: null };
}

export async function enrich(chain: EvmChain, raw: RawChange[]): Promise<AssetChange[]> {
  const out: AssetChange[] = [];
  for (const r of raw) {
    const meta = await tokenMeta(chain, r.token);
    const fungible = r.assetType === "native" || r.assetType === "erc20";
    const decimals = fungible ? (meta.decimals ?? 0) : 0;
    const price = fungible && meta.decimals !== null && !r.unlimited ? await chain.prices.usd(r.token) : null;
    const amount = r.changeType === "approval_for_all" ? "all" : formatUnits(r.rawAmount, decimals);
    const usd = price === null ? null : round6(Number(formatUnits(r.rawAmount, decimals)) * price);
    out.push({
      direction: r.direction,
      assetType: r.assetType,
      changeType: r.changeType,
      symbol: meta.symbol,
      name: meta.name,
      contractAddress: r.token === NATIVE ? NATIVE : (chain.tokens.byAddress(r.token)?.address ?? r.token),
      rawAmount: r.rawAmount.toString(),
      decimals,
      amount,
      usdValue: usd,
      counterparty: r.counterparty,
      logoUrl: meta.logoUrl,
      ...(r.changeType !== "transfer" ? { unlimited: r.unlimited } : {}),
    });
  }
  return out;
}

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

function finishReport(
  chain: EvmChain,
  r: { status: SimulationStatus; declared: boolean; error: string; changes: AssetChange[]; gasUsed: bigint; logs: RawLog[]; warnings: string[]; simulatedAt: string; provider: string },
): SimulationReport {
  const warnings = [...r.warnings];
  let out = 0;
  let inn = 0;
  for (const c of r.changes) {
    if (c.changeType !== "transfer") continue;
    if (c.usdValue === null) {
      if (c.assetType === "native" || c.assetType === "erc20") warnings.push(`no USD price for ${c.symbol} (${c.contractAddress}); USD totals leave it out`);
      continue;
    }
    if (c.direction === "out") out += c.usdValue;
    else inn += c.usdValue;
  }
  return {
    ok: r.status === "clean",
    status: r.status,
    declared: r.declared,
    wouldRevert: r.status === "reverted",
    error: r.error,
    caip2: chain.info.caip2,
    changes: r.changes,
    totalUsdOut: round6(out),
    totalUsdIn: round6(inn),
    gasUsed: r.gasUsed.toString(),
    logsExcerpt: r.logs.slice(0, 20).map(formatLog),
    warnings: [...new Set(warnings)],
    simulatedAt: r.simulatedAt,
    provider: r.provider,
  };
}

function formatLog(l: RawLog): string {
  const topics = l.topics.map((t) => t.slice(0, 10)).join(",");
  return `${l.address.toLowerCase()} [${topics}] ${l.data.length > 66 ? `${l.data.slice(0, 66)}...` : l.data}`;
}
