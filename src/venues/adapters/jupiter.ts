/**
 * Jupiter (Solana swap aggregator): quote requests {inputMint, outputMint, amount, slippageBps, swapMode},
 * quote responses (inAmount/outAmount/otherAmountThreshold), swap requests {userPublicKey, quoteResponse},
 * swap responses {swapTransaction} (decoded as a Solana transaction), Ultra orders, and Trigger (limit)
 * orders {inputMint, outputMint, params: {makingAmount, takingAmount}}. Amounts are base units of each mint.
 */
import type { AmountFact, Facts, OrderFact, VenueAdapter } from "../types";
import { fromBase, usdOf, wholeUnits } from "../lib/decimal";
import { facts, finish, fmt, fmtUsd } from "../lib/facts";
import { priceOf } from "../lib/prices";
import { decodeSolanaTx } from "../lib/solana";
import { resolveMint } from "../lib/tokens-solana";
import { bigInt, bool, isRecord, num, str } from "../lib/util";
import { describeSolanaTx, txString } from "./solana";

type Ctx = Record<string, unknown> | null | undefined;
type R = Record<string, unknown>;

const MINT_RE = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const isMint = (v: unknown): v is string => typeof v === "string" && MINT_RE.test(v);

function leg(mint: string, base: bigint | null, ctx: Ctx, w: string[]): AmountFact {
  const info = resolveMint(mint, ctx);
  w.push(...info.warnings);
  const asset = info.symbol ?? mint;
  const amount = base !== null && info.decimals !== null ? wholeUnits(base, info.decimals) : null;
  const price = info.symbol ? priceOf(info.symbol, ctx) : null;
  const usd = base !== null && info.decimals !== null ? usdOf(fromBase(base, info.decimals), price) : null;
  if (amount !== null && usd === null) w.push(`no context price for ${asset}: USD value unknown`);
  return { asset, tokenAddress: mint, amount, amountBase: base?.toString() ?? null, decimals: info.decimals, usd };
}

function quoteOf(action: unknown): R | null {
  if (!isRecord(action)) return null;
  if (isRecord(action.quoteResponse) && isMint(action.quoteResponse.inputMint)) return action.quoteResponse;
  if (isMint(action.inputMint) && isMint(action.outputMint)) return action;
  return null;
}

function describeQuote(q: R, envelope: R, ctx: Ctx): Facts {
  const w: string[] = [];
  if (isRecord(q.params) && (q.params.makingAmount !== undefined || q.params.takingAmount !== undefined)) return describeTrigger(q, ctx);
  const exactOut = str(q.swapMode) === "ExactOut";
  const isResponse = q.inAmount !== undefined || q.outAmount !== undefined;
  const amount = bigInt(q.amount);
  const inBase = isResponse ? bigInt(q.inAmount) : exactOut ? null : amount;
  const outBase = isResponse ? bigInt(q.outAmount) : exactOut ? amount : null;
  const threshold = bigInt(q.otherAmountThreshold);
  const sell = leg(q.inputMint as string, exactOut && threshold !== null ? threshold : inBase, ctx, w);
  const buy = leg(q.outputMint as string, outBase, ctx, []);
  const minBase = !exactOut ? threshold : outBase;
  const minAmount = minBase !== null && buy.decimals !== null && buy.decimals !== undefined ? wholeUnits(minBase, buy.decimals) : null;
  const slippage = num(q.slippageBps);
  const dynamic = bool(envelope.dynamicSlippage) ?? bool(q.dynamicSlippage);
  if (slippage === null) w.push(dynamic ? "dynamic slippage: the bound is chosen at swap time" : "slippageBps not given (Jupiter's default applies)");
  const impact = num(q.priceImpactPct);
  if (impact !== null && impact * 100 > 1) w.push(`price impact ${(impact * 100).toFixed(2)}%`);
  const recipient = str(envelope.destinationTokenAccount) ?? str(envelope.userPublicKey) ?? str(envelope.taker) ?? null;
  if (str(envelope.destinationTokenAccount)) w.push(`output goes to token account ${str(envelope.destinationTokenAccount)}, not the signer's own account`);
  const type = envelope !== q ? (envelope.userPublicKey !== undefined ? "swap" : "order") : isResponse ? "quoteResponse" : "quote";
  const f = facts("jupiter", "swap", type, "solana");
  f.swap = { sell, buy: { ...buy, minAmount }, slippageBps: slippage, recipient, route: Array.isArray(q.routePlan) ? q.routePlan.map((r) => (isRecord(r) && isRecord(r.swapInfo) ? str(r.swapInfo.label) : null)).filter(Boolean).join(" > ") : null };
  f.assets = [sell.asset, buy.asset];
  f.notionalUsd = exactOut && !isResponse ? (buy.usd ?? sell.usd) : (sell.usd ?? buy.usd);
  f.details = { swapMode: exactOut ? "ExactOut" : "ExactIn", priceImpactPct: impact, platformFeeBps: num(q.platformFeeBps), onlyDirectRoutes: bool(q.onlyDirectRoutes), userPublicKey: str(envelope.userPublicKey) ?? str(envelope.taker) };
  f.warnings = w;
  f.summary = exactOut
    ? `Jupiter swap: buy exactly ${fmt(buy.amount)} ${buy.asset} (${fmtUsd(buy.usd)}) with ${sell.asset}${sell.amount ? ` (at most ${fmt(sell.amount)})` : ""}, slippage ${slippage ?? "?"} bps`
    : `Jupiter swap: sell ${fmt(sell.amount)} ${sell.asset} (${fmtUsd(sell.usd)}) for ${buy.asset}${minAmount ? ` (at least ${fmt(minAmount)})` : ""}, slippage ${slippage ?? "?"} bps`;
  return finish(f);
}

/** Trigger API limit order: sell makingAmount of input for takingAmount of output. */
function describeTrigger(q: R, ctx: Ctx): Facts {
  const w: string[] = [];
  const p = q.params as R;
  const sell = leg(q.inputMint as string, bigInt(p.makingAmount), ctx, w);
  const buy = leg(q.outputMint as string, bigInt(p.takingAmount), ctx, []);
  const price = sell.amount && buy.amount && Number(buy.amount) > 0 ? Number(sell.amount) / Number(buy.amount) : null;
  const order: OrderFact = { asset: buy.asset, market: "spot", side: "buy", size: buy.amount ? Number(buy.amount) : null, price, notionalUsd: sell.usd, reduceOnly: false, orderType: "limit", tif: num(p.expiredAt) ? "GTD" : "GTC", priceBasis: "limit" };
  const f = facts("jupiter", "order", "createOrder", "solana");
  f.orders = [order];
  f.swap = { sell, buy: { ...buy, minAmount: buy.amount }, slippageBps: num(p.slippageBps), recipient: str(q.maker) };
  f.assets = [sell.asset, buy.asset];
  f.notionalUsd = sell.usd;
  f.warnings = w;
  f.summary = `Jupiter limit order: sell ${fmt(sell.amount)} ${sell.asset} (${fmtUsd(sell.usd)}) for ${fmt(buy.amount)} ${buy.asset}`;
  return finish(f);
}

function describe(action: unknown, ctx?: Ctx): Facts | null {
  const q = quoteOf(action);
  if (q) return describeQuote(q, action as R, ctx);
  const s = txString(action);
  if (!s) return null;
  const tx = decodeSolanaTx(s);
  if (!tx) return null;
  const f = describeSolanaTx(tx, ctx, "jupiter");
  if (isRecord(action) && num(action.lastValidBlockHeight) !== null) f.details = { ...(f.details ?? {}), lastValidBlockHeight: num(action.lastValidBlockHeight) };
  return finish(f);
}

function matches(action: unknown): boolean {
  if (quoteOf(action)) return true;
  return isRecord(action) && typeof action.swapTransaction === "string";
}

export const jupiter: VenueAdapter = { id: "jupiter", aliases: ["jup", "jupag", "jupiterag", "jupiterswap"], matches, describe };
