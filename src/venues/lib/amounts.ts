/** Base units -> AmountFact (whole units, USD when priced) for EVM tokens and native coins. */
import type { AmountFact } from "../types";
import { fromBase, usdOf, wholeUnits } from "./decimal";
import { priceOf } from "./prices";
import { nativeSymbol, resolveEvmToken } from "./tokens-evm";

export function priced(asset: string, amountBase: bigint | null, decimals: number | null, ctx: unknown, warnings: string[], tokenAddress: string | null = null): AmountFact {
  const amount = amountBase !== null && decimals !== null ? wholeUnits(amountBase, decimals) : null;
  const usd = amountBase !== null && decimals !== null ? usdOf(fromBase(amountBase, decimals), priceOf(asset, ctx)) : null;
  if (amount !== null && usd === null && !asset.startsWith("0x")) warnings.push(`no context price for ${asset}: USD value unknown`);
  return { asset, tokenAddress, amount, amountBase: amountBase?.toString() ?? null, decimals, usd };
}

export function evmAmount(token: string, amountBase: bigint | null, chainId: number | null, ctx: unknown, warnings: string[]): AmountFact {
  const t = resolveEvmToken(token, chainId, ctx);
  warnings.push(...t.warnings);
  return priced(t.symbol ?? t.address, amountBase, t.decimals, ctx, warnings, t.address);
}

export function nativeAmount(value: bigint, chainId: number | null, ctx: unknown, warnings: string[]): AmountFact {
  return priced(nativeSymbol(chainId), value, 18, ctx, warnings, null);
}
