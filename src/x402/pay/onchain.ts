/**
 * What the chain says about an x402 payment: the token (decimals, symbol), whether the wallet holds the
 * amount, and whether the EIP-3009 authorization was used (`authorizationState`, and the
 * `AuthorizationUsed(authorizer, nonce)` event that names the settlement transaction).
 */
import { erc20Abi, formatUnits, parseAbi, parseAbiItem, type Address, type Hex } from "viem";
import type { Clock } from "../../lib/clock";
import type { EvmChain } from "../../chains/evm/chain";
import { enrich, type SimulationReport } from "../../chains/evm/simulate";

const EIP3009 = parseAbi(["function authorizationState(address authorizer, bytes32 nonce) view returns (bool)"]);
const AUTHORIZATION_USED = parseAbiItem("event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)");
/** How far back a settlement transaction is looked for by its event (Base: ~5.5 hours). */
const LOG_WINDOW_BLOCKS = 10_000n;

export interface TokenInfo {
  address: Address;
  symbol: string;
  decimals: number;
}

/** Registry tokens by their metadata; any other token by reading it (null when it does not answer as an ERC-20). */
export async function tokenInfo(chain: EvmChain, asset: Address): Promise<TokenInfo | null> {
  const known = chain.tokens.byAddress(asset);
  if (known) return { address: known.address, symbol: known.symbol, decimals: known.decimals };
  try {
    const [decimals, symbol] = await Promise.all([
      chain.client.readContract({ address: asset, abi: erc20Abi, functionName: "decimals" }),
      chain.client.readContract({ address: asset, abi: erc20Abi, functionName: "symbol" }).catch(() => "UNKNOWN"),
    ]);
    return { address: asset, symbol: String(symbol).slice(0, 32), decimals: Number(decimals) };
  } catch {
    return null;
  }
}

/** True or false from the token contract; null when the chain cannot be read. */
export async function authorizationUsed(chain: EvmChain, asset: Address, from: Address, nonce: Hex): Promise<boolean | null> {
  try {
    return await chain.client.readContract({ address: asset, abi: EIP3009, functionName: "authorizationState", args: [from, nonce] });
  } catch {
    return null;
  }
}

/** Whether `txHash` is the transaction that used this authorization (a resource's claim is checked, not trusted). */
export async function isSettlementOf(chain: EvmChain, txHash: string, asset: Address, from: Address, nonce: Hex): Promise<boolean> {
  if (!/^0x[0-9a-fA-F]{64}$/.test(txHash)) return false;
  try {
    const receipt = await chain.client.getTransactionReceipt({ hash: txHash as Hex });
    return receipt.status === "success" && receipt.logs.some((l) => l.address.toLowerCase() === asset.toLowerCase() && l.topics[0] === TOPIC && addrTopic(l.topics[1]) === from.toLowerCase() && l.topics[2]?.toLowerCase() === nonce.toLowerCase());
  } catch {
    return false;
  }
}

/** The transaction that used the authorization, from its event in recent blocks; null when not found. */
export async function findSettlementTx(chain: EvmChain, asset: Address, from: Address, nonce: Hex): Promise<Hex | null> {
  try {
    const latest = await chain.client.getBlockNumber();
    const logs = await chain.client.getLogs({ address: asset, event: AUTHORIZATION_USED, args: { authorizer: from, nonce }, fromBlock: latest > LOG_WINDOW_BLOCKS ? latest - LOG_WINDOW_BLOCKS : 0n, toBlock: latest });
    return logs[0]?.transactionHash ?? null;
  } catch {
    return null;
  }
}

const TOPIC = "0x98de503528ee59b575ef0c0a2576a82497bfc029a5685b209e9ec333479b10a5";
const addrTopic = (t: string | undefined) => (t ? `0x${t.slice(26)}`.toLowerCase() : "");

/**
 * The payment's effects, declared (SPEC 2.8 `declared: true`): an EIP-3009 authorization can move exactly
 * `amount` of `asset` from the wallet to `payTo` and nothing else, and the wallet pays no gas (the
 * resource's facilitator submits it). Checked against the chain: the wallet must hold the amount, else the
 * report is `reverted` (a payment that cannot settle is never signed).
 */
export async function declaredPayment(chain: EvmChain, p: { from: Address; asset: Address; amount: bigint; payTo: Address; url: string }, clock: Clock): Promise<SimulationReport> {
  const base = { caip2: chain.info.caip2, gasUsed: "0", logsExcerpt: [] as string[], simulatedAt: clock.now().toISOString(), provider: "x402-declared", declared: true };
  let balance: bigint;
  try {
    balance = await chain.client.readContract({ address: p.asset, abi: erc20Abi, functionName: "balanceOf", args: [p.from] });
  } catch (err) {
    const error = `the wallet's balance of ${p.asset} could not be read: ${(err as Error).message.slice(0, 200)}`;
    return { ...base, ok: false, status: "unavailable", wouldRevert: false, error, changes: [], totalUsdOut: 0, totalUsdIn: 0, warnings: [error] };
  }
  const changes = await enrich(chain, [{ direction: "out", assetType: "erc20", changeType: "transfer", token: p.asset.toLowerCase(), rawAmount: p.amount, counterparty: p.payTo, unlimited: false }]);
  const warnings = [`x402 payment for ${p.url}: an EIP-3009 authorization of exactly this transfer, settled by the resource's facilitator (the wallet pays no gas)`];
  if (changes[0].usdValue === null) warnings.push(`no USD price for ${changes[0].symbol} (${p.asset})`);
  if (balance < p.amount) {
    const c = changes[0];
    const error = `insufficient balance: the wallet holds ${formatUnits(balance, c.decimals)} ${c.symbol}; the payment needs ${c.amount}`;
    return { ...base, ok: false, status: "reverted", wouldRevert: true, error, changes: [], totalUsdOut: 0, totalUsdIn: 0, warnings };
  }
  return { ...base, ok: true, status: "clean", wouldRevert: false, error: "", changes, totalUsdOut: changes[0].usdValue ?? 0, totalUsdIn: 0, warnings };
}
