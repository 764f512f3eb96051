/**
 * STRK20 verbs the transports call (SPEC 4.12): the wallet is found on the caller's account and must be a
 * server-custodied Starknet wallet that is not archived; the chain module (src/chains/starknet/strk20) does
 * the rest. `signProofInvocation` and `relayPrivateAction` put an action on chain with no proposal (no
 * simulation, limit check or verdict): a `safe` wallet refuses signing, because its owner approves every
 * action; the gated route is `escrow_execute` with `starknetCalls` and `starknetProof`.
 */
import type { Kysely } from "kysely";
import type { Principal } from "../accounts/principal";
import type { Strk20Module } from "../chains/starknet/strk20/private-actions";
import { Strk20Error } from "../chains/starknet/strk20/errors";
import type { DB } from "../db/schema";
import { ServiceError } from "../lib/errors";
import { limitsFromRow } from "../wallets/limits";
import { walletNotFound } from "../wallets/repo";

export const UNGATED_NOTICE =
  "This path puts the action on chain with no proposal: no simulation, no limit check beyond the custody rules, no verdict. The gated route is escrow_execute with starknetCalls and starknetProof.";

function mapError(e: unknown): never {
  if (e instanceof Strk20Error) {
    if (e.kind === "refused") throw new ServiceError("invalid_input", "strk20_refused", e.message);
    if (e.kind === "rejected") throw new ServiceError("upstream_failed", "strk20_rejected", e.message);
    throw new ServiceError(e.kind === "unconfigured" ? "unavailable" : "upstream_failed", "strk20_unavailable", e.message);
  }
  throw e;
}

const unavailableHere = () => new ServiceError("unavailable", "strk20_unavailable", "STRK20 private actions are not available on this deployment (no pool and proving service configured: STRK20_POOL_ADDRESS, STRK20_PROVER_URL)");

export function createStrk20Service(deps: { db: Kysely<DB>; module: Strk20Module | null }) {
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
  return {
    async relayStatus() {
      if (!deps.module) return { configured: false, keyConfigured: false, relayReachable: false, keyAccepted: false, pool: null, reason: unavailableHere().detail! };
      return deps.module.relayStatus();
    },
    poolFee: (_p: Principal, feeToken?: string) => need().poolFee(feeToken).catch(mapError),
    async signProofInvocation(p: Principal, ref: string, compileActionsCalldata: readonly unknown[]) {
      const m = need();
      const { row, w } = await wallet(p, ref, "sign");
      const r = await m.signProofInvocation(w, compileActionsCalldata).catch(mapError);
      return { wallet: row.id, name: row.name, address: row.address, ...r, gated: false, notice: UNGATED_NOTICE };
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
