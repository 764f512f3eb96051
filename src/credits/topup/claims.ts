/**
 * topup_payments as a claim store. A row is inserted (the claim) on the UNIQUE (payer, nonce) key BEFORE
 * the facilitator settles, which binds the authorization to one account before any money moves. The
 * request that inserted it holds a lease (token + expiry) while it verifies and settles; a crash leaves an
 * expired lease that a retry or the recovery sweep takes over. Crediting flips 'pending' -> 'credited' in
 * the same transaction as the ledger entry, so an authorization is credited at most once.
 */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import type { Database } from "../../db/client";
import type { Clock } from "../../lib/clock";
import { prefixedId } from "../../lib/ids";
import type { SettleResponse } from "../../x402";
import { applyCreditChange } from "../ledger";

export type ClaimStatus = "pending" | "credited";

export interface NewClaim {
  accountId: string;
  /** Lowercase address. */
  payer: string;
  /** Lowercase 0x + 64 hex. */
  nonce: string;
  credits: number;
  usd: string;
  amountAtomic: bigint;
  network: string;
  asset: string;
  payTo: string;
  payload: unknown;
  source: "http" | "mcp";
}

export interface Claim extends Omit<NewClaim, "source"> {
  id: string;
  status: ClaimStatus;
  txHash: string | null;
  settleResponse: SettleResponse | null;
  leaseToken: string | null;
  leaseUntil: Date | null;
  settleStartedAt: Date | null;
  createdAt: Date;
}

/** A claim held by this request: only the holder of `token` may release it. */
export interface HeldClaim {
  claim: Claim;
  token: string;
}

export const CREDIT_REASON = "topup:x402";

const parseJson = (v: unknown): unknown => (typeof v === "string" ? JSON.parse(v) : v);

type Row = {
  id: string;
  account_id: string;
  payer: string;
  nonce: string;
  credits: number;
  usd: string;
  amount_atomic: string;
  network: string | null;
  asset: string | null;
  pay_to: string | null;
  status: string;
  tx_hash: string | null;
  payload: unknown;
  settle_response: unknown;
  lease_token: string | null;
  lease_until: Date | string | null;
  settle_started_at: Date | string | null;
  created_at: Date | string;
};

const date = (v: Date | string | null): Date | null => (v === null ? null : v instanceof Date ? v : new Date(v));

function toClaim(r: Row): Claim {
  return {
    id: r.id,
    accountId: r.account_id,
    payer: r.payer,
    nonce: r.nonce,
    credits: r.credits,
    usd: r.usd,
    amountAtomic: BigInt(r.amount_atomic),
    network: r.network ?? "",
    asset: r.asset ?? "",
    payTo: r.pay_to ?? "",
    status: r.status === "credited" ? "credited" : "pending",
    txHash: r.tx_hash,
    payload: parseJson(r.payload),
    settleResponse: (parseJson(r.settle_response) as SettleResponse | null) ?? null,
    leaseToken: r.lease_token,
    leaseUntil: date(r.lease_until),
    settleStartedAt: date(r.settle_started_at),
    createdAt: date(r.created_at) as Date,
  };
}

export function createClaimStore(deps: { db: Database; clock: Clock; leaseMs: number }) {
  const { db, clock } = deps;
  const leaseEnd = () => new Date(clock.now().getTime() + deps.leaseMs);
  const cols = [
    "id",
    "account_id",
    "payer",
    "nonce",
    "credits",
    "usd",
    "amount_atomic",
    "network",
    "asset",
    "pay_to",
    "status",
    "tx_hash",
    "payload",
    "settle_response",
    "lease_token",
    "lease_until",
    "settle_started_at",
    "created_at",
  ] as const;

  return {
    async find(payer: string, nonce: string): Promise<Claim | null> {
      const r = await db.selectFrom("topup_payments").select(cols).where("payer", "=", payer.toLowerCase()).where("nonce", "=", nonce.toLowerCase()).executeTakeFirst();
      return r ? toClaim(r as Row) : null;
    },

    async get(id: string): Promise<Claim | null> {
      const r = await db.selectFrom("topup_payments").select(cols).where("id", "=", id).executeTakeFirst();
      return r ? toClaim(r as Row) : null;
    },

    /**
     * INSERT on the unique (payer, nonce) key. Under concurrency the database makes exactly one insert win;
     * the others see the winner's row (null only if it was released in between: try again).
     */
    async claim(c: NewClaim): Promise<{ won: true; held: HeldClaim } | { won: false; existing: Claim | null }> {
      const token = randomUUID();
      const inserted = await db
        .insertInto("topup_payments")
        .values({
          id: prefixedId("tpay"),
          account_id: c.accountId,
          payer: c.payer.toLowerCase(),
          nonce: c.nonce.toLowerCase(),
          credits: c.credits,
          usd: c.usd,
          amount_atomic: c.amountAtomic.toString(),
          status: "pending",
          tx_hash: null,
          payload: JSON.stringify(c.payload),
          credited_at: null,
          network: c.network,
          asset: c.asset.toLowerCase(),
          pay_to: c.payTo.toLowerCase(),
          lease_token: token,
          lease_until: leaseEnd(),
          settle_started_at: null,
          settle_response: null,
          source: c.source,
        })
        .onConflict((oc) => oc.columns(["payer", "nonce"]).doNothing())
        .returning(cols)
        .executeTakeFirst();
      if (inserted) return { won: true, held: { claim: toClaim(inserted as Row), token } };
      return { won: false, existing: await this.find(c.payer, c.nonce) };
    },

    /** Takes over a pending claim whose lease has expired (its holder died or gave up). */
    async takeOver(id: string): Promise<HeldClaim | null> {
      const token = randomUUID();
      const r = await db
        .updateTable("topup_payments")
        .set({ lease_token: token, lease_until: leaseEnd() })
        .where("id", "=", id)
        .where("status", "=", "pending")
        .where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<=", clock.now())]))
        .returning(cols)
        .executeTakeFirst();
      return r ? { claim: toClaim(r as Row), token } : null;
    },

    /** Pending claims nobody holds (for the recovery sweep), oldest first. */
    async stale(limit: number): Promise<Claim[]> {
      const rows = await db
        .selectFrom("topup_payments")
        .select(cols)
        .where("status", "=", "pending")
        .where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<=", clock.now())]))
        .orderBy("created_at", "asc")
        .limit(limit)
        .execute();
      return rows.map((r) => toClaim(r as Row));
    },

    /** Deletes a pending claim this request holds: only when no money can have moved for it. */
    async release(h: HeldClaim): Promise<void> {
      await db.deleteFrom("topup_payments").where("id", "=", h.claim.id).where("status", "=", "pending").where("lease_token", "=", h.token).execute();
    },

    /**
     * Ends every pending claim's lease now. Only for a process that owns the database alone (PGlite, held by
     * the DATA_DIR lock) at start-up, before it serves: every lease still running then belongs to a process
     * that died, and waiting it out would only delay crediting (by up to leaseMs).
     */
    async expireHeldLeases(): Promise<number> {
      const now = clock.now();
      const res = await db.updateTable("topup_payments").set({ lease_until: now }).where("status", "=", "pending").where("lease_until", ">", now).executeTakeFirst();
      return Number(res.numUpdatedRows);
    },

    /** Ends the lease now, keeping the claim (a retry or the sweep continues at once). */
    async yieldLease(h: HeldClaim): Promise<void> {
      await db
        .updateTable("topup_payments")
        .set({ lease_until: clock.now() })
        .where("id", "=", h.claim.id)
        .where("status", "=", "pending")
        .where("lease_token", "=", h.token)
        .execute();
    },

    /** Recorded just before settling: from here on the claim may have moved money. */
    async markSettling(h: HeldClaim): Promise<void> {
      const now = clock.now();
      await db
        .updateTable("topup_payments")
        .set({ settle_started_at: sql<Date>`coalesce(settle_started_at, ${now})`, lease_until: leaseEnd() })
        .where("id", "=", h.claim.id)
        .where("status", "=", "pending")
        .execute();
      h.claim.settleStartedAt ??= now;
    },

    /**
     * Credits the claim's account, once: the pending -> credited flip and the ledger entry commit together.
     * Returns the new balance, or null when the claim was already credited (by a concurrent request).
     */
    async credit(claimId: string, settlement: { txHash: string; response: SettleResponse }): Promise<{ balance: number; claim: Claim } | null> {
      return db.transaction().execute(async (tx) => {
        const r = await tx
          .updateTable("topup_payments")
          .set({
            status: "credited",
            tx_hash: settlement.txHash,
            settle_response: JSON.stringify(settlement.response),
            credited_at: clock.now(),
            lease_token: null,
            lease_until: null,
          })
          .where("id", "=", claimId)
          .where("status", "=", "pending")
          .returning(cols)
          .executeTakeFirst();
        if (!r) return null;
        const claim = toClaim(r as Row);
        const balance = await applyCreditChange(tx, { accountId: claim.accountId, delta: claim.credits, reason: CREDIT_REASON, ref: claim.id });
        if (balance === null) throw new Error(`crediting ${claim.id} failed: account ${claim.accountId} missing`);
        return { balance, claim };
      });
    },
  };
}

export type ClaimStore = ReturnType<typeof createClaimStore>;
