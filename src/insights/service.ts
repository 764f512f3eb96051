import { sql } from "kysely";
import type { Database } from "../db/client";
import type { Principal } from "../accounts/principal";
import type { Clock } from "../lib/clock";
import { notFound } from "../lib/errors";

/**
 * Time series for the owner's charts. Every query is scoped by the principal's account and bounded in
 * time; days are UTC days.
 */
export interface VerdictDay {
  day: string;
  ALLOW: number;
  BLOCK: number;
  ESCALATE: number;
  none: number;
}
export interface CreditDay {
  day: string;
  spent: number;
  bought: number;
}
export interface Point {
  at: Date;
  value: number;
}

const DAY_MS = 86_400_000;
/** A balance sample is kept at most every five minutes per wallet. */
const BALANCE_SAMPLE_MS = 5 * 60_000;

/** The last `days` UTC days, oldest first, as YYYY-MM-DD. */
export function dayKeys(now: Date, days: number): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: days }, (_, i) => new Date(today - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10));
}

export function createInsightsService({ db, clock }: { db: Database; clock: Clock }) {
  async function ownWallet(principal: Principal, walletId: string) {
    const w = await db.selectFrom("wallets").select(["id", "limits"]).where("id", "=", walletId).where("account_id", "=", principal.accountId).executeTakeFirst();
    if (!w) throw notFound();
    return w;
  }

  return {
    async verdictsPerDay(principal: Principal, days = 30): Promise<VerdictDay[]> {
      const keys = dayKeys(clock.now(), days);
      const rows = (
        await sql<{ day: string; verdict: string | null; n: number }>`
          select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day, verdict, count(*)::int as n
          from verifications
          where account_id = ${principal.accountId} and status = 'COMPLETED' and created_at >= ${new Date(`${keys[0]}T00:00:00Z`)}
          group by 1, 2`.execute(db)
      ).rows;
      const out = new Map(keys.map((day) => [day, { day, ALLOW: 0, BLOCK: 0, ESCALATE: 0, none: 0 }]));
      for (const r of rows) {
        const d = out.get(r.day);
        if (!d) continue;
        if (r.verdict === "ALLOW" || r.verdict === "BLOCK" || r.verdict === "ESCALATE") d[r.verdict] += r.n;
        else d.none += r.n;
      }
      return [...out.values()];
    },

    /** Spent: debits net of their refunds; bought: x402 top-ups. Grants and operator adjustments are neither. */
    async creditsPerDay(principal: Principal, days = 30): Promise<CreditDay[]> {
      const keys = dayKeys(clock.now(), days);
      const rows = (
        await sql<{ day: string; spent: number; bought: number }>`
          select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day,
                 (coalesce(-sum(delta) filter (where delta < 0), 0) - coalesce(sum(delta) filter (where reason like 'refund:%'), 0))::int as spent,
                 coalesce(sum(delta) filter (where reason like 'topup:%'), 0)::int as bought
          from credit_entries
          where account_id = ${principal.accountId} and created_at >= ${new Date(`${keys[0]}T00:00:00Z`)}
          group by 1`.execute(db)
      ).rows;
      const by = new Map(rows.map((r) => [r.day, r]));
      return keys.map((day) => ({ day, spent: Math.max(0, by.get(day)?.spent ?? 0), bought: by.get(day)?.bought ?? 0 }));
    },

    /** Proposals of the last `days` days by where they ended (a held one past its window counts as expired). */
    async proposalOutcomes(principal: Principal, days = 30): Promise<Record<string, number>> {
      const rows = (
        await sql<{ status: string; n: number }>`
          select case when status = 'awaiting_user' and approval_expires_at <= now() then 'expired' else status end as status, count(*)::int as n
          from proposals
          where account_id = ${principal.accountId} and origin = 'agent' and created_at >= ${new Date(clock.now().getTime() - days * DAY_MS)}
          group by 1`.execute(db)
      ).rows;
      return Object.fromEntries(rows.map((r) => [r.status, r.n]));
    },

    /** USD held against the wallet's rolling 24-hour cap, by hour of the last 24 (oldest first), and the cap. */
    async walletSpend24h(principal: Principal, walletId: string): Promise<{ hours: Point[]; total: number; capUsd: number | null }> {
      const w = await ownWallet(principal, walletId);
      const now = clock.now().getTime();
      const rows = (
        await sql<{ cap_at: Date; reserved_usd: number }>`
          select cap_at, reserved_usd from proposals
          where wallet_id = ${walletId} and account_id = ${principal.accountId} and cap_at > ${new Date(now - DAY_MS)} and reserved_usd > 0
            and status in ('verifying', 'awaiting_user', 'executing', 'executed')
            and not (status = 'awaiting_user' and approval_expires_at <= now())`.execute(db)
      ).rows;
      const start = now - DAY_MS;
      const hours = Array.from({ length: 24 }, (_, i) => ({ at: new Date(start + i * 3600_000), value: 0 }));
      let total = 0;
      for (const r of rows) {
        const i = Math.min(23, Math.max(0, Math.floor((new Date(r.cap_at).getTime() - start) / 3600_000)));
        hours[i].value += r.reserved_usd;
        total += r.reserved_usd;
      }
      const limits = (typeof w.limits === "string" ? JSON.parse(w.limits) : w.limits) as { dailyCapUsd?: number } | null;
      return { hours, total, capUsd: typeof limits?.dailyCapUsd === "number" ? limits.dailyCapUsd : null };
    },

    async walletBalanceHistory(principal: Principal, walletId: string, days = 30): Promise<Point[]> {
      await ownWallet(principal, walletId);
      const rows = await db
        .selectFrom("wallet_balance_samples")
        .select(["sampled_at", "balance_usd"])
        .where("wallet_id", "=", walletId)
        .where("account_id", "=", principal.accountId)
        .where("sampled_at", ">=", new Date(clock.now().getTime() - days * DAY_MS))
        .orderBy("sampled_at")
        .execute();
      return rows.map((r) => ({ at: new Date(r.sampled_at), value: r.balance_usd }));
    },

    /** Keeps a sample of a balance just read (at most one per wallet per five minutes; 90 days kept). */
    async recordWalletBalance(principal: Principal, walletId: string, balanceUsd: number | null): Promise<void> {
      if (balanceUsd === null || !Number.isFinite(balanceUsd)) return;
      const now = clock.now();
      await sql`
        insert into wallet_balance_samples (wallet_id, account_id, sampled_at, balance_usd)
        select w.id, w.account_id, ${now}, ${balanceUsd} from wallets w
        where w.id = ${walletId} and w.account_id = ${principal.accountId}
          and not exists (select 1 from wallet_balance_samples s where s.wallet_id = w.id and s.sampled_at > ${new Date(now.getTime() - BALANCE_SAMPLE_MS)})
        on conflict do nothing`.execute(db);
      await sql`delete from wallet_balance_samples where wallet_id = ${walletId} and account_id = ${principal.accountId} and sampled_at < ${new Date(now.getTime() - 90 * DAY_MS)}`.execute(db);
    },

    async traderHistory(principal: Principal, instanceId: string, days = 7): Promise<{ exposure: Point[]; pnl: Point[] }> {
      const rows = await db
        .selectFrom("heartbeat_samples")
        .select(["sampled_at", "total_exposure_usd", "daily_realized_pnl_usd"])
        .where("account_id", "=", principal.accountId)
        .where("instance_id", "=", instanceId)
        .where("sampled_at", ">=", new Date(clock.now().getTime() - days * DAY_MS))
        .orderBy("sampled_at")
        .execute();
      return {
        exposure: rows.map((r) => ({ at: new Date(r.sampled_at), value: r.total_exposure_usd })),
        pnl: rows.map((r) => ({ at: new Date(r.sampled_at), value: r.daily_realized_pnl_usd })),
      };
    },
  };
}
export type InsightsService = ReturnType<typeof createInsightsService>;
