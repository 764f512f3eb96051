/**
 * What the chain says about an EIP-3009 authorization, read over our own RPC (never the facilitator's
 * word alone): whether (authorizer, nonce) is used, and the settlement transaction that used it, checked
 * to be a USDC Transfer(from -> payTo, value) in the same transaction as AuthorizationUsed.
 *
 * RPC failures are FacilitatorUnavailableErrors (502 facilitator_unavailable + Retry-After): the payer
 * retries with the same PAYMENT-SIGNATURE and nothing is decided meanwhile.
 */
import { getAddress, isAddressEqual, parseAbi, parseEventLogs, verifyTypedData, type Address, type Hex, type PublicClient } from "viem";
import { authorizationTypes } from "@x402/evm";
import { FacilitatorUnavailableError } from "../../x402";
import type { Eip3009Authorization } from "../../x402";

export const EIP3009_ABI = parseAbi([
  "function authorizationState(address authorizer, bytes32 nonce) view returns (bool)",
  "event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)",
  "event Transfer(address indexed from, address indexed to, uint256 value)",
]);

export interface SettlementQuery {
  asset: Address;
  authorizer: Address;
  nonce: Hex;
  payTo: Address;
  value: bigint;
  /** Unix seconds: the settlement cannot be older than this (bounds the log search). */
  notBefore: number;
}

export type SettlementEvidence =
  /** AuthorizationUsed and a matching Transfer in one successful transaction. */
  | { kind: "found"; txHash: Hex; blockNumber: bigint; sender: Address }
  /** The authorization was used, but that transaction did not pay `value` to `payTo`. */
  | { kind: "mismatch"; txHash: Hex }
  /** No AuthorizationUsed event in the searched window (canceled, or older than notBefore). */
  | { kind: "not_found" };

export interface ChainEvidenceOptions {
  /** Blocks per eth_getLogs call (public Base RPCs accept a few thousand). */
  chunkBlocks?: bigint;
  /** Most chunks searched backwards from the latest block. */
  maxChunks?: number;
  retryAfterSeconds?: number;
}

export function createChainEvidence(client: PublicClient, opts: ChainEvidenceOptions = {}) {
  const chunk = opts.chunkBlocks ?? 2_000n;
  const maxChunks = opts.maxChunks ?? 100;
  const rpcDown = (e: unknown) =>
    new FacilitatorUnavailableError("verify", `Base RPC unavailable: ${e instanceof Error ? e.message.split("\n")[0] : String(e)}`, {
      cause: e,
      retryAfterSeconds: opts.retryAfterSeconds,
    });
  const rpc = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (e) {
      throw rpcDown(e);
    }
  };

  return {
    /** `authorizationState(authorizer, nonce)` on the token: true once used (or canceled). */
    isAuthorizationUsed: (asset: Address, authorizer: Address, nonce: Hex): Promise<boolean> =>
      rpc(() => client.readContract({ address: asset, abi: EIP3009_ABI, functionName: "authorizationState", args: [authorizer, nonce] })),

    /** The payer is a contract or an EIP-7702-delegated account (it has code). */
    hasCode: async (address: Address): Promise<boolean> => {
      const code = await rpc(() => client.getCode({ address }));
      return !!code && code !== "0x";
    },

    /** The EIP-712 signature of the authorization verifies (EOA, ERC-1271 or ERC-6492), as the token would check it. */
    signatureValid: (domain: { name: string; version: string; chainId: number; verifyingContract: Address }, a: Eip3009Authorization, signature: Hex) =>
      rpc(async () => {
        const message = {
          from: a.from,
          to: a.to,
          value: BigInt(a.value),
          validAfter: BigInt(a.validAfter),
          validBefore: BigInt(a.validBefore),
          nonce: a.nonce,
        };
        const args = { address: a.from, domain, types: authorizationTypes, primaryType: "TransferWithAuthorization" as const, message, signature };
        // Offline first (EOAs); the RPC path covers contract and delegated signers.
        if (await verifyTypedData(args).catch(() => false)) return true;
        return client.verifyTypedData(args);
      }),

    /** A settlement transaction checked against the query (used right after the facilitator reports success). */
    checkTransaction: async (txHash: Hex, q: SettlementQuery, timeoutMs = 30_000): Promise<SettlementEvidence> => {
      const receipt = await rpc(() => client.waitForTransactionReceipt({ hash: txHash, timeout: timeoutMs }));
      return judgeReceipt(receipt, q);
    },

    /** Searches backwards from the latest block for the transaction that used the authorization. */
    findSettlement: async (q: SettlementQuery): Promise<SettlementEvidence> => {
      const latest = await rpc(() => client.getBlock({ blockTag: "latest" }));
      let to = latest.number;
      for (let i = 0; i < maxChunks && to >= 0n; i++) {
        const from = to >= chunk - 1n ? to - chunk + 1n : 0n;
        const logs = await rpc(() =>
          client.getLogs({ address: q.asset, event: EIP3009_ABI[1], args: { authorizer: q.authorizer, nonce: q.nonce }, fromBlock: from, toBlock: to }),
        );
        const hit = logs.find((l) => l.transactionHash);
        if (hit?.transactionHash) {
          const receipt = await rpc(() => client.getTransactionReceipt({ hash: hit.transactionHash as Hex }));
          return judgeReceipt(receipt, q);
        }
        if (from === 0n) break;
        const start = await rpc(() => client.getBlock({ blockNumber: from }));
        if (Number(start.timestamp) < q.notBefore) break;
        to = from - 1n;
      }
      return { kind: "not_found" };
    },
  };
}

export type ChainEvidence = ReturnType<typeof createChainEvidence>;

type Receipt = Awaited<ReturnType<PublicClient["getTransactionReceipt"]>>;

function judgeReceipt(receipt: Receipt, q: SettlementQuery): SettlementEvidence {
  if (receipt.status !== "success") return { kind: "mismatch", txHash: receipt.transactionHash };
  const fromAsset = receipt.logs.filter((l) => isAddressEqual(l.address, q.asset));
  const used = parseEventLogs({ abi: EIP3009_ABI, eventName: "AuthorizationUsed", logs: fromAsset }).some(
    (l) => isAddressEqual(l.args.authorizer, q.authorizer) && l.args.nonce.toLowerCase() === q.nonce.toLowerCase(),
  );
  const paid = parseEventLogs({ abi: EIP3009_ABI, eventName: "Transfer", logs: fromAsset }).some(
    (l) => isAddressEqual(l.args.from, q.authorizer) && isAddressEqual(l.args.to, q.payTo) && l.args.value === q.value,
  );
  if (!used || !paid) return { kind: "mismatch", txHash: receipt.transactionHash };
  return { kind: "found", txHash: receipt.transactionHash, blockNumber: receipt.blockNumber, sender: getAddress(receipt.from) };
}
