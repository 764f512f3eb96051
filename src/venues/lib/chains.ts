/** EVM chain ids and the names the rules engine compares against ("Operate only on Ethereum mainnet"). */
import { bigInt } from "./util";

export const EVM_CHAINS: Record<number, string> = {
  1: "ethereum",
  10: "optimism",
  56: "bsc",
  130: "unichain",
  137: "polygon",
  324: "zksync",
  999: "hyperevm",
  8453: "base",
  42161: "arbitrum",
  43114: "avalanche",
  59144: "linea",
  534352: "scroll",
  11155111: "sepolia",
  84532: "base-sepolia",
  421614: "arbitrum-sepolia",
};

const NAME_TO_ID: Record<string, number> = Object.fromEntries(Object.entries(EVM_CHAINS).map(([id, name]) => [name, Number(id)]));
Object.assign(NAME_TO_ID, { mainnet: 1, eth: 1, arbitrumone: 42161, arb: 42161, matic: 137, op: 10 });

/** chainId given as number, decimal or hex string, or CAIP-2 "eip155:8453"; also a chain name. */
export function parseChainId(v: unknown): number | null {
  if (typeof v === "string") {
    const s = v.trim().toLowerCase();
    const caip = /^eip155:(\d+)$/.exec(s);
    if (caip) return Number(caip[1]);
    if (Object.prototype.hasOwnProperty.call(NAME_TO_ID, s)) return NAME_TO_ID[s];
  }
  const b = bigInt(v);
  if (b === null || b <= 0n || b > 2n ** 53n) return null;
  return Number(b);
}

export const chainName = (id: number | null): string | null => (id === null ? null : (EVM_CHAINS[id] ?? `eip155:${id}`));

/** x402 / CAIP-2 network -> our chain name; v1 used bare names such as "base". */
export function networkToChain(network: unknown): { chain: string | null; chainId: number | null; kind: "evm" | "solana" | null } {
  if (typeof network !== "string") return { chain: null, chainId: null, kind: null };
  const s = network.trim().toLowerCase();
  if (s.startsWith("solana")) {
    const devnet = s.includes("devnet") || s.includes("etwtrabzayq6imfeykouru166vu2xqa1");
    return { chain: devnet ? "solana-devnet" : "solana", chainId: null, kind: "solana" };
  }
  const id = parseChainId(s);
  if (id !== null) return { chain: chainName(id), chainId: id, kind: "evm" };
  return { chain: s || null, chainId: null, kind: null };
}
