/**
 * What a simulated transaction does to the wallet, read from its logs. Pure: no I/O, unit-tested.
 *
 * - ERC-20 `Transfer(from, to, value)` (3 topics) touching the wallet: a transfer in or out.
 * - Native ETH: eth_simulateV1 with `traceTransfers` reports value moves as ERC-20-style Transfer logs
 *   from the pseudo-address 0xEeee...EEeE; the debug_traceCall fallback turns call frames with value
 *   into the same shape, so both paths share this reader.
 * - WETH9 `Deposit`/`Withdrawal` (minting and burning wrapped ETH emit no Transfer).
 * - ERC-20 `Approval(owner, spender, value)` by the wallet: a grant that lets the spender move funds
 *   later without a proposal, so limits count it as money out (see proposals/limits.ts).
 * - ERC-721/1155 transfers and `ApprovalForAll` are reported with warnings (never priced).
 */
import { getAddress, type Address, type Hex } from "viem";

export const NATIVE_PSEUDO_ADDRESS = "0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee";
export const TOPIC_TRANSFER = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
export const TOPIC_APPROVAL = "0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925";
export const TOPIC_APPROVAL_FOR_ALL = "0x17307eab39ab6107e8899845ad3d59bd9653f200f220920489ca2b5937696c31";
export const TOPIC_WETH_DEPOSIT = "0xe1fffcc4923d04b559f4d29a8bfc6cda04eb5b0d3c460751c2402c5c5cc9109c";
export const TOPIC_WETH_WITHDRAWAL = "0x7fcf532c15f0a6db0bd6d0e038bea71d30d808c7d98cb3bf7268a95bf5081b65";
export const TOPIC_ERC1155_SINGLE = "0xc3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62";
export const MAX_UINT256 = (1n << 256n) - 1n;

export interface RawLog {
  address: string;
  topics: string[];
  data: string;
}

/** A change before token metadata and prices are attached. `token` is "native" or a lower-case address. */
export interface RawChange {
  direction: "in" | "out";
  assetType: "native" | "erc20" | "erc721" | "erc1155";
  changeType: "transfer" | "approval" | "approval_for_all";
  token: string;
  rawAmount: bigint;
  counterparty: Address;
  /** Approvals of 2^256-1 (or >= 2^255, the usual "infinite" encodings). */
  unlimited: boolean;
}

const topicAddress = (t: string | undefined): Address | null => (t && /^0x[0-9a-fA-F]{64}$/.test(t) ? getAddress(`0x${t.slice(26)}`) : null);
const word = (data: string, i: number): bigint | null => {
  const hex = data.startsWith("0x") ? data.slice(2) : data;
  const w = hex.slice(i * 64, i * 64 + 64);
  return w.length === 64 ? BigInt(`0x${w}`) : null;
};

export interface ExtractResult {
  changes: RawChange[];
  warnings: string[];
}

export function extractChanges(wallet: string, logs: RawLog[], wethAddress: string | null): ExtractResult {
  const me = wallet.toLowerCase();
  const changes: RawChange[] = [];
  const warnings = new Set<string>();
  for (const log of logs) {
    const addr = log.address.toLowerCase();
    const t0 = log.topics[0]?.toLowerCase();
    if (t0 === TOPIC_TRANSFER) {
      const from = topicAddress(log.topics[1]);
      const to = topicAddress(log.topics[2]);
      if (!from || !to) continue;
      const fromMe = from.toLowerCase() === me;
      const toMe = to.toLowerCase() === me;
      if (!fromMe && !toMe) continue;
      if (fromMe && toMe) continue; // a move to itself changes nothing
      const native = addr === NATIVE_PSEUDO_ADDRESS;
      if (log.topics.length === 4 && !native) {
        changes.push({ direction: fromMe ? "out" : "in", assetType: "erc721", changeType: "transfer", token: addr, rawAmount: 1n, counterparty: fromMe ? to : from, unlimited: false });
        warnings.add(`an NFT (ERC-721 ${addr}) ${fromMe ? "leaves" : "enters"} the wallet; NFTs are not priced`);
        continue;
      }
      const value = word(log.data, 0);
      if (value === null || value === 0n) continue;
      changes.push({ direction: fromMe ? "out" : "in", assetType: native ? "native" : "erc20", changeType: "transfer", token: native ? "native" : addr, rawAmount: value, counterparty: fromMe ? to : from, unlimited: false });
    } else if (t0 === TOPIC_APPROVAL) {
      const owner = topicAddress(log.topics[1]);
      const spender = topicAddress(log.topics[2]);
      if (!owner || !spender || owner.toLowerCase() !== me) continue;
      if (log.topics.length === 4) {
        warnings.add(`the wallet approves ${spender} to move an NFT of ${addr}`);
        changes.push({ direction: "out", assetType: "erc721", changeType: "approval", token: addr, rawAmount: 1n, counterparty: spender, unlimited: false });
        continue;
      }
      const value = word(log.data, 0);
      if (value === null) continue;
      const unlimited = value >= 1n << 255n;
      if (unlimited) warnings.add(`unlimited approval: ${spender} may move all of the wallet's ${addr} at any time`);
      // A zero approval revokes a grant: reported, moves nothing.
      changes.push({ direction: "out", assetType: "erc20", changeType: "approval", token: addr, rawAmount: value, counterparty: spender, unlimited });
    } else if (t0 === TOPIC_APPROVAL_FOR_ALL) {
      const owner = topicAddress(log.topics[1]);
      const operator = topicAddress(log.topics[2]);
      const approved = word(log.data, 0);
      if (!owner || !operator || owner.toLowerCase() !== me || !approved) continue;
      warnings.add(`the wallet lets ${operator} move every token of collection ${addr} (setApprovalForAll)`);
      changes.push({ direction: "out", assetType: "erc721", changeType: "approval_for_all", token: addr, rawAmount: 0n, counterparty: operator, unlimited: true });
    } else if (t0 === TOPIC_ERC1155_SINGLE) {
      const from = topicAddress(log.topics[2]);
      const to = topicAddress(log.topics[3]);
      if (!from || !to) continue;
      const fromMe = from.toLowerCase() === me;
      const toMe = to.toLowerCase() === me;
      if (fromMe === toMe) continue;
      const amount = word(log.data, 1) ?? 0n;
      changes.push({ direction: fromMe ? "out" : "in", assetType: "erc1155", changeType: "transfer", token: addr, rawAmount: amount, counterparty: fromMe ? to : from, unlimited: false });
      warnings.add(`an ERC-1155 token of ${addr} ${fromMe ? "leaves" : "enters"} the wallet; it is not priced`);
    } else if (wethAddress && addr === wethAddress.toLowerCase() && (t0 === TOPIC_WETH_DEPOSIT || t0 === TOPIC_WETH_WITHDRAWAL)) {
      const who = topicAddress(log.topics[1]);
      const value = word(log.data, 0);
      if (!who || who.toLowerCase() !== me || !value) continue;
      // Deposit: ETH went out to WETH (seen as a native transfer) and WETH comes in; Withdrawal: the reverse.
      changes.push({ direction: t0 === TOPIC_WETH_DEPOSIT ? "in" : "out", assetType: "erc20", changeType: "transfer", token: addr, rawAmount: value, counterparty: getAddress(addr), unlimited: false });
    }
  }
  return { changes, warnings: [...warnings] };
}

/** debug_traceCall callTracer frame (the subset we read). */
export interface CallFrame {
  type: string;
  from: string;
  to?: string;
  value?: string;
  error?: string;
  revertReason?: string;
  output?: string;
  gasUsed?: string;
  logs?: { address: string; topics: string[]; data: string }[];
  calls?: CallFrame[];
}

/**
 * Flattens a call tree into logs (native value moves as pseudo Transfer logs, in execution order as far
 * as the tracer preserves it). Frames that reverted contribute nothing: their effects were undone.
 */
export function logsFromCallFrame(frame: CallFrame): RawLog[] {
  const out: RawLog[] = [];
  const walk = (f: CallFrame) => {
    if (f.error) return;
    const value = f.value ? BigInt(f.value) : 0n;
    if (value > 0n && f.to && (f.type === "CALL" || f.type === "CREATE" || f.type === "CREATE2" || f.type === "SELFDESTRUCT")) {
      out.push({
        address: NATIVE_PSEUDO_ADDRESS,
        topics: [TOPIC_TRANSFER, padTopic(f.from), padTopic(f.to)],
        data: `0x${value.toString(16).padStart(64, "0")}`,
      });
    }
    for (const l of f.logs ?? []) out.push({ address: l.address, topics: l.topics, data: l.data });
    for (const c of f.calls ?? []) walk(c);
  };
  walk(frame);
  return out;
}

const padTopic = (a: string): Hex => `0x${a.toLowerCase().replace(/^0x/, "").padStart(64, "0")}`;
