/**
 * balances (SPEC 2.6, 4.8) and the live figures of the wallet listing. A chain that cannot be read
 * gives `balanceUsd: null` and a warning in the listing (one slow RPC must not hide the wallets), and
 * 502 `chain_unavailable` on the balances route, whose whole point is the figures.
 */
import type { Principal } from "../accounts/principal";
import { ServiceError } from "../lib/errors";
import { totalUsd } from "../chains/balances";
import type { Balances } from "./present";
import { findWallet, type WalletView } from "./repo";
import type { WalletsDeps } from "./types";

export async function walletBalances(deps: WalletsDeps, row: WalletView, opts: { strict: boolean }): Promise<Balances> {
  const head = { walletId: row.id, name: row.name, chain: row.chain, address: row.address };
  const chain = deps.chains.forWallet(row.chain);
  if (!chain) {
    const msg = `balances of ${row.chain} wallets cannot be read on this deployment (no ${row.chain} RPC configured)`;
    if (opts.strict) throw new ServiceError("unavailable", "chain_unavailable", msg);
    return { ...head, balanceUsd: null, balances: [], warnings: [msg] };
  }
  try {
    const balances = await chain.balances(row.address);
    const { balanceUsd, unpriced } = totalUsd(balances);
    return { ...head, balanceUsd, balances, ...(unpriced.length ? { warnings: [`no USD price for ${unpriced.join(", ")}; balanceUsd leaves them out`] } : {}) };
  } catch (err) {
    deps.logger.warn({ err: (err as Error).message, walletId: row.id }, "balance read failed");
    if (opts.strict) throw new ServiceError("upstream_failed", "chain_unavailable", "the chain RPC could not be read; retry");
    return { ...head, balanceUsd: null, balances: [], warnings: ["the chain RPC could not be read; balances unknown"] };
  }
}

export async function getBalances(deps: WalletsDeps, principal: Principal, ref: string): Promise<Balances> {
  return walletBalances(deps, await findWallet(deps.db, principal.accountId, ref), { strict: true });
}

/** tokenCount: balance entries with a non-zero amount (ETH included when held). */
export const tokenCount = (b: Balances): number => b.balances.filter((e) => e.amount !== "0").length;
