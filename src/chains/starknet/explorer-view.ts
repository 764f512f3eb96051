/**
 * What the sandbox explorer shows for Starknet (read over the node's JSON-RPC, so it shows exactly what any
 * client sees): a transaction by hash with its decoded multicall, status, fee and token transfers; a
 * contract address with its class, nonce and token balances. Served at /sandbox/explorer/starknet through
 * the generic sandbox explorer route; production links go to Voyager.
 */
import { formatUnits } from "../../lib/money";
import type { ExplorerView } from "../port";
import { STARKNET_TOKENS, SEL } from "./constants";
import type { createStarknetAdapter } from "./adapter";
import { normaliseAddress, parseFelt, toAddress, toFeltHex } from "./felt";
import { orNullOn } from "./rpc-client";

type StarknetAdapter = ReturnType<typeof createStarknetAdapter>;

const HASH = /^0x[0-9a-fA-F]{1,64}$/;
const SELECTOR_NAMES = new Map<bigint, string>(Object.entries(SEL).map(([name, sel]) => [sel, name]));

interface RpcTx {
  type: string;
  sender_address?: string;
  contract_address_salt?: string;
  class_hash?: string;
  nonce?: string;
  calldata?: string[];
}
interface RpcReceipt {
  execution_status: string;
  finality_status: string;
  revert_reason?: string;
  actual_fee?: { amount: string; unit: string };
  block_number?: number;
  contract_address?: string;
  events?: { from_address: string; keys: string[]; data: string[] }[];
}

/** The `__execute__` calldata of a Cairo 1 account as calls: [n, (to, selector, len, ...data)*]. */
function decodeCalls(cd: string[]): { contractAddress: string; entrypoint: string; calldata: string[] }[] | null {
  try {
    const n = Number(BigInt(cd[0]!));
    const out = [];
    let i = 1;
    for (let k = 0; k < n; k++) {
      const to = BigInt(cd[i]!);
      const sel = BigInt(cd[i + 1]!);
      const len = Number(BigInt(cd[i + 2]!));
      out.push({ contractAddress: toAddress(to), entrypoint: SELECTOR_NAMES.get(sel) ?? `selector ${cd[i + 1]}`, calldata: cd.slice(i + 3, i + 3 + len) });
      i += 3 + len;
    }
    return i === cd.length ? out : null;
  } catch {
    return null;
  }
}

/** Transfer events of the four tokens, in whole units. */
function transfers(events: RpcReceipt["events"]) {
  const out = [];
  for (const e of events ?? []) {
    const token = STARKNET_TOKENS.find((t) => BigInt(t.address) === BigInt(e.from_address));
    if (!token || e.keys.length !== 3 || BigInt(e.keys[0]!) !== SEL.Transfer || e.data.length !== 2) continue;
    const amount = BigInt(e.data[0]!) + (BigInt(e.data[1]!) << 128n);
    out.push({ asset: token.symbol, contract: token.address, from: toAddress(BigInt(e.keys[1]!)), to: toAddress(BigInt(e.keys[2]!)), amount: formatUnits(amount, token.decimals) });
  }
  return out;
}

export function starknetExplorerView(adapter: StarknetAdapter): ExplorerView {
  const { rpc } = adapter;
  return {
    async transaction(hash) {
      let h: string;
      try {
        if (!HASH.test(hash)) return null;
        h = toFeltHex(parseFelt(hash));
      } catch {
        return null;
      }
      const tx = await orNullOn([29], () => rpc.call<RpcTx>("starknet_getTransactionByHash", { transaction_hash: h }));
      if (!tx) return null;
      const receipt = await orNullOn([29], () => rpc.call<RpcReceipt>("starknet_getTransactionReceipt", { transaction_hash: h }));
      const calls = tx.type === "INVOKE" && tx.calldata ? decodeCalls(tx.calldata) : null;
      return {
        hash: h,
        chain: adapter.info.caip2,
        type: tx.type,
        status: receipt ? (receipt.execution_status === "REVERTED" ? "reverted" : "succeeded") : "received (waiting for an earlier nonce)",
        finality: receipt?.finality_status ?? "RECEIVED",
        blockNumber: receipt?.block_number ?? null,
        senderAddress: tx.sender_address ? toAddress(BigInt(tx.sender_address)) : receipt?.contract_address ? toAddress(BigInt(receipt.contract_address)) : null,
        nonce: tx.nonce ? BigInt(tx.nonce).toString() : null,
        ...(tx.type === "DEPLOY_ACCOUNT" ? { classHash: tx.class_hash ?? null } : {}),
        calls: calls ?? [],
        fee: receipt?.actual_fee ? `${formatUnits(BigInt(receipt.actual_fee.amount), 18)} STRK` : null,
        revertReason: receipt?.revert_reason ?? null,
        transfers: transfers(receipt?.events),
      };
    },
    async account(address) {
      let a: string;
      try {
        a = normaliseAddress(address);
      } catch {
        return null;
      }
      const classHash = await orNullOn([20], () => rpc.call<string>("starknet_getClassHashAt", { block_id: "latest", contract_address: a }));
      const nonce = classHash === null ? null : await rpc.call<string>("starknet_getNonce", { block_id: "latest", contract_address: a });
      const balances = await adapter.balances(a);
      return {
        address: a,
        chain: adapter.info.caip2,
        deployed: classHash !== null,
        classHash,
        nonce: nonce === null ? null : BigInt(nonce).toString(),
        balances: balances.map((b) => ({ asset: b.symbol, contract: b.tokenAddress, amount: b.amountFormatted })),
      };
    },
  };
}
