/** list and get (SPEC 4.6): archived wallets only with includeArchived; live balances per wallet. */
import type { Principal } from "../accounts/principal";
import { walletBalances, tokenCount } from "./balances";
import { walletDetails, walletWire, type Wallet, type WalletDetails } from "./present";
import { findWallet, pendingCounts, WALLET_COLUMNS, type WalletView } from "./repo";
import type { WalletsDeps } from "./types";

async function present(deps: WalletsDeps, rows: WalletView[]): Promise<(Wallet & WalletDetails)[]> {
  const now = deps.clock.now();
  const [pending, balances] = await Promise.all([pendingCounts(deps.db, rows.map((r) => r.id), now), Promise.all(rows.map((r) => walletBalances(deps, r, { strict: false })))]);
  return rows.map((r, i) => ({
    ...walletWire(r, { balanceUsd: balances[i].balanceUsd, tokenCount: tokenCount(balances[i]) }, pending.get(r.id) ?? 0),
    ...walletDetails(r, deps.chains.forWallet(r.chain)),
  }));
}

export async function listWallets(deps: WalletsDeps, principal: Principal, opts: { includeArchived?: boolean } = {}): Promise<(Wallet & WalletDetails)[]> {
  let q = deps.db.selectFrom("wallets").select(WALLET_COLUMNS).where("account_id", "=", principal.accountId);
  if (!opts.includeArchived) q = q.where("archived_at", "is", null);
  const rows = await q.orderBy("created_at", "asc").orderBy("id", "asc").execute();
  return present(deps, rows);
}

export async function getWallet(deps: WalletsDeps, principal: Principal, ref: string): Promise<Wallet & WalletDetails> {
  const [w] = await present(deps, [await findWallet(deps.db, principal.accountId, ref)]);
  return w;
}
