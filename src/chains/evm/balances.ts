/**
 * Live balances of an address: native ETH plus every token of the chain's registry, read in one
 * multicall (Multicall3 sits at its canonical address on Base and in the sandbox), priced through the
 * chain's price source (cached briefly there).
 */
import { erc20Abi, formatUnits, type Address } from "viem";
import type { EvmChain } from "./chain";
import { NATIVE } from "./tokens";
import type { BalanceEntry } from "../types";

export type { BalanceEntry };

/** ETH always (the wallet pays gas with it), then every registry token with a non-zero balance. */
export async function readBalances(chain: EvmChain, address: Address): Promise<BalanceEntry[]> {
  const tokens = chain.tokens.tokens;
  const [native, results] = await Promise.all([
    chain.client.getBalance({ address }),
    tokens.length
      ? chain.client.multicall({ contracts: tokens.map((t) => ({ address: t.address, abi: erc20Abi, functionName: "balanceOf" as const, args: [address] as const })), allowFailure: true })
      : Promise.resolve([]),
  ]);
  const entries: BalanceEntry[] = [];
  const price = async (key: string, amount: bigint, decimals: number) => {
    if (amount === 0n) return 0;
    const p = await chain.prices.usd(key);
    return p === null ? null : Math.round(Number(formatUnits(amount, decimals)) * p * 100) / 100;
  };
  entries.push({
    symbol: "ETH",
    name: "Ether",
    logoUrl: null,
    tokenAddress: NATIVE,
    amount: native.toString(),
    amountFormatted: formatUnits(native, 18),
    decimals: 18,
    usdValue: await price(NATIVE, native, 18),
    caip2: chain.info.caip2,
  });
  for (let i = 0; i < tokens.length; i++) {
    const r = results[i];
    if (!r || r.status !== "success") continue;
    const amount = r.result as bigint;
    if (amount === 0n) continue;
    const t = tokens[i];
    entries.push({
      symbol: t.symbol,
      name: t.name,
      logoUrl: t.logoUrl,
      tokenAddress: t.address,
      amount: amount.toString(),
      amountFormatted: formatUnits(amount, t.decimals),
      decimals: t.decimals,
      usdValue: await price(t.address.toLowerCase(), amount, t.decimals),
      caip2: chain.info.caip2,
    });
  }
  return entries;
}
