/**
 * The sandbox chain's read-only explorer views (served at /sandbox/explorer so the sandbox's explorer links
 * resolve). JSON shapes are this route's own, not SPEC's.
 */
import { getAddress, type Address, type Hex } from "viem";
import type { ExplorerView } from "../port";
import { readBalances } from "./balances";
import type { EvmChain } from "./chain";

export function evmExplorerView(chain: EvmChain): ExplorerView {
  return {
    async transaction(hash) {
      if (!/^0x[0-9a-fA-F]{64}$/.test(hash)) return null;
      const [tx, receipt] = await Promise.all([chain.client.getTransaction({ hash: hash as Hex }).catch(() => null), chain.client.getTransactionReceipt({ hash: hash as Hex }).catch(() => null)]);
      if (!tx) return null;
      return {
        hash: tx.hash,
        chain: chain.info.caip2,
        status: receipt ? receipt.status : "pending",
        blockNumber: receipt ? receipt.blockNumber.toString() : null,
        from: getAddress(tx.from),
        to: tx.to ? getAddress(tx.to) : null,
        nonce: tx.nonce,
        type: tx.type,
        value: tx.value.toString(),
        input: tx.input,
        gasUsed: receipt ? receipt.gasUsed.toString() : null,
        logs: receipt ? receipt.logs.map((l) => ({ address: l.address, topics: l.topics, data: l.data })) : [],
      };
    },
    async account(address) {
      if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return null;
      const [balances, nonce, code] = await Promise.all([readBalances(chain, address as Address), chain.client.getTransactionCount({ address: address as Address }), chain.client.getCode({ address: address as Address })]);
      return { address, chain: chain.info.caip2, nonce, code: code ?? "0x", balances };
    },
  };
}
