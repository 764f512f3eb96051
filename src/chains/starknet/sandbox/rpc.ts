/**
 * The JSON-RPC 0.10 methods the sandbox node answers: the read and write surface that unmodified
 * starknet.js `RpcProvider` and `Account` use (research §2.5, §5.2). Params may be named (as starknet.js
 * sends them) or positional. Every other method is -32601, as on a node that lacks it.
 */
import { parseFelt, toFeltHex } from "../felt";
import { classByHash } from "./classes";
import { nonceKey } from "./contracts";
import { errors, RpcError } from "./errors";
import type { BlockRecord, SandboxNode, TxRecord } from "./node";
import { parseTx } from "./transactions";

/** JSON-RPC spec version; the build metadata says what this node is. */
export const SPEC_VERSION = "0.10.3+arbiter-sandbox-model.not-a-cairo-vm";

const hex = toFeltHex;
type Params = Record<string, unknown>;
type Handler = (node: SandboxNode, p: Params) => unknown;

const PARAM_NAMES: Record<string, string[]> = {
  starknet_getBlockWithTxs: ["block_id"],
  starknet_getBlockWithTxHashes: ["block_id"],
  starknet_getBlockWithReceipts: ["block_id"],
  starknet_getBlockTransactionCount: ["block_id"],
  starknet_getStateUpdate: ["block_id"],
  starknet_getNonce: ["block_id", "contract_address"],
  starknet_getClassHashAt: ["block_id", "contract_address"],
  starknet_getClassAt: ["block_id", "contract_address"],
  starknet_getClass: ["block_id", "class_hash"],
  starknet_call: ["request", "block_id"],
  starknet_estimateFee: ["request", "simulation_flags", "block_id"],
  starknet_simulateTransactions: ["block_id", "transactions", "simulation_flags"],
  starknet_addInvokeTransaction: ["invoke_transaction"],
  starknet_addDeployAccountTransaction: ["deploy_account_transaction"],
  starknet_getTransactionStatus: ["transaction_hash"],
  starknet_getTransactionReceipt: ["transaction_hash"],
  starknet_getTransactionByHash: ["transaction_hash", "response_flags"],
  starknet_getTransactionByBlockIdAndIndex: ["block_id", "index"],
  starknet_traceTransaction: ["transaction_hash"],
  starknet_getEvents: ["filter"],
};

function params(method: string, raw: unknown): Params {
  if (raw === undefined || raw === null) return {};
  if (Array.isArray(raw)) {
    const names = PARAM_NAMES[method] ?? [];
    return Object.fromEntries(raw.map((v, i) => [names[i] ?? String(i), v]));
  }
  if (typeof raw === "object") return raw as Params;
  throw new RpcError(-32602, "Invalid params", "params must be an object or an array");
}

const felt = (v: unknown, name: string): bigint => {
  try {
    return parseFelt(v, name);
  } catch (e) {
    throw new RpcError(-32602, "Invalid params", (e as Error).message);
  }
};

function header(node: SandboxNode, b: BlockRecord) {
  return {
    status: "ACCEPTED_ON_L2",
    block_hash: b.hash,
    parent_hash: b.parentHash,
    block_number: b.number,
    new_root: hex(BigInt(b.hash) >> 4n),
    timestamp: b.timestamp,
    sequencer_address: "0x1176a1bd84444c89232ec27754698e5d2e7e1a7f1539f12027f28b23ec9f3d8",
    ...node.gasPrices(),
    l1_da_mode: "BLOB",
    starknet_version: "0.14.1",
    event_commitment: "0x0",
    transaction_commitment: "0x0",
    receipt_commitment: "0x0",
    state_diff_commitment: "0x0",
    event_count: node.txsInBlock(b).reduce((n, t) => n + (t.receipt.events as unknown[]).length, 0),
    transaction_count: b.txHashes.length,
    state_diff_length: 0,
  };
}

function isPreConfirmed(id: unknown) {
  return id === "pre_confirmed";
}

function preConfirmed(node: SandboxNode) {
  return {
    block_number: node.height + 1,
    timestamp: Math.floor(Date.now() / 1000),
    sequencer_address: "0x1176a1bd84444c89232ec27754698e5d2e7e1a7f1539f12027f28b23ec9f3d8",
    ...node.gasPrices(),
    l1_da_mode: "BLOB",
    starknet_version: "0.14.1",
    transactions: [],
  };
}

const receiptOf = (t: TxRecord) => t.receipt;

function flags(v: unknown): { skipValidate: boolean; skipFeeCharge: boolean } {
  const list = Array.isArray(v) ? v : [];
  return { skipValidate: list.includes("SKIP_VALIDATE"), skipFeeCharge: list.includes("SKIP_FEE_CHARGE") };
}

function txRecord(node: SandboxNode, p: Params): TxRecord {
  const t = node.tx(felt(p.transaction_hash, "transaction_hash"));
  if (!t) throw errors.txHashNotFound();
  return t;
}

function existingContract(node: SandboxNode, p: Params): bigint {
  if (!isPreConfirmed(p.block_id)) node.block(p.block_id);
  const a = felt(p.contract_address, "contract_address");
  if (!node.classHashAt(a)) throw errors.contractNotFound();
  return a;
}

export const METHODS: Record<string, Handler> = {
  starknet_specVersion: () => SPEC_VERSION,
  starknet_chainId: (n) => hex(n.chainId),
  starknet_syncing: () => false,
  starknet_blockNumber: (n) => n.height,
  starknet_blockHashAndNumber: (n) => ({ block_hash: n.latest.hash, block_number: n.latest.number }),
  starknet_getBlockWithTxHashes: (n, p) => (isPreConfirmed(p.block_id) ? preConfirmed(n) : { ...header(n, n.block(p.block_id)), transactions: n.block(p.block_id).txHashes }),
  starknet_getBlockWithTxs: (n, p) => {
    if (isPreConfirmed(p.block_id)) return preConfirmed(n);
    const b = n.block(p.block_id);
    return { ...header(n, b), transactions: n.txsInBlock(b).map((t) => t.tx) };
  },
  starknet_getBlockWithReceipts: (n, p) => {
    if (isPreConfirmed(p.block_id)) return preConfirmed(n);
    const b = n.block(p.block_id);
    return { ...header(n, b), transactions: n.txsInBlock(b).map((t) => ({ transaction: t.tx, receipt: strip(t.receipt) })) };
  },
  starknet_getBlockTransactionCount: (n, p) => (isPreConfirmed(p.block_id) ? 0 : n.block(p.block_id).txHashes.length),
  starknet_getNonce: (n, p) => hex(n.read(nonceKey(existingContract(n, p)))),
  starknet_getClassHashAt: (n, p) => n.classHashAt(existingContract(n, p)),
  starknet_getClassAt: (n, p) => classByHash(BigInt(n.classHashAt(existingContract(n, p))!)),
  starknet_getClass: (n, p) => {
    const c = classByHash(felt(p.class_hash, "class_hash"));
    if (!c) throw errors.classHashNotFound();
    return c;
  },
  starknet_call: (n, p) => {
    if (!isPreConfirmed(p.block_id)) n.block(p.block_id);
    const r = (p.request ?? {}) as Params;
    const calldata = Array.isArray(r.calldata) ? r.calldata.map((x, i) => felt(x, `calldata[${i}]`)) : [];
    return n.call(felt(r.contract_address, "contract_address"), felt(r.entry_point_selector, "entry_point_selector"), calldata);
  },
  starknet_estimateFee: (n, p) => {
    if (!isPreConfirmed(p.block_id)) n.block(p.block_id);
    const txs = Array.isArray(p.request) ? p.request.map(parseTx) : [];
    // Like a sequencer's fee estimation, no fee is charged (so an unfunded account can still be estimated).
    return n.dryRun(txs, { skipValidate: flags(p.simulation_flags).skipValidate, skipFeeCharge: true }).map((o, i) => {
      if (o.revertReason) throw errors.txExecutionError(i, o.revertReason);
      return o.estimate;
    });
  },
  starknet_simulateTransactions: (n, p) => {
    if (!isPreConfirmed(p.block_id)) n.block(p.block_id);
    const txs = Array.isArray(p.transactions) ? p.transactions.map(parseTx) : [];
    return n.dryRun(txs, flags(p.simulation_flags)).map((o) => ({ transaction_trace: o.trace, fee_estimation: o.estimate }));
  },
  starknet_addInvokeTransaction: (n, p) => {
    const tx = parseTx(p.invoke_transaction);
    if (tx.type !== "INVOKE") throw new RpcError(-32602, "Invalid params", "invoke_transaction must have type INVOKE");
    return { transaction_hash: hex(n.submit(tx).hash) };
  },
  starknet_addDeployAccountTransaction: (n, p) => {
    const tx = parseTx(p.deploy_account_transaction);
    if (tx.type !== "DEPLOY_ACCOUNT") throw new RpcError(-32602, "Invalid params", "deploy_account_transaction must have type DEPLOY_ACCOUNT");
    const out = n.submit(tx);
    return { transaction_hash: hex(out.hash), contract_address: hex(out.contractAddress!) };
  },
  starknet_getTransactionStatus: (n, p) => {
    if (n.pendingTx(felt(p.transaction_hash, "transaction_hash"))) return { finality_status: "RECEIVED" };
    const r = txRecord(n, p).receipt;
    return {
      finality_status: "ACCEPTED_ON_L2",
      execution_status: r.execution_status,
      ...(r.revert_reason ? { failure_reason: r.revert_reason } : {}),
    };
  },
  starknet_getTransactionReceipt: (n, p) => receiptOf(txRecord(n, p)),
  starknet_getTransactionByHash: (n, p) => n.pendingTx(felt(p.transaction_hash, "transaction_hash")) ?? txRecord(n, p).tx,
  starknet_getTransactionByBlockIdAndIndex: (n, p) => {
    const b = n.block(p.block_id);
    const h = b.txHashes[Number(p.index)];
    if (h === undefined) throw new RpcError(27, "Invalid transaction index in a block");
    return n.tx(BigInt(h))!.tx;
  },
  starknet_traceTransaction: (n, p) => txRecord(n, p).trace,
  starknet_getEvents: (n, p) => events(n, (p.filter ?? {}) as Params),
};

function strip(receipt: Record<string, unknown>) {
  const { block_hash: _h, block_number: _n, ...rest } = receipt;
  return rest;
}

const MAX_CHUNK = 1024;

function events(n: SandboxNode, f: Params) {
  const chunk = Number(f.chunk_size ?? 100);
  if (!Number.isInteger(chunk) || chunk < 1) throw new RpcError(-32602, "Invalid params", "chunk_size must be a positive integer");
  if (chunk > MAX_CHUNK) throw errors.pageSizeTooBig();
  const from = f.from_block === undefined ? 0 : isPreConfirmed(f.from_block) ? n.height + 1 : n.block(f.from_block).number;
  const to = f.to_block === undefined || isPreConfirmed(f.to_block) ? n.height : n.block(f.to_block).number;
  const address = f.address === undefined ? undefined : felt(f.address, "address");
  const keys = Array.isArray(f.keys) ? (f.keys as unknown[][]).map((alts) => (Array.isArray(alts) ? alts.map((k) => felt(k, "keys")) : [])) : [];
  let skip = 0;
  if (f.continuation_token !== undefined) {
    if (typeof f.continuation_token !== "string" || !/^\d+$/.test(f.continuation_token)) throw errors.invalidContinuationToken();
    skip = Number(f.continuation_token);
  }
  const out: Record<string, unknown>[] = [];
  let seen = 0;
  for (let b = from; b <= to; b++) {
    const block = n.blockByNumber(b);
    if (!block) break;
    for (const [ti, t] of n.txsInBlock(block).entries()) {
      const evs = t.receipt.events as { from_address: string; keys: string[]; data: string[] }[];
      for (const [ei, e] of evs.entries()) {
        if (address !== undefined && BigInt(e.from_address) !== address) continue;
        if (!keys.every((alts, i) => alts.length === 0 || (e.keys[i] !== undefined && alts.includes(BigInt(e.keys[i]!))))) continue;
        if (seen++ < skip) continue;
        if (out.length === chunk) return { events: out, continuation_token: String(skip + chunk) };
        out.push({ ...e, block_hash: block.hash, block_number: block.number, transaction_hash: t.hash, transaction_index: ti, event_index: ei });
      }
    }
  }
  return { events: out };
}

export function dispatch(node: SandboxNode, method: string, rawParams: unknown): unknown {
  const h = METHODS[method];
  if (!h) throw new RpcError(-32601, "Method not found");
  return h(node, params(method, rawParams));
}
