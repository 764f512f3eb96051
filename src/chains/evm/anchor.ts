/**
 * The EVM side of receipt anchoring (src/anchoring/chain.ts): `ReceiptAnchor.anchor(batchId, root, leafCount)`
 * signed by the anchor key, plus the reads a verifier needs (`readAnchoredRoot`, used by the CLI's `--rpc`).
 */
import { createPublicClient, decodeEventLog, defineChain, encodeFunctionData, http, keccak256, type Hex, type PublicClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { ReceiptAnchorAbi } from "../../sandbox/contracts";
import type { AnchorChain } from "../../anchoring/chain";

/** Ample for the first write of a batch (one new storage slot and one event, roughly 47k); a no-op retry uses less. */
const ANCHOR_GAS_LIMIT = 120_000n;

function client(rpcUrl: string, chainId: number): PublicClient {
  const chain = defineChain({ id: chainId, name: `eip155:${chainId}`, nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 }, rpcUrls: { default: { http: [rpcUrl] } } });
  return createPublicClient({ chain, transport: http(rpcUrl, { retryCount: 2, retryDelay: 200, timeout: 20_000 }) }) as PublicClient;
}

const ZERO32 = `0x${"0".repeat(64)}`;

/** The root `anchorer` stored for `batchId` in the anchor contract at `contract`; null when none. */
export async function readAnchoredRoot(rpcUrl: string, contract: Hex, anchorer: Hex, batchId: bigint): Promise<{ root: Hex | null; chainId: number }> {
  const probe = createPublicClient({ transport: http(rpcUrl, { retryCount: 1, timeout: 20_000 }) });
  const chainId = await probe.getChainId();
  const root = await probe.readContract({ address: contract, abi: ReceiptAnchorAbi, functionName: "rootOf", args: [anchorer, batchId] });
  return { root: root === ZERO32 ? null : root, chainId };
}

export function createEvmAnchorChain(o: { rpcUrl: string; chainId: number; privateKey: Hex; contract: Hex; explorerTxUrl: (hash: Hex) => string | null }): AnchorChain {
  const account = privateKeyToAccount(o.privateKey);
  const pub = client(o.rpcUrl, o.chainId);
  const contract = o.contract;

  return {
    chainId: o.chainId,
    contract,
    anchorer: account.address,

    async sign(batch) {
      const [nonce, fees] = await Promise.all([pub.getTransactionCount({ address: account.address, blockTag: "pending" }), pub.estimateFeesPerGas()]);
      const data = encodeFunctionData({ abi: ReceiptAnchorAbi, functionName: "anchor", args: [batch.id, batch.root, batch.leafCount] });
      // Head room on the fee so a stored transaction stays includable for a while as the base fee moves.
      const maxFeePerGas = fees.maxFeePerGas * 2n;
      const raw = await account.signTransaction({
        type: "eip1559",
        chainId: o.chainId,
        nonce,
        to: contract,
        data,
        value: 0n,
        gas: ANCHOR_GAS_LIMIT,
        maxFeePerGas,
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas > maxFeePerGas ? maxFeePerGas : fees.maxPriorityFeePerGas,
      });
      return { hash: keccak256(raw), raw, nonce };
    },

    async broadcast(raw) {
      try {
        await pub.sendRawTransaction({ serializedTransaction: raw });
        return "sent";
      } catch (e) {
        const msg = errorText(e);
        if (/already known|already imported|known transaction|already exists/i.test(msg)) return "known";
        if (/nonce too low|nonce.*(used|consumed)|replacement transaction underpriced|underpriced/i.test(msg)) return "nonce_used";
        throw e;
      }
    },

    async receipt(hash) {
      try {
        const r = await pub.getTransactionReceipt({ hash });
        return { success: r.status === "success", blockNumber: r.blockNumber, blockHash: r.blockHash, gasUsed: r.gasUsed };
      } catch (e) {
        if (/could not be found|not found/i.test(errorText(e))) return null;
        throw e;
      }
    },

    head: () => pub.getBlockNumber({ cacheTime: 0 }),

    async rootOf(batchId) {
      const root = await pub.readContract({ address: contract, abi: ReceiptAnchorAbi, functionName: "rootOf", args: [account.address, batchId] });
      return root === ZERO32 ? null : root;
    },

    async findAnchor(batchId, fromBlock) {
      const logs = await pub.getLogs({
        address: contract,
        event: ReceiptAnchorAbi.find((x) => x.type === "event" && x.name === "Anchored") as Extract<(typeof ReceiptAnchorAbi)[number], { type: "event" }>,
        args: { anchorer: account.address, batchId },
        fromBlock,
        toBlock: "latest",
      });
      const log = logs.find((l) => !l.removed && decodeEventLog({ abi: ReceiptAnchorAbi, data: l.data, topics: l.topics }).eventName === "Anchored");
      return log && log.transactionHash && log.blockNumber !== null && log.blockHash ? { hash: log.transactionHash, blockNumber: log.blockNumber, blockHash: log.blockHash } : null;
    },

    explorerTxUrl: o.explorerTxUrl,
  };
}

function errorText(e: unknown): string {
  const parts: string[] = [];
  let cur: unknown = e;
  for (let i = 0; cur && i < 6; i++) {
    const err = cur as { message?: string; details?: string; shortMessage?: string; cause?: unknown };
    parts.push(err.shortMessage ?? "", err.details ?? "", err.message ?? "");
    cur = err.cause;
  }
  return parts.join(" | ");
}

/**
 * The deployment's anchor chain, or null with the reason anchoring is off: the sandbox anchors with its
 * derived key to its ReceiptAnchor; Base needs ANCHOR_PRIVATE_KEY and ANCHOR_CONTRACT_ADDRESS.
 */
export function anchorChainFor(
  config: { ANCHORING?: boolean; ANCHOR_PRIVATE_KEY?: string; ANCHOR_CONTRACT_ADDRESS?: string },
  chain: { base: { rpcUrl: string; info: { chainId: number }; explorerTxUrl(hash: Hex): string | null }; sandbox: { accounts: { anchorKey: Hex }; addresses: { receiptAnchor: Hex } } | null } | null,
): { chain: AnchorChain | null; reason: string | null } {
  if (config.ANCHORING === false) return { chain: null, reason: "ANCHORING=false" };
  if (!chain) return { chain: null, reason: "no chain (neither the sandbox nor BASE_RPC_URL)" };
  const privateKey = (config.ANCHOR_PRIVATE_KEY as Hex | undefined) ?? chain.sandbox?.accounts.anchorKey;
  const contract = (config.ANCHOR_CONTRACT_ADDRESS as Hex | undefined) ?? chain.sandbox?.addresses.receiptAnchor;
  if (!privateKey || !contract) return { chain: null, reason: "ANCHOR_PRIVATE_KEY and ANCHOR_CONTRACT_ADDRESS are required on Base" };
  const base = chain.base;
  return { chain: createEvmAnchorChain({ rpcUrl: base.rpcUrl, chainId: base.info.chainId, privateKey, contract, explorerTxUrl: (h) => base.explorerTxUrl(h) }), reason: null };
}
