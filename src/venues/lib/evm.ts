/**
 * EVM transaction shapes: {chainId?, from?, to, value?, data?} (also under `transaction` or `tx`, and with
 * `input` for `data`), and batches {calls: [{to, data, value?}]}. Calldata decoding goes through viem with
 * ABIs written as parseAbi strings; a decode failure is a fact ("calldata does not match"), not an error.
 */
import { decodeAbiParameters, toFunctionSelector, type Abi, type AbiFunction, type Hex } from "viem";
import { chainName, parseChainId } from "./chains";
import { bigInt, evmAddr, isRecord, str } from "./util";

export interface EvmTx {
  to: string; // lower-case
  from: string | null;
  data: Hex; // "0x" when empty
  value: bigint;
  chainId: number | null;
  chain: string | null;
  selector: string | null; // lower-case 0x + 8 hex
}

const MAX_DATA = 200_000;

function txFrom(o: Record<string, unknown>, outer: Record<string, unknown> | null): EvmTx | null {
  const to = evmAddr(o.to);
  if (!to) return null;
  const rawData = o.data ?? o.input ?? o.calldata;
  let data: Hex = "0x";
  if (rawData !== undefined && rawData !== null && rawData !== "") {
    const d = str(rawData);
    if (!d || !/^0x(?:[0-9a-fA-F]{2})*$/.test(d) || d.length > MAX_DATA) return null;
    data = d.toLowerCase() as Hex;
  }
  let value = 0n;
  if (o.value !== undefined && o.value !== null && o.value !== "") {
    const v = bigInt(o.value);
    if (v === null || v < 0n) return null;
    value = v;
  }
  const chainId = parseChainId(o.chainId ?? outer?.chainId ?? o.chain ?? outer?.chain ?? o.caip2 ?? outer?.caip2);
  return {
    to,
    from: evmAddr(o.from) ?? evmAddr(outer?.from),
    data,
    value,
    chainId,
    chain: chainName(chainId),
    selector: data.length >= 10 ? data.slice(0, 10) : null,
  };
}

/** One EVM transaction, or null when the object is not one. */
export function parseEvmTx(action: unknown): EvmTx | null {
  if (!isRecord(action)) return null;
  if (action.to !== undefined) return txFrom(action, null);
  for (const k of ["transaction", "tx"]) {
    const inner = action[k];
    if (isRecord(inner) && inner.to !== undefined) return txFrom(inner, action);
  }
  return null;
}

/** A batch of calls executed together ({calls: [...]}, or a bare array of transactions). */
export function parseEvmBatch(action: unknown): EvmTx[] | null {
  const outer = isRecord(action) ? action : null;
  const list = Array.isArray(action) ? action : outer && Array.isArray(outer.calls) ? outer.calls : null;
  if (!list || list.length === 0 || list.length > 50) return null;
  const txs: EvmTx[] = [];
  for (const c of list) {
    if (!isRecord(c)) return null;
    const t = txFrom(c, outer);
    if (!t) return null;
    txs.push(t);
  }
  return txs;
}

// viem's decodeFunctionData hashes every ABI entry on each call to find the selector; index them once instead
const INDEX = new WeakMap<Abi, Map<string, AbiFunction>>();

function indexOf(abi: Abi): Map<string, AbiFunction> {
  let m = INDEX.get(abi);
  if (!m) {
    m = new Map();
    for (const f of abi) if (f.type === "function" && !m.has(toFunctionSelector(f))) m.set(toFunctionSelector(f), f);
    INDEX.set(abi, m);
  }
  return m;
}

export function safeDecode(abi: Abi, data: Hex): { functionName: string; args: readonly unknown[] } | null {
  if (typeof data !== "string" || data.length < 10) return null;
  const fn = indexOf(abi).get(data.slice(0, 10).toLowerCase());
  if (!fn) return null;
  try {
    const args = decodeAbiParameters(fn.inputs, `0x${data.slice(10)}`);
    return { functionName: fn.name, args: args as readonly unknown[] };
  } catch {
    return null;
  }
}

export const UINT256_MAX = 2n ** 256n - 1n;
export const UNLIMITED_THRESHOLD = 2n ** 255n;
export const isUnlimited = (v: bigint, bits = 256): boolean => v >= UNLIMITED_THRESHOLD || (bits < 256 && v === 2n ** BigInt(bits) - 1n);

/** JSON-safe copy of decoded args (bigints become decimal strings) for Facts.details. */
export function jsonSafe(v: unknown, depth = 0): unknown {
  if (depth > 6) return "[deep]";
  if (typeof v === "bigint") return v.toString();
  if (Array.isArray(v)) return v.slice(0, 50).map((x) => jsonSafe(x, depth + 1));
  if (isRecord(v)) return Object.fromEntries(Object.entries(v).slice(0, 50).map(([k, x]) => [k, jsonSafe(x, depth + 1)]));
  if (typeof v === "string" && v.length > 400) return `${v.slice(0, 400)}...`;
  return v;
}

export const addrArg = (v: unknown): string => (typeof v === "string" ? v.toLowerCase() : "");
export const bigArg = (v: unknown): bigint | null => (typeof v === "bigint" ? v : null);

/** Selectors of every function in an ABI, for cheap `matches` checks before a full decode. */
export function selectorsOf(abi: Abi): Set<string> {
  return new Set(abi.filter((x): x is AbiFunction => x.type === "function").map((f) => toFunctionSelector(f)));
}
