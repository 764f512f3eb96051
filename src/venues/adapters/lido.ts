/**
 * Lido: stake ETH for stETH (submit, or plain ETH sent to stETH, whose fallback stakes), wrap/unwrap
 * wstETH, and the withdrawal queue (request and claim). Staking keeps the value the owner's, so it is a
 * staking fact with the ETH that leaves the wallet also listed as a transfer into the protocol.
 */
import { parseAbi } from "viem";
import { nativeAmount, priced } from "../lib/amounts";
import { addrArg, bigArg, safeDecode, selectorsOf, type EvmTx } from "../lib/evm";
import { makeEvmAdapter } from "../lib/evm-adapter";
import { withMeta } from "../lib/evm-generic";
import { facts, fmt, fmtUsd, type FactsInit } from "../lib/facts";

type Ctx = Record<string, unknown> | null | undefined;

const STETH = "0xae7ab96520de3a18e5e111b5eaab095312d7fe84";
const WSTETH = "0x7f39c581f595b53c5cb19bd0b3f8da6c935e2ca0";
const QUEUE = "0x889edc2edab5f40e902b864ad4d7ade8e412f9b1";

const ABI = parseAbi([
  "function submit(address _referral)",
  "function wrap(uint256 _stETHAmount)",
  "function unwrap(uint256 _wstETHAmount)",
  "function requestWithdrawals(uint256[] _amounts, address _owner)",
  "function requestWithdrawalsWstETH(uint256[] _amounts, address _owner)",
  "function claimWithdrawals(uint256[] _requestIds, uint256[] _hints)",
  "function claimWithdrawal(uint256 _requestId)",
]);
const SELECTORS = selectorsOf(ABI);

function describeTx(tx: EvmTx, ctx: Ctx): FactsInit | null {
  const w: string[] = [];
  const plainStake = tx.to === STETH && tx.data === "0x" && tx.value > 0n;
  if (!plainStake && !(tx.selector && SELECTORS.has(tx.selector))) return null;
  const d = plainStake ? { functionName: "submit", args: ["0x0000000000000000000000000000000000000000"] as readonly unknown[] } : safeDecode(ABI, tx.data);
  if (!d) return null;
  const fn = d.functionName;
  if (fn === "submit") {
    if (tx.to !== STETH) w.push(`submit() sent to ${tx.to}, which is not Lido stETH`);
    const eth = nativeAmount(tx.value, tx.chainId, ctx, w);
    const f = facts("lido", "staking", "submit", tx.chain);
    f.staking = { asset: "ETH", amount: eth.amount, amountBase: eth.amountBase, usd: eth.usd, direction: "stake", validator: null };
    f.transfers = [{ ...eth, to: tx.to, from: tx.from, kind: "lido.submit", intoProtocol: true }];
    f.assets = ["ETH", "STETH"];
    f.notionalUsd = eth.usd;
    f.details = { referral: addrArg(d.args[0]) };
    f.summary = `Stake ${fmt(eth.amount)} ETH with Lido for stETH (${fmtUsd(eth.usd)})`;
    return withMeta(f, tx, w);
  }
  if (fn === "wrap" || fn === "unwrap") {
    if (tx.to !== WSTETH) w.push(`${fn}() sent to ${tx.to}, which is not Lido wstETH on Ethereum`);
    const from = fn === "wrap" ? "STETH" : "WSTETH";
    const a = priced(from, bigArg(d.args[0]), 18, ctx, w, fn === "wrap" ? STETH : WSTETH);
    const f = facts("lido", "staking", fn, tx.chain);
    f.swap = { sell: a, buy: { asset: fn === "wrap" ? "WSTETH" : "STETH", amount: null, usd: null, minAmount: null }, slippageBps: null, recipient: tx.from };
    f.assets = ["STETH", "WSTETH"];
    f.notionalUsd = a.usd;
    f.summary = `${fn === "wrap" ? "Wrap" : "Unwrap"} ${fmt(a.amount)} ${from}`;
    return withMeta(f, tx, w);
  }
  if (fn === "requestWithdrawals" || fn === "requestWithdrawalsWstETH") {
    if (tx.to !== QUEUE) w.push(`${fn} sent to ${tx.to}, which is not the Lido withdrawal queue`);
    const amounts = (Array.isArray(d.args[0]) ? d.args[0] : []) as bigint[];
    const total = amounts.reduce((s, x) => s + x, 0n);
    const asset = fn === "requestWithdrawals" ? "STETH" : "WSTETH";
    const a = priced(asset, total, 18, ctx, w);
    const owner = addrArg(d.args[1]);
    const f = facts("lido", "staking", fn, tx.chain);
    f.staking = { asset, amount: a.amount, amountBase: a.amountBase, usd: a.usd, direction: "unstake", validator: null };
    f.assets = [asset, "ETH"];
    f.recipients = [owner];
    f.notionalUsd = a.usd;
    if (tx.from && owner !== tx.from && owner !== "0x0000000000000000000000000000000000000000") w.push(`withdrawal NFT owner ${owner} is not the sender`);
    f.summary = `Request Lido withdrawal of ${fmt(a.amount)} ${asset} (owner ${owner})`;
    return withMeta(f, tx, w);
  }
  const f = facts("lido", "staking", fn, tx.chain);
  f.assets = ["ETH"];
  f.summary = `Claim finished Lido withdrawal(s)`;
  return withMeta(f, tx, w);
}

const matchesTx = (tx: EvmTx) =>
  (tx.to === STETH && tx.data === "0x" && tx.value > 0n) ||
  (!!tx.selector && SELECTORS.has(tx.selector) && ([STETH, WSTETH, QUEUE].includes(tx.to) || tx.selector === "0xa1903eab"));

export const lido = makeEvmAdapter({ id: "lido", aliases: ["steth", "wsteth", "lidofinance", "lidostaking"], matchesTx, describeTx });
