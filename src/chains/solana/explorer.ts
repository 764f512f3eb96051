/**
 * Explorer links. Sandbox: the service's own sandbox explorer. Otherwise Solana Explorer, with the cluster
 * chosen from the genesis hash: mainnet-beta (no parameter, Explorer's default), devnet and testnet by
 * name, any other cluster as `cluster=custom` with the RPC URL.
 */
export const MAINNET_GENESIS = "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d";
export const DEVNET_GENESIS = "EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG";
export const TESTNET_GENESIS = "4uhcVJyU9pJkvQyS88uRDiswHXSCkY3zQawwpjk2NsNY";

export interface SolanaExplorer {
  tx(signature: string): string | null;
  address(address: string): string | null;
}

export function solanaExplorer(o: { sandboxBaseUrl: string | null; genesisHash: string; rpcUrl: string }): SolanaExplorer {
  if (o.sandboxBaseUrl) {
    const base = o.sandboxBaseUrl.replace(/\/+$/, "");
    return { tx: (s) => `${base}/tx/${s}`, address: (a) => `${base}/address/${a}` };
  }
  const q =
    o.genesisHash === MAINNET_GENESIS
      ? ""
      : o.genesisHash === DEVNET_GENESIS
        ? "?cluster=devnet"
        : o.genesisHash === TESTNET_GENESIS
          ? "?cluster=testnet"
          : `?cluster=custom&customUrl=${encodeURIComponent(o.rpcUrl)}`;
  return { tx: (s) => `https://explorer.solana.com/tx/${s}${q}`, address: (a) => `https://explorer.solana.com/address/${a}${q}` };
}
