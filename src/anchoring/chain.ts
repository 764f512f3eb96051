/**
 * What anchoring needs from a chain: sign and send one `anchor(batchId, root, leafCount)` transaction to the
 * anchor contract, follow it, and read back what the contract holds. The EVM implementation is
 * src/chains/evm/anchor.ts; the anchoring service never imports a chain SDK.
 */
export type Hex = `0x${string}`;

export interface SignedAnchorTx {
  hash: Hex;
  /** The signed transaction, stored before it is broadcast so a restart can re-send the same bytes. */
  raw: Hex;
  nonce: number;
}

export interface AnchorTxReceipt {
  success: boolean;
  blockNumber: bigint;
  blockHash: Hex;
  gasUsed: bigint;
}

export interface AnchorChain {
  readonly chainId: number;
  readonly contract: Hex;
  /** The anchor key's address: the contract keys roots by sender. */
  readonly anchorer: Hex;
  /** Signs (does not send) the anchor call with the anchor key's next pending nonce. */
  sign(batch: { id: bigint; root: Hex; leafCount: number }): Promise<SignedAnchorTx>;
  /**
   * Sends signed bytes. `sent` or `known`: the node has it. `nonce_used`: another transaction took its nonce
   * (ours was mined, or replaced, or a second process sent with the same nonce): the caller re-reads the chain.
   */
  broadcast(raw: Hex): Promise<"sent" | "known" | "nonce_used">;
  /** The receipt of `hash`, or null while it is not mined (or was dropped or reorged out). */
  receipt(hash: Hex): Promise<AnchorTxReceipt | null>;
  head(): Promise<bigint>;
  /** The root the contract holds for (anchorer, batchId) at the latest block; null when none. */
  rootOf(batchId: bigint): Promise<Hex | null>;
  /** The transaction that emitted Anchored(anchorer, batchId), searching from `fromBlock`. */
  findAnchor(batchId: bigint, fromBlock: bigint): Promise<{ hash: Hex; blockNumber: bigint; blockHash: Hex } | null>;
  explorerTxUrl(hash: Hex): string | null;
}
