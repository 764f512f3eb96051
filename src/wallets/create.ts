/**
 * create: a new escrow wallet with a fresh server-held key (SPEC 4.7).
 *
 * The key is generated and sealed by the signer before the database transaction; a key whose row is
 * never written (name taken, limit reached) is simply dropped: it never held funds. The 25-live-wallet
 * limit is counted under a row lock on the account, so concurrent creations cannot exceed it.
 */
import { sql } from "kysely";
import type { Principal } from "../accounts/principal";
import { ServiceError } from "../lib/errors";
import { prefixedId } from "../lib/ids";
import { LimitsError, LimitsInput, normaliseLimits } from "./limits";
import { walletDetails, walletWire, type Wallet, type WalletDetails } from "./present";
import { WALLET_COLUMNS } from "./repo";
import { WALLET_NAME_MAX, type CreateWalletInput } from "./schemas";
import type { WalletsDeps } from "./types";

export const createFailed = (message: string) => new ServiceError("invalid_input", "create_failed", message);
export const escrowUnconfigured = () =>
  new ServiceError("unavailable", "escrow_unconfigured", "escrow wallets are not configured on this deployment (no Base chain: set BASE_RPC_URL, or run the sandbox)");

/**
 * `embedded`: a self-custodial wallet whose address the owner proved with SIWE (custody/embedded-siwe.ts).
 * No key is generated or stored; the row records the owner's address, custody `embedded`, mode `safe`.
 */
export async function createWallet(
  deps: WalletsDeps,
  principal: Principal,
  input: CreateWalletInput,
  embedded?: { address: string; keyRef: string; provider: string },
): Promise<Wallet & WalletDetails & { notes: string[] }> {
  const name = input.name.trim();
  if (name.length > WALLET_NAME_MAX) throw createFailed(`name must be at most ${WALLET_NAME_MAX} characters`);
  if (name.startsWith("wal_")) throw createFailed("name must not start with wal_ (wallet ids do; a name is usable in place of an id)");
  const chain = deps.chains.forWallet(input.chain);
  if (!chain) {
    if (input.chain === "base" || deps.chains.all().length === 0) throw escrowUnconfigured();
    throw createFailed(`${input.chain} wallets are not available on this deployment yet; create a ${deps.chains.all().map((a) => a.info.key).join(" or ")} wallet`);
  }

  if (input.mode === "safe" && chain.info.safeMode === false) {
    throw createFailed(`mode safe is not available on ${chain.info.key} wallets (safe mode is available on Base and Starknet); create an autonomous ${chain.info.key} wallet: its named transfers always wait for your confirmation`);
  }

  const parsedLimits = LimitsInput.safeParse(input.limits ?? {});
  if (!parsedLimits.success) {
    const issue = parsedLimits.error.issues[0];
    throw createFailed(`limits${issue.path.length ? `.${issue.path.join(".")}` : ""}: ${issue.message}`);
  }
  let limits;
  try {
    limits = normaliseLimits(parsedLimits.data, chain);
  } catch (e) {
    if (e instanceof LimitsError) throw createFailed(e.message);
    throw e;
  }

  const id = prefixedId("wal");
  const key = embedded ? { address: embedded.address, keyRef: embedded.keyRef } : await chain.custody.createKey(id);
  const max = deps.maxLiveWallets ?? 25;
  const mandate = input.mandate?.trim() ? input.mandate.trim() : null;

  const row = await deps.db.transaction().execute(async (tx) => {
    const account = await tx.selectFrom("accounts").select(["id", "default_who_may_loosen"]).where("id", "=", principal.accountId).forUpdate().executeTakeFirst();
    if (!account) throw new ServiceError("not_found", "not_found", "no such account");
    const live = await tx
      .selectFrom("wallets")
      .select(sql<string>`count(*)`.as("n"))
      .where("account_id", "=", principal.accountId)
      .where("archived_at", "is", null)
      .executeTakeFirstOrThrow();
    if (Number(live.n) >= max) throw createFailed(`an account holds at most ${max} live wallets; archive one first`);
    const taken = await tx.selectFrom("wallets").select("id").where("account_id", "=", principal.accountId).where("name", "=", name).executeTakeFirst();
    if (taken) throw createFailed(`a wallet named "${name}" already exists on this account`);
    const now = deps.clock.now();
    return tx
      .insertInto("wallets")
      .values({
        id,
        account_id: principal.accountId,
        name,
        chain: chain.info.key,
        mode: input.mode,
        address: key.address,
        mandate,
        limits: JSON.stringify(limits.limits),
        signer: embedded ? embedded.provider : chain.custody.provider,
        custody: embedded ? "embedded" : "server",
        who_may_loosen: account.default_who_may_loosen,
        key_ref: key.keyRef,
        next_nonce: null,
        archived_at: null,
        created_at: now,
        updated_at: now,
      })
      .returning(WALLET_COLUMNS)
      .executeTakeFirstOrThrow();
  });
  deps.logger.info({ walletId: id, accountId: principal.accountId, address: row.address, mode: row.mode }, "escrow wallet created");
  return { ...walletWire(row, { balanceUsd: 0, tokenCount: 0 }, 0), ...walletDetails(row, chain), notes: limits.notes };
}
