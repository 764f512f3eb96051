/** SPEC 2.6 balances: SOL always, then each registry token held (Token and Token-2022 accounts summed per mint). */
import type { Address } from "@solana/kit";
import { formatUnits } from "../../lib/money";
import type { AssetRegistry } from "../port";
import { NATIVE, type BalanceEntry } from "../types";
import type { SolanaClient } from "./client";
import { TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from "./spl";

export async function solanaBalances(client: SolanaClient, assets: AssetRegistry, caip2: string, owner: string): Promise<BalanceEntry[]> {
  const lamports = await client.call("getBalance", () => client.rpc.getBalance(owner as Address, { commitment: "confirmed" }).send());
  const held = new Map<string, bigint>();
  for (const programId of [TOKEN_PROGRAM, TOKEN_2022_PROGRAM]) {
    const r = await client.call("getTokenAccountsByOwner", () =>
      client.rpc.getTokenAccountsByOwner(owner as Address, { programId: programId as Address }, { encoding: "jsonParsed", commitment: "confirmed" }).send(),
    );
    for (const row of r.value) {
      const info = (row.account.data as { parsed?: { info?: { mint?: string; tokenAmount?: { amount?: string } } } }).parsed?.info;
      if (!info?.mint || !info.tokenAmount?.amount) continue;
      held.set(info.mint, (held.get(info.mint) ?? 0n) + BigInt(info.tokenAmount.amount));
    }
  }
  const entry = async (token: string, symbol: string, name: string, decimals: number, logoUrl: string | null, amount: bigint): Promise<BalanceEntry> => {
    const price = amount === 0n ? 0 : await assets.usd(token).catch(() => null);
    const amountFormatted = formatUnits(amount, decimals);
    return { symbol, name, logoUrl, tokenAddress: token, amount: amount.toString(), amountFormatted, decimals, usdValue: price === null ? null : Math.round(Number(amountFormatted) * price * 1e6) / 1e6, caip2 };
  };
  const out = [await entry(NATIVE, assets.native.symbol, assets.native.name, assets.native.decimals, null, BigInt(lamports.value))];
  for (const t of assets.tokens) {
    const amount = held.get(t.address);
    if (amount !== undefined && amount > 0n) out.push(await entry(t.address, t.symbol, t.name, t.decimals, t.logoUrl, amount));
  }
  return out;
}
