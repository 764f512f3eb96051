import { decodeEventLog, parseAbiItem } from "viem";
import { RECEIPT_ANCHOR, sandboxPublicClient } from "../../src/sandbox";
import { ReceiptAnchorAbi } from "../../src/sandbox/contracts";
export { until } from "../helpers/process";

const ANCHORED = parseAbiItem("event Anchored(address indexed anchorer, uint64 indexed batchId, bytes32 root, uint32 leafCount)");

/** Every Anchored event the contract emitted, decoded. */
export async function anchoredEvents(rpcUrl: string) {
  const logs = await sandboxPublicClient(rpcUrl).getLogs({ address: RECEIPT_ANCHOR, event: ANCHORED, fromBlock: 0n, toBlock: "latest" });
  return logs.map((l) => ({ ...decodeEventLog({ abi: ReceiptAnchorAbi, data: l.data, topics: l.topics }).args, tx: l.transactionHash }) as { anchorer: string; batchId: bigint; root: string; leafCount: number; tx: string });
}
