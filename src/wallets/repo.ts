/**
 * Wallet rows. Every lookup an API caller can reach is scoped by account: another account's wallet is
 * `404 not_found`, never 403. Admin lookups take the globally unique wallet id only (names are unique
 * per account, not globally).
 */
import { sql, type Selectable, type Transaction } from "kysely";
import type { Database } from "../db/client";
import type { DB, WalletsTable } from "../db/schema";
import { ServiceError } from "../lib/errors";

export type WalletRow = Selectable<WalletsTable>;
export type Executor = Database | Transaction<DB>;

export const walletNotFound = () => new ServiceError("not_found", "not_found", "no such wallet on this account");

/** Columns safe to read for display (everything except the key envelope). */
export const WALLET_COLUMNS = [
  "id",
  "account_id",
  "name",
  "chain",
  "mode",
  "custody",
  "address",
  "mandate",
  "limits",
  "signer",
  "next_nonce",
  "archived_at",
  "created_at",
  "updated_at",
  "legacy_safe",
  "rules_version",
  "mandate_version",
  "who_may_loosen",
] as const;
export type WalletView = Omit<WalletRow, "key_ref">;

/** `{id}` of wallet routes: the wallet id or its name (SPEC 4). */
export async function findWallet(ex: Executor, accountId: string, ref: string): Promise<WalletView> {
  const r = ref.trim();
  const row = await ex
    .selectFrom("wallets")
    .select(WALLET_COLUMNS)
    .where("account_id", "=", accountId)
    .where(r.startsWith("wal_") ? "id" : "name", "=", r)
    .executeTakeFirst();
  if (!row) throw walletNotFound();
  return row;
}

export async function findWalletById(ex: Executor, id: string): Promise<WalletView> {
  const row = await ex.selectFrom("wallets").select(WALLET_COLUMNS).where("id", "=", id).executeTakeFirst();
  if (!row) throw new ServiceError("not_found", "not_found", "no such wallet");
  return row;
}

/** Row lock that serialises everything that spends from or signs for one wallet. */
export async function lockWallet(tx: Transaction<DB>, id: string): Promise<WalletRow> {
  const row = await tx.selectFrom("wallets").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
  if (!row) throw new ServiceError("not_found", "not_found", "no such wallet");
  return row;
}

/** Held proposals per wallet (awaiting the owner and still inside their window). */
export async function pendingCounts(ex: Executor, walletIds: string[], now: Date): Promise<Map<string, number>> {
  if (walletIds.length === 0) return new Map();
  const rows = await ex
    .selectFrom("proposals")
    .select(["wallet_id", sql<string>`count(*)`.as("n")])
    .where("wallet_id", "in", walletIds)
    .where("status", "=", "awaiting_user")
    .where("approval_expires_at", ">", now)
    .groupBy("wallet_id")
    .execute();
  return new Map(rows.map((r) => [r.wallet_id, Number(r.n)]));
}
