/**
 * GMX v2 (Arbitrum/Avalanche): ExchangeRouter.multicall([sendWnt, sendTokens, createOrder]) and bare
 * createOrder / cancelOrder / updateOrder. sizeDeltaUsd is USD x 1e30, so the notional needs no price;
 * leverage is size over the collateral sent when the collateral is priced. Three CreateOrderParams layouts
 * (v2.0, v2.1 with cancellationReceiver/validFromTime/autoCancel, v2.2 with dataList) are tried in turn.
 */
import { parseAbi, type Hex } from "viem";
import type { OrderFact } from "../types";
import { evmAmount, nativeAmount } from "../lib/amounts";
import { fromBase, toNum } from "../lib/decimal";
import { addrArg, bigArg, jsonSafe, safeDecode, selectorsOf, type EvmTx } from "../lib/evm";
import { makeEvmAdapter } from "../lib/evm-adapter";
import { withMeta } from "../lib/evm-generic";
import { facts, fmt, fmtUsd, type FactsInit } from "../lib/facts";
import { ctxByAddress } from "../lib/tokens-evm";
import { isRecord, str } from "../lib/util";
import type { AmountFact } from "../types";

type Ctx = Record<string, unknown> | null | undefined;

const A20 = "address receiver, address callbackContract, address uiFeeReceiver, address market, address initialCollateralToken, address[] swapPath";
const A21 = "address receiver, address cancellationReceiver, address callbackContract, address uiFeeReceiver, address market, address initialCollateralToken, address[] swapPath";
const N20 = "uint256 sizeDeltaUsd, uint256 initialCollateralDeltaAmount, uint256 triggerPrice, uint256 acceptablePrice, uint256 executionFee, uint256 callbackGasLimit, uint256 minOutputAmount";
const N21 = `${N20}, uint256 validFromTime`;
const ABI = parseAbi([
  `function createOrder(((${A20}) addresses, (${N20}) numbers, uint8 orderType, uint8 decreasePositionSwapType, bool isLong, bool shouldUnwrapNativeToken, bytes32 referralCode) params)`,
  `function createOrder(((${A21}) addresses, (${N21}) numbers, uint8 orderType, uint8 decreasePositionSwapType, bool isLong, bool shouldUnwrapNativeToken, bool autoCancel, bytes32 referralCode) params)`,
  `function createOrder(((${A21}) addresses, (${N21}) numbers, uint8 orderType, uint8 decreasePositionSwapType, bool isLong, bool shouldUnwrapNativeToken, bool autoCancel, bytes32 referralCode, bytes32[] dataList) params)`,
  "function sendWnt(address receiver, uint256 amount)",
  "function sendTokens(address token, address receiver, uint256 amount)",
  "function cancelOrder(bytes32 key)",
  "function updateOrder(bytes32 key, uint256 sizeDeltaUsd, uint256 acceptablePrice, uint256 triggerPrice, uint256 minOutputAmount, uint256 validFromTime, bool autoCancel)",
  "function updateOrder(bytes32 key, uint256 sizeDeltaUsd, uint256 acceptablePrice, uint256 triggerPrice, uint256 minOutputAmount)",
  "function claimFundingFees(address[] markets, address[] tokens, address receiver)",
]);
const MULTICALL = parseAbi(["function multicall(bytes[] data)"]);
const CREATE = new Set([...selectorsOf(ABI.filter((f) => f.type === "function" && f.name === "createOrder"))]);

const MARKETS: Record<string, string> = {
  "0x70d95587d40a2caf56bd97485ab3eec10bee6336": "ETH",
  "0x47c031236e19d024b42f8ae6780e44a573170703": "BTC",
  "0x09400d9db990d5ed3f35d7be61dfaeb900af03c9": "SOL",
};

const ORDER_TYPES = ["MarketSwap", "LimitSwap", "MarketIncrease", "LimitIncrease", "MarketDecrease", "LimitDecrease", "StopLossDecrease", "Liquidation", "StopIncrease"];

function marketSymbol(market: string, ctx: Ctx): string | null {
  const c = isRecord(ctx) ? ctx : {};
  const e = ctxByAddress(c.markets, market) ?? ctxByAddress(c.gmxMarkets, market);
  if (typeof e === "string") return e.split(/[/\s-]/)[0].toUpperCase();
  if (isRecord(e)) {
    const s = str(e.symbol) ?? str(e.indexToken) ?? str(e.name);
    if (s) return s.split(/[/\s-]/)[0].toUpperCase();
  }
  return MARKETS[market] ?? null;
}

function innerCalls(tx: EvmTx): Hex[] {
  const m = safeDecode(MULTICALL, tx.data);
  if (m && Array.isArray(m.args[0])) return (m.args[0] as Hex[]).slice(0, 20);
  return [tx.data];
}

function describeTx(tx: EvmTx, ctx: Ctx): FactsInit | null {
  const calls = innerCalls(tx);
  const decoded = calls.map((c) => safeDecode(ABI, c));
  if (!decoded.some((d) => d !== null)) return null;
  const w: string[] = [];
  const collateral: AmountFact[] = [];
  const orders: OrderFact[] = [];
  const recipients: string[] = [];
  const types: string[] = [];
  let family: FactsInit["actionFamily"] = "order";
  for (const d of decoded) {
    if (!d) {
      w.push("GMX multicall contains an undecoded call");
      continue;
    }
    types.push(d.functionName);
    if (d.functionName === "sendWnt") collateral.push(nativeAmount(bigArg(d.args[1]) ?? 0n, tx.chainId, ctx, w));
    if (d.functionName === "sendTokens") collateral.push(evmAmount(addrArg(d.args[0]), bigArg(d.args[2]), tx.chainId, ctx, w));
    if (d.functionName === "claimFundingFees") recipients.push(addrArg(d.args[2]));
    if (d.functionName !== "createOrder") continue;
    const p = isRecord(d.args[0]) ? d.args[0] : {};
    const ad = isRecord(p.addresses) ? p.addresses : {};
    const nu = isRecord(p.numbers) ? p.numbers : {};
    const ot = Number(p.orderType ?? -1);
    const typeName = ORDER_TYPES[ot] ?? `orderType ${ot}`;
    const market = addrArg(ad.market);
    const symbol = marketSymbol(market, ctx);
    if (!symbol) w.push(`unknown GMX market ${market} (add context.markets[market] = {symbol})`);
    const size = bigArg(nu.sizeDeltaUsd);
    const sizeUsd = size === null ? null : toNum(fromBase(size, 30));
    const isLong = p.isLong === true;
    const decrease = ot >= 4 && ot <= 7;
    if (ot === 0 || ot === 1) family = "swap";
    recipients.push(addrArg(ad.receiver));
    orders.push({
      asset: symbol ?? market,
      market: ot <= 1 ? "spot" : "perp",
      side: decrease ? (isLong ? "sell" : "buy") : isLong ? "buy" : "sell",
      size: null,
      price: null,
      notionalUsd: sizeUsd,
      reduceOnly: decrease,
      orderType: ot === 6 || ot === 8 ? "trigger" : typeName.startsWith("Market") ? "market" : "limit",
      tif: null,
      priceBasis: "declared",
    });
    types[types.length - 1] = `createOrder:${typeName}`;
  }
  const collUsd = collateral.length && collateral.every((c) => c.usd !== null) ? collateral.reduce((s, c) => s + (c.usd ?? 0), 0) : null;
  if (orders.length === 1 && collUsd && orders[0].notionalUsd !== null && !orders[0].reduceOnly) {
    orders[0].leverage = Math.round((orders[0].notionalUsd / collUsd) * 100) / 100;
  }
  const f = facts("gmx", orders.length ? family : types.includes("cancelOrder") || types.some((t) => t.startsWith("updateOrder")) ? "order" : "unknown", types.join("+") || "multicall", tx.chain);
  f.orders = orders;
  f.assets = [...orders.map((o) => o.asset), ...collateral.map((c) => c.asset)];
  f.recipients = recipients;
  f.leverage = orders.length === 1 && orders[0].leverage ? { asset: orders[0].asset, value: orders[0].leverage, isCross: false } : null;
  f.details = { collateral: collateral.map((c) => ({ asset: c.asset, amount: c.amount, usd: c.usd })), calls: decoded.map((d) => (d ? { fn: d.functionName, args: jsonSafe(d.args) } : null)) };
  f.notionalUsd = orders.length ? (orders.every((o) => o.notionalUsd !== null) ? orders.reduce((s, o) => s + (o.notionalUsd ?? 0), 0) : null) : null;
  f.summary = orders.length
    ? orders.map((o) => `GMX ${o.reduceOnly ? "decrease" : "increase"} ${o.side === "buy" ? "long" : "short"} ${o.asset} by ${fmtUsd(o.notionalUsd)} (${o.orderType})${o.leverage ? `, ~${fmt(o.leverage)}x on ${fmtUsd(collUsd)} collateral` : ""}`).join("; ")
    : `GMX ${types.join(", ")}`;
  return withMeta(f, tx, w);
}

function matchesTx(tx: EvmTx): boolean {
  if (!tx.selector) return false;
  if (CREATE.has(tx.selector)) return true;
  // multicall(bytes[]) is shared with Uniswap's routers; only a createOrder inside makes it GMX
  if (tx.selector !== "0xac9650d8") return false;
  return innerCalls(tx).some((c) => CREATE.has(c.slice(0, 10)));
}

export const gmx = makeEvmAdapter({ id: "gmx", aliases: ["gmxv2", "gmxio"], matchesTx, describeTx });
