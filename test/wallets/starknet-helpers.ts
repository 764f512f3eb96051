/**
 * Starknet escrow test runtime: the escrow runtime (real service, real HTTP app, scripted judge) with its
 * sandbox Starknet node, read back through unmodified starknet.js (`RpcProvider`), funded through the
 * operator's sandbox fund route.
 */
import { RpcProvider, stark } from "starknet";
import { startEscrowRuntime, type EscrowRuntime } from "./helpers";

export const SN_TOKENS = {
  STRK: "0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d",
  ETH: "0x049d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7",
  USDC: "0x033068f6539f8e6e6b131e6b2b814e6c34a5224bc66947c47dab9dfee93b35fb",
  USDT: "0x068f5c6a61780768455de69077e07e89787839bf8166decfbf92b645209c0fb8",
} as const;
export type SnAsset = keyof typeof SN_TOKENS;

/** A fresh Starknet address nobody holds a key for (0x + 64 lowercase hex, below 2^251). */
export const freshFelt = (): string => "0x" + BigInt(stark.randomAddress()).toString(16).padStart(64, "0");

export async function startStarknetEscrow(opts: Parameters<typeof startEscrowRuntime>[0] = {}) {
  const e = await startEscrowRuntime(opts);
  const sn = e.runtime.starknet;
  if (!sn?.sandbox) throw new Error("the Starknet escrow test runtime needs the sandbox Starknet node");
  const provider = new RpcProvider({ nodeUrl: sn.sandbox.url });
  return withStarknet(e, provider);
}

export function withStarknet(e: EscrowRuntime, provider: RpcProvider) {
  return {
    ...e,
    provider,
    async createStarknetWallet(key: string, body: Record<string, unknown>) {
      const r = await e.json(await e.request("POST", "/api/v1/wallets", { key, body: { chain: "starknet", mode: "autonomous", mandate: "[judge:allow]", ...body } }));
      if (r.status !== 201) throw new Error(`create Starknet wallet: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body as { id: string; name: string; address: string; [k: string]: unknown };
    },
    async fundSn(address: string, asset: SnAsset, amount: string) {
      const r = await e.admin("POST", "/admin/v1/sandbox/fund", { chain: "starknet", address, asset, amount });
      if (r.status !== 200) throw new Error(`fund: ${r.status} ${await r.text()}`);
      const { txHash } = (await r.json()) as { txHash: string };
      await provider.waitForTransaction(txHash, { retryInterval: 20 });
      return txHash;
    },
    proposeSn: async (key: string, wallet: string, input: Record<string, unknown>, note?: string) =>
      e.json(await e.request("POST", `/api/v1/wallets/${encodeURIComponent(wallet)}/propose`, { key, body: { input: { chain: "starknet", ...input }, ...(note ? { note } : {}) } })),
    /** A token balance read with starknet.js (u256 low + high). */
    async snBalance(asset: SnAsset, owner: string): Promise<bigint> {
      const [low, high] = await provider.callContract({ contractAddress: SN_TOKENS[asset], entrypoint: "balance_of", calldata: [owner] });
      return BigInt(low!) + (BigInt(high!) << 128n);
    },
    /** The account's nonce through starknet.js; null before the account is deployed. */
    async snNonce(address: string): Promise<bigint | null> {
      try {
        return BigInt(await provider.getNonceForAddress(address));
      } catch {
        return null;
      }
    },
  };
}
export type StarknetEscrow = ReturnType<typeof withStarknet>;
