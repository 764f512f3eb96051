/**
 * STRK20 verbs the transports call (SPEC 4.12): the wallet is found on the caller's account and must be a
 * server-custodied Starknet wallet that is not archived; the chain module (src/chains/starknet/strk20) does
 * the rest. `signProofInvocation` and `relayPrivateAction` put an action on chain with no proposal (no
 * simulation or verdict): a `safe` wallet refuses signing, because its owner approves every action; the
 * gated route is `escrow_execute` with `starknetCalls` and `starknetProof`.
 *
 * The wallet's limits still hold on the ungated path. The allow-lists are custody rules in the module; the
 * USD limits are checked here by the escrow core's own check (proposals/limits-check.ts) on what the decoded
 * actions move out of the wallet, priced: per transaction, and against the rolling daily cap under the
 * wallet's row lock, where the signing is recorded (strk20_signings) BEFORE anything is signed, so
 * proposals and signings racing each other cannot overrun the cap together. A USD limit with an outflow
 * that has no price refuses (fail closed: there is no owner to hold it for).
 */
import type { Kysely } from "kysely";
import type { Principal } from "../accounts/principal";
import type { AddressComparator, AssetChange } from "../chains/types";
import type { Strk20Module, Strk20Wallet } from "../chains/starknet/strk20/private-actions";
import { Strk20Error } from "../chains/starknet/strk20/errors";
import type { DB } from "../db/schema";
import type { Clock } from "../lib/clock";
import { ServiceError } from "../lib/errors";
import { prefixedId } from "../lib/ids";
import { checkDailyCap, checkLimits } from "../proposals/limits-check";
import { reservedInWindow } from "../proposals/repo";
import { limitsFromRow, type Limits } from "../wallets/limits";
import { lockWallet, walletNotFound } from "../wallets/repo";

export const UNGATED_NOTICE =
  "This path puts the action on chain with no proposal: no simulation, no verdict; the custody rules, the wallet's allow-lists and its USD limits (per transaction and daily, on what the actions move out of the wallet) are all that apply. The gated route is escrow_execute with starknetCalls and starknetProof.";

export interface Strk20ServiceDeps {
  db: Kysely<DB>;
  clock: Clock;
  module: Strk20Module | null;
  /** The Starknet address comparator (the adapter's codec), as the limit check takes it. */
  addresses: AddressComparator | null;
}

const refusedByLimits = (why: string) => new ServiceError("invalid_input", "strk20_refused", `${why}; nothing was signed`);

/** What a USD limit cannot see: outflows with no price (a token with no feed, an open note's unknown amount). */
const unpricedOf = (changes: AssetChange[]) =>
  changes
    .filter((c) => c.usdValue === null)
    .map((c) => `${c.amount} ${c.symbol} to ${c.counterparty}`)
    .join(", ");

function mapError(e: unknown): never {
  if (e instanceof Strk20Error) {
    if (e.kind === "refused") throw new ServiceError("invalid_input", "strk20_refused", e.message);
    if (e.kind === "rejected") throw new ServiceError("upstream_failed", "strk20_rejected", e.message);
    throw new ServiceError(e.kind === "unconfigured" ? "unavailable" : "upstream_failed", "strk20_unavailable", e.message);
  }
  throw e;
}

const unavailableHere = () => new ServiceError("unavailable", "strk20_unavailable", "STRK20 private actions are not available on this deployment (no pool and proving service configured: STRK20_POOL_ADDRESS, STRK20_PROVER_URL)");

export function createStrk20Service(deps: Strk20ServiceDeps) {
  const need = (): Strk20Module => {
    if (!deps.module) throw unavailableHere();
    return deps.module;
  };
  async function wallet(p: Principal, ref: string, purpose: "sign" | "viewing-key") {
    const r = ref.trim();
    const row = await deps.db
      .selectFrom("wallets")
      .select(["id", "name", "chain", "mode", "custody", "address", "key_ref", "limits", "archived_at"])
      .where("account_id", "=", p.accountId)
      .where(r.startsWith("wal_") ? "id" : "name", "=", r)
      .executeTakeFirst();
    if (!row) throw walletNotFound();
    if (row.chain !== "starknet") throw new ServiceError("invalid_input", "strk20_refused", `wallet ${row.name} is on ${row.chain}; STRK20 private actions need a Starknet wallet`);
    if (row.archived_at) throw new ServiceError("conflict", "strk20_refused", `wallet ${row.name} is archived`);
    if (row.custody !== "server") throw new ServiceError("invalid_input", "strk20_refused", `wallet ${row.name} is self-custodial: this service cannot sign for it`);
    if (row.mode === "safe") {
      const why =
        purpose === "sign"
          ? "its owner approves every action, and this tool would put one on chain with no proposal. Use escrow_execute with starknetCalls and starknetProof (the owner approves it; a fresh proof is needed at confirmation)"
          : "its owner approves everything done with its key, and this signature discloses the wallet's viewing key (every private note it holds)";
      throw new ServiceError("forbidden", "strk20_refused", `wallet ${row.name} is a safe wallet: ${why}`);
    }
    const limits = limitsFromRow(row.limits);
    return {
      row,
      w: { handle: { walletId: row.id, address: row.address, keyRef: row.key_ref }, tokenAllowlist: limits.tokenAllowlist, recipientAllowlist: limits.recipientAllowlist },
    };
  }

  /**
   * The wallet's USD limits on what the calldata moves out (the custody rules first, in the module), then
   * the signing recorded against the daily cap; returns the record's id and the USD counted.
   */
  async function reserve(m: Strk20Module, p: Principal, walletId: string, w: Strk20Wallet, calldata: readonly unknown[]): Promise<{ id: string; usd: number }> {
    if (!deps.addresses) throw new ServiceError("unavailable", "strk20_unavailable", "no Starknet chain is configured on this deployment");
    const changes = await m.outflows(w, calldata).catch(mapError);
    const addresses = deps.addresses;
    return deps.db.transaction().execute(async (tx) => {
      // Under the lock: the limits as they are now, and the cap counted with every proposal and signing.
      const locked = await lockWallet(tx, walletId);
      if (locked.archived_at) throw new ServiceError("conflict", "strk20_refused", `wallet ${locked.name} is archived`);
      const all = limitsFromRow(locked.limits);
      // The allow-lists were applied by the custody rules (which also know the relayer's fee recipient).
      const usd: Limits = { ...(all.maxPerTxUsd !== undefined ? { maxPerTxUsd: all.maxPerTxUsd } : {}), ...(all.dailyCapUsd !== undefined ? { dailyCapUsd: all.dailyCapUsd } : {}) };
      const lim = checkLimits(usd, changes, { simulated: true, addresses });
      if (lim.reason) throw refusedByLimits(lim.reason);
      if (!lim.checkable) throw refusedByLimits(`the wallet's USD limits cannot be checked: no USD price for ${unpricedOf(changes)}`);
      const now = deps.clock.now();
      const cap = checkDailyCap(usd, await reservedInWindow(tx, walletId, now, null), lim.exposureUsd);
      if (cap) throw refusedByLimits(cap);
      const id = prefixedId("s20");
      await tx.insertInto("strk20_signings").values({ id, account_id: p.accountId, wallet_id: walletId, usd: lim.exposureUsd, cap_at: now }).execute();
      return { id, usd: lim.exposureUsd };
    });
  }
  return {
    async relayStatus() {
      if (!deps.module) return { configured: false, keyConfigured: false, relayReachable: false, keyAccepted: false, pool: null, reason: unavailableHere().detail! };
      return deps.module.relayStatus();
    },
    poolFee: (_p: Principal, feeToken?: string) => need().poolFee(feeToken).catch(mapError),
    async signProofInvocation(p: Principal, ref: string, compileActionsCalldata: readonly unknown[]) {
      const m = need();
      const { row, w } = await wallet(p, ref, "sign");
      const counted = await reserve(m, p, row.id, w, compileActionsCalldata);
      const r = await m.signProofInvocation(w, compileActionsCalldata).catch(async (e: unknown) => {
        // A refusal (ours or the prover's) leaves no usable signature: the record goes. A signing that failed
        // for want of an answer keeps it: the prover may hold the signed invocation and prove it yet.
        if (e instanceof Strk20Error && e.kind !== "unavailable") await deps.db.deleteFrom("strk20_signings").where("id", "=", counted.id).execute();
        return mapError(e);
      });
      return { wallet: row.id, name: row.name, address: row.address, ...r, countedUsd: counted.usd, gated: false, notice: UNGATED_NOTICE };
    },
    async viewingKeySignature(p: Principal, ref: string) {
      const m = need();
      const { row, w } = await wallet(p, ref, "viewing-key");
      const r = await m.viewingKeySignature(w).catch(mapError);
      return { wallet: row.id, name: row.name, address: row.address, ...r, disclosesViewingKey: true };
    },
    relayPrivateAction: (_p: Principal, a: Parameters<Strk20Module["relay"]>[0]) =>
      need()
        .relay(a)
        .then((r) => ({ ...r, gated: false, notice: UNGATED_NOTICE }))
        .catch(mapError),
  };
}

export type Strk20Service = ReturnType<typeof createStrk20Service>;
