/**
 * Pendle Router V4: swaps between tokens and PT/YT, single-token liquidity, and PY mint/redeem. The token
 * leg (TokenInput / TokenOutput) is an ordinary ERC-20 (zero address = native); PT/YT/LP amounts are named
 * after the market from context when given, and otherwise stay in base units.
 */
import { parseAbi } from "viem";
import type { AmountFact } from "../types";
import { evmAmount, nativeAmount } from "../lib/amounts";
import { addrArg, bigArg, safeDecode, selectorsOf, type EvmTx } from "../lib/evm";
import { makeEvmAdapter } from "../lib/evm-adapter";
import { withMeta } from "../lib/evm-generic";
import { facts, fmt, fmtUsd, type FactsInit } from "../lib/facts";
import { ctxByAddress } from "../lib/tokens-evm";
import { isRecord, str } from "../lib/util";

type Ctx = Record<string, unknown> | null | undefined;

const ROUTER = "0x888888888889758f76e7103c6cbf23abbf58f946";
const APPROX = "(uint256 guessMin, uint256 guessMax, uint256 guessOffchain, uint256 maxIteration, uint256 eps)";
const SWAPDATA = "(uint8 swapType, address extRouter, bytes extCalldata, bool needScale)";
const TIN = `(address tokenIn, uint256 netTokenIn, address tokenMintSy, address pendleSwap, ${SWAPDATA} swapData)`;
const TOUT = `(address tokenOut, uint256 minTokenOut, address tokenRedeemSy, address pendleSwap, ${SWAPDATA} swapData)`;
const ORDER = "(uint256 salt, uint256 expiry, uint256 nonce, uint8 orderType, address token, address YT, address maker, address receiver, uint256 makingAmount, uint256 lnImpliedRate, uint256 failSafeRate, bytes permit)";
const LIMIT = `(address limitRouter, uint256 epsSkipMarket, (${ORDER} order, bytes signature, uint256 makingAmount)[] normalFills, (${ORDER} order, bytes signature, uint256 makingAmount)[] flashFills, bytes optData)`;

// typed as string[]: the nested tuples exceed viem's type-level signature parser, the runtime parser is fine
const SIGNATURES: string[] = [
  `function swapExactTokenForPt(address receiver, address market, uint256 minPtOut, ${APPROX} guessPtOut, ${TIN} input, ${LIMIT} limit)`,
  `function swapExactPtForToken(address receiver, address market, uint256 exactPtIn, ${TOUT} output, ${LIMIT} limit)`,
  `function swapExactTokenForYt(address receiver, address market, uint256 minYtOut, ${APPROX} guessYtOut, ${TIN} input, ${LIMIT} limit)`,
  `function swapExactYtForToken(address receiver, address market, uint256 exactYtIn, ${TOUT} output, ${LIMIT} limit)`,
  `function addLiquiditySingleToken(address receiver, address market, uint256 minLpOut, ${APPROX} guessPtReceivedFromSy, ${TIN} input, ${LIMIT} limit)`,
  `function removeLiquiditySingleToken(address receiver, address market, uint256 netLpToRemove, ${TOUT} output, ${LIMIT} limit)`,
  `function mintPyFromToken(address receiver, address YT, uint256 minPyOut, ${TIN} input)`,
  `function redeemPyToToken(address receiver, address YT, uint256 netPyIn, ${TOUT} output)`,
];
const ABI = parseAbi(SIGNATURES);
const SELECTORS = selectorsOf(ABI);
const ZERO = "0x0000000000000000000000000000000000000000";

function marketName(market: string, ctx: Ctx): string {
  const e = ctxByAddress(isRecord(ctx) ? ctx.markets : undefined, market);
  if (typeof e === "string") return e;
  if (isRecord(e)) return str(e.symbol) ?? str(e.name) ?? market;
  return market;
}

function tokenLeg(t: unknown, amountKey: "netTokenIn" | "minTokenOut", tx: EvmTx, ctx: Ctx, w: string[]): AmountFact {
  const r = isRecord(t) ? t : {};
  const token = addrArg(amountKey === "netTokenIn" ? r.tokenIn : r.tokenOut);
  const amount = bigArg(r[amountKey]);
  return token === ZERO ? nativeAmount(amount ?? 0n, tx.chainId, ctx, w) : evmAmount(token, amount, tx.chainId, ctx, w);
}

function describeTx(tx: EvmTx, ctx: Ctx): FactsInit | null {
  if (!tx.selector || !SELECTORS.has(tx.selector)) return null;
  const d = safeDecode(ABI, tx.data);
  if (!d) return null;
  const w: string[] = [];
  const fn = d.functionName;
  const [receiverRaw, marketRaw, amountRaw, a3, a4] = d.args;
  const receiver = addrArg(receiverRaw);
  const market = addrArg(marketRaw);
  const name = marketName(market, ctx);
  const pyAmount = bigArg(amountRaw);
  const tokenIn = fn.startsWith("swapExactToken") || fn === "addLiquiditySingleToken" || fn === "mintPyFromToken";
  const unit = fn.includes("Pt") ? "PT" : fn.includes("Yt") ? "YT" : fn.includes("Liquidity") ? "LP" : "PY";
  const pendleLeg: AmountFact = { asset: `${unit} ${name}`, tokenAddress: market, amount: null, amountBase: pyAmount?.toString() ?? null, usd: null };
  const leg = tokenLeg(fn === "mintPyFromToken" || fn === "redeemPyToToken" ? a3 : tokenIn ? a4 : a3, tokenIn ? "netTokenIn" : "minTokenOut", tx, ctx, w);
  const family = fn.includes("Liquidity") ? "vault" : "swap";
  const f = facts("pendle", family, fn, tx.chain);
  f.swap = tokenIn ? { sell: leg, buy: { ...pendleLeg, minAmount: null }, slippageBps: null, recipient: receiver } : { sell: pendleLeg, buy: { ...leg, minAmount: leg.amount }, slippageBps: null, recipient: receiver };
  if (tokenIn) f.transfers = [{ ...leg, to: tx.to, from: tx.from, kind: `pendle.${fn}`, intoProtocol: true }];
  f.assets = [leg.asset, `${unit}`];
  f.notionalUsd = leg.usd;
  f.details = { market, marketName: name, [tokenIn ? "minOut" : "exactIn"]: pyAmount?.toString() ?? null, receiver };
  if (tx.to !== ROUTER) w.push(`Pendle call to ${tx.to}, which is not the Pendle Router V4`);
  if (tx.from && receiver !== tx.from) w.push(`output goes to ${receiver}, not the sender`);
  w.push("Pendle slippage is not computed (PT/YT pricing needs market state)");
  f.summary = tokenIn
    ? `Pendle ${fn}: pay ${fmt(leg.amount)} ${leg.asset} (${fmtUsd(leg.usd)}) for ${unit} of ${name}, to ${receiver}`
    : `Pendle ${fn}: sell ${pyAmount} base units of ${unit} ${name} for at least ${fmt(leg.amount)} ${leg.asset}, to ${receiver}`;
  return withMeta(f, tx, w);
}

const matchesTx = (tx: EvmTx) => !!tx.selector && SELECTORS.has(tx.selector);

export const pendle = makeEvmAdapter({ id: "pendle", aliases: ["pendlefinance", "pendlerouter"], matchesTx, describeTx });
