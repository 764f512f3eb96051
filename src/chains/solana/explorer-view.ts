/**
 * What the sandbox explorer shows for Solana (read over the cluster's JSON-RPC, so it shows exactly what
 * any client sees): a transaction by signature, an address with its balances and latest signatures.
 */
import type { Address, Signature } from "@solana/kit";
import type { SolanaAdapter } from "./adapter";

export interface SolanaExplorerView {
  caip2: string;
  tx(signature: string): Promise<Record<string, unknown> | null>;
  address(address: string): Promise<Record<string, unknown> | null>;
}

const plain = (v: unknown) => JSON.parse(JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? x.toString() : x))) as Record<string, unknown>;

export function solanaExplorerView(adapter: SolanaAdapter): SolanaExplorerView {
  const rpc = adapter.client.rpc;
  return {
    caip2: adapter.info.caip2,
    async tx(signature) {
      if (!/^[1-9A-HJ-NP-Za-km-z]{64,88}$/.test(signature)) return null;
      const t = await rpc.getTransaction(signature as Signature, { encoding: "json", maxSupportedTransactionVersion: 0 }).send().catch(() => null);
      if (!t) return null;
      const msg = t.transaction.message as unknown as { accountKeys: string[] };
      return plain({
        signature,
        chain: adapter.info.caip2,
        status: t.meta?.err ? "failed" : "success",
        err: t.meta?.err ?? null,
        slot: t.slot,
        blockTime: t.blockTime,
        fee: t.meta?.fee,
        feePayer: msg.accountKeys[0],
        accounts: msg.accountKeys,
        logs: t.meta?.logMessages ?? [],
      });
    },
    async address(address) {
      if (adapter.address.validate(address) !== null) return null;
      const [balances, sigs] = await Promise.all([adapter.balances(address), rpc.getSignaturesForAddress(address as Address, { limit: 25 }).send()]);
      return plain({ address, chain: adapter.info.caip2, balances, signatures: sigs.map((s) => ({ signature: s.signature, slot: s.slot, err: s.err, explorerUrl: adapter.explorerTxUrl(s.signature) })) });
    },
  };
}
