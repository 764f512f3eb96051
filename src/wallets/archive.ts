/**
 * archive / unarchive (operators, admin API). An archived wallet keeps its key and funds, is left out of
 * listings unless asked for, refuses proposals (409 propose_failed) and can still be withdrawn from by the
 * owner. Archiving rejects the proposals still awaiting the owner (they could otherwise execute on an
 * archived wallet). Unarchiving counts against the 25-live-wallet limit.
 */
import { sql } from "kysely";
import { ServiceError } from "../lib/errors";
import { walletDetails, walletWire, type Wallet, type WalletDetails } from "./present";
import { findWalletById, lockWallet, WALLET_COLUMNS } from "./repo";
import type { WalletsDeps } from "./types";

export async function archiveWallet(deps: WalletsDeps, walletId: string): Promise<Wallet & WalletDetails & { rejectedProposals: string[] }> {
  await findWalletById(deps.db, walletId);
  const rejected = await deps.db.transaction().execute(async (tx) => {
    const row = await lockWallet(tx, walletId);
    if (row.archived_at) return [];
    await tx.updateTable("wallets").set({ archived_at: deps.clock.now(), updated_at: deps.clock.now() }).where("id", "=", walletId).execute();
    return deps.onArchived ? deps.onArchived(tx, walletId) : [];
  });
  deps.logger.info({ walletId, rejectedProposals: rejected }, "wallet archived");
  return { ...(await view(deps, walletId)), rejectedProposals: rejected };
}

export async function unarchiveWallet(deps: WalletsDeps, walletId: string): Promise<Wallet & WalletDetails> {
  const w = await findWalletById(deps.db, walletId);
  const max = deps.maxLiveWallets ?? 25;
  await deps.db.transaction().execute(async (tx) => {
    await tx.selectFrom("accounts").select("id").where("id", "=", w.account_id).forUpdate().execute();
    const row = await lockWallet(tx, walletId);
    if (!row.archived_at) return;
    const live = await tx.selectFrom("wallets").select(sql<string>`count(*)`.as("n")).where("account_id", "=", row.account_id).where("archived_at", "is", null).executeTakeFirstOrThrow();
    if (Number(live.n) >= max) throw new ServiceError("conflict", "conflict", `the account already holds ${max} live wallets; archive another first`);
    await tx.updateTable("wallets").set({ archived_at: null, updated_at: deps.clock.now() }).where("id", "=", walletId).execute();
  });
  deps.logger.info({ walletId }, "wallet unarchived");
  return view(deps, walletId);
}

async function view(deps: WalletsDeps, walletId: string): Promise<Wallet & WalletDetails> {
  const row = await deps.db.selectFrom("wallets").select(WALLET_COLUMNS).where("id", "=", walletId).executeTakeFirstOrThrow();
  return { ...walletWire(row, { balanceUsd: null, tokenCount: 0 }, 0), ...walletDetails(row, deps.chains.forWallet(row.chain)) };
}
