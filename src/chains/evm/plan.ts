/**
 * From a proposal input to the exact payload the wallet will sign, its `requestHash`, a one-line
 * summary and the changes the input declares (used only when the chain cannot simulate).
 *
 * The payload is {v, chainId, from, to, value, data, delegate}: everything that decides what the
 * transaction does. Nonce, gas limit and fees are chosen at signing and are not part of it. `requestHash`
 * is keccak256 of the payload's canonical JSON; execution recomputes it from the stored payload and
 * refuses to sign on a mismatch.
 *
 * `evm_calls` become one transaction from the wallet to itself calling `execute(calls)` on the EIP-7702
 * batch executor the wallet delegates to (`delegate`): atomic on chain, all calls or none.
 */
import { encodeFunctionData, getAddress, parseAbi, type Address, type Hex } from "viem";
import { keccakCanonical } from "../../lib/hashing";
import { parseUnitsStrict } from "../../lib/money";
import type { EvmChain } from "./chain";
import type { RawChange } from "./effects";
import type { SimulationTx } from "./simulate";
import { NATIVE } from "./tokens";
import { evmAddressCodec } from "./codec";
import { BatchExecutorAbi } from "../../sandbox/contracts";
import { ChainInputError } from "../port";
import { checkSwapMinimums, describeSwaps, minimumOutputsOf } from "./swap-minimum";
import type { MinimumOutput } from "../types";

const proposeFailed = (message: string) => new ChainInputError(message);
const toWei = (v: string | number | undefined): bigint => (v === undefined ? 0n : BigInt(v));
/** Strict parse of an address field of the input (400 invalid_input naming the field when it fails). */
const addr = (v: string, field: string): Address => evmAddressCodec.parse(v, field) as Address;

/** The EVM kinds of SPEC 4.9 proposal inputs, as validated by proposals/schemas.ts. */
type EvmTx = { to: string; value?: string | number; data?: string; from?: string; gas?: string | number; gasLimit?: string | number; gasPrice?: string | number; maxFeePerGas?: string | number; maxPriorityFeePerGas?: string | number };
export type EvmInput =
  | { kind: "transfer"; chain?: string; caip2?: string; transfer: { asset: string; amount: string; to: string } }
  | { kind: "evm_transaction"; chain?: string; caip2?: string; transaction: EvmTx }
  | { kind: "evm_calls"; chain?: string; caip2?: string; calls: { to: string; data?: string; value?: string | number }[] };

export interface EvmPayload {
  v: 1;
  chainId: number;
  from: Address;
  to: Address;
  /** Wei, decimal string. */
  value: string;
  data: Hex;
  /** EIP-7702 delegation target the wallet must carry when this executes (batches), else null. */
  delegate: Address | null;
}

export interface BuiltProposal {
  kind: string;
  payload: EvmPayload;
  requestHash: Hex;
  summary: string;
  declared: RawChange[];
  minimumOutputs?: MinimumOutput[];
}

/** 1 ETH: SPEC 8 refuses EVM fee fields above it. */
const ONE_ETH = 10n ** 18n;
const ERC20 = parseAbi(["function transfer(address to, uint256 amount) returns (bool)"]);

export const requestHashOf = (p: EvmPayload): Hex => keccakCanonical(p);

export function simulationTxOf(p: EvmPayload): SimulationTx {
  return { from: p.from, to: p.to, value: BigInt(p.value), data: p.data, delegateTo: p.delegate };
}

const short = (a: string) => evmAddressCodec.display(a);

/** Chains a wallet accepts in `input.chain` / `input.caip2`. */
const CHAIN_NAMES: Record<string, { names: string[]; caip2: string }> = {
  base: { names: ["base"], caip2: "eip155:8453" },
  ethereum: { names: ["ethereum"], caip2: "eip155:1" },
};

export function checkChain(walletChain: string, input: { kind: string; chain?: string; caip2?: string }): void {
  const want = CHAIN_NAMES[walletChain];
  const named = input.chain?.trim().toLowerCase();
  const caip2 = input.caip2?.trim();
  const okName = named === undefined || (want?.names.includes(named) ?? false);
  const okCaip = caip2 === undefined || caip2 === want?.caip2;
  if (!okName || !okCaip) {
    throw proposeFailed(`wrong chain: this wallet is on ${walletChain} (${want?.caip2 ?? walletChain}); the input names ${named ?? caip2}`);
  }
  if (input.kind === "solana_transaction" || input.kind === "starknet_calls") {
    throw proposeFailed(`wrong chain: ${input.kind} cannot run on a ${walletChain} wallet`);
  }
}

export function transferPayload(chain: EvmChain, from: Address, t: { asset: string; amount: string; to: string }): Omit<BuiltProposal, "kind" | "requestHash"> & { payload: EvmPayload } {
  const asset = chain.tokens.resolveAsset(t.asset);
  if (!asset) {
    const known = ["ETH", ...chain.tokens.tokens.map((x) => x.symbol)].join(", ");
    throw proposeFailed(`unsupported asset "${t.asset}" on ${chain.info.name}: use one of ${known}`);
  }
  const decimals = asset.kind === "native" ? 18 : asset.token.decimals;
  let amount: bigint;
  try {
    amount = parseUnitsStrict(t.amount, decimals);
  } catch (e) {
    throw proposeFailed(`transfer.amount: ${(e as Error).message}`);
  }
  if (amount <= 0n) throw proposeFailed("transfer.amount must be greater than zero");
  const to = addr(t.to, "input.transfer.to");
  const symbol = asset.kind === "native" ? "ETH" : asset.token.symbol;
  const declared: RawChange[] = [
    { direction: "out", assetType: asset.kind === "native" ? "native" : "erc20", changeType: "transfer", token: asset.kind === "native" ? NATIVE : asset.token.address.toLowerCase(), rawAmount: amount, counterparty: to, unlimited: false },
  ];
  const payload: EvmPayload =
    asset.kind === "native"
      ? { v: 1, chainId: chain.info.chainId, from, to, value: amount.toString(), data: "0x", delegate: null }
      : { v: 1, chainId: chain.info.chainId, from, to: asset.token.address, value: "0", data: encodeFunctionData({ abi: ERC20, functionName: "transfer", args: [to, amount] }), delegate: null };
  return { payload, summary: `transfer ${t.amount} ${symbol} to ${short(to)}`, declared };
}

export function buildEvmProposal(chain: EvmChain, wallet: { address: string; chain: string }, input: EvmInput): BuiltProposal {
  checkChain(wallet.chain, input);
  const from = getAddress(wallet.address.toLowerCase());
  const chainId = chain.info.chainId;
  let built: Omit<BuiltProposal, "kind" | "requestHash">;
  switch (input.kind) {
    case "transfer":
      built = transferPayload(chain, from, input.transfer);
      break;
    case "evm_transaction": {
      const tx = input.transaction;
      if (tx.from && tx.from.toLowerCase() !== from.toLowerCase()) throw proposeFailed(`transaction.from ${tx.from} is not this wallet (${from})`);
      for (const f of ["gas", "gasLimit", "gasPrice", "maxFeePerGas", "maxPriorityFeePerGas"] as const) {
        if (tx[f] !== undefined && toWei(tx[f]) > ONE_ETH) throw proposeFailed(`transaction.${f} is above 1 ETH: refused`);
      }
      const value = toWei(tx.value);
      const data = (tx.data ?? "0x").toLowerCase() as Hex;
      const to = addr(tx.to, "input.transaction.to");
      const selector = data.length >= 10 ? ` calling ${data.slice(0, 10)}` : "";
      const swaps = checkSwapMinimums(chain, [{ to, data, value }], "input.transaction");
      built = {
        payload: { v: 1, chainId, from, to, value: value.toString(), data, delegate: null },
        summary: `transaction to ${short(to)}${selector}${value > 0n ? ` with ${value} wei` : ""}${describeSwaps(swaps, false)}`,
        minimumOutputs: minimumOutputsOf(swaps),
        declared: value > 0n ? [{ direction: "out", assetType: "native", changeType: "transfer", token: NATIVE, rawAmount: value, counterparty: to, unlimited: false }] : [],
      };
      break;
    }
    case "evm_calls": {
      if (!chain.batchExecutor) throw proposeFailed("evm_calls are not available on this deployment: no EIP-7702 batch executor is configured for this chain");
      const calls = input.calls.map((c, i) => ({ to: addr(c.to, `input.calls.${i}.to`), value: toWei(c.value), data: (c.data ?? "0x").toLowerCase() as Hex }));
      const swaps = checkSwapMinimums(chain, calls, "input.calls");
      const data = encodeFunctionData({ abi: BatchExecutorAbi, functionName: "execute", args: [calls] });
      built = {
        payload: { v: 1, chainId, from, to: from, value: "0", data, delegate: chain.batchExecutor },
        summary: `batch of ${calls.length} call${calls.length === 1 ? "" : "s"} (${calls.map((c) => short(c.to)).join(", ")}), all or nothing${describeSwaps(swaps, true)}`,
        minimumOutputs: minimumOutputsOf(swaps),
        declared: calls
          .filter((c) => c.value > 0n)
          .map((c) => ({ direction: "out" as const, assetType: "native" as const, changeType: "transfer" as const, token: NATIVE, rawAmount: c.value, counterparty: c.to, unlimited: false })),
      };
      break;
    }
    default:
      throw proposeFailed(`unsupported kind ${(input as { kind: string }).kind}`);
  }
  return { kind: input.kind, ...built, requestHash: requestHashOf(built.payload) };
}
