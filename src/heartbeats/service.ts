import type { Database } from "../db/client";
import type { Principal } from "../accounts/principal";
import type { Clock } from "../lib/clock";
import { UNKNOWN, type HeartbeatRecord, type HeartbeatRequest } from "./schemas";

/** A trader that has not reported for this long is shown as stale. */
export const HEARTBEAT_STALE_MS = 5 * 60_000;

export function createHeartbeatService({ db, clock, staleMs = HEARTBEAT_STALE_MS }: { db: Database; clock: Clock; staleMs?: number }) {
  return {
    /** Upserts the one record per (account, instanceId). */
    async record(principal: Principal, hb: HeartbeatRequest): Promise<{ ok: true }> {
      const row = {
        account_id: principal.accountId,
        instance_id: hb.instanceId.toLowerCase(),
        name: hb.name,
        version: hb.version,
        state: hb.state ?? hb.status ?? null,
        mode: hb.mode ?? null,
        dry_run: hb.dryRun,
        venue: hb.venue,
        wallet_address: hb.walletAddress,
        started_at: hb.startedAt,
        last_tick_at: hb.lastTickAt,
        open_positions: hb.openPositions,
        total_exposure_usd: hb.totalExposureUsd,
        daily_realized_pnl_usd: hb.dailyRealizedPnlUsd,
        credits_remaining: hb.creditsRemaining,
        note: hb.note ?? null,
        received_at: clock.now(),
      };
      const { account_id: _a, instance_id: _i, state: _s, mode: _m, ...update } = row;
      // A heartbeat without a run state or mode keeps the last one reported ("unknown" only until then).
      await db
        .insertInto("heartbeats")
        .values(row)
        .onConflict((oc) =>
          oc.columns(["account_id", "instance_id"]).doUpdateSet((eb) => ({
            ...update,
            state: eb.fn.coalesce("excluded.state", "heartbeats.state"),
            mode: eb.fn.coalesce("excluded.mode", "heartbeats.mode"),
          })),
        )
        .execute();
      return { ok: true };
    },

    async list(principal: Principal): Promise<HeartbeatRecord[]> {
      const rows = await db.selectFrom("heartbeats").selectAll().where("account_id", "=", principal.accountId).orderBy("received_at", "desc").execute();
      const now = clock.now().getTime();
      return rows.map((r) => ({
        instanceId: r.instance_id,
        name: r.name,
        version: r.version,
        state: (r.state ?? UNKNOWN) as HeartbeatRecord["state"],
        mode: (r.mode ?? UNKNOWN) as HeartbeatRecord["mode"],
        dryRun: r.dry_run,
        venue: r.venue,
        walletAddress: r.wallet_address,
        startedAt: new Date(r.started_at).toISOString(),
        lastTickAt: new Date(r.last_tick_at).toISOString(),
        openPositions: r.open_positions,
        totalExposureUsd: r.total_exposure_usd,
        dailyRealizedPnlUsd: r.daily_realized_pnl_usd,
        creditsRemaining: r.credits_remaining,
        note: r.note ?? undefined,
        receivedAt: new Date(r.received_at).toISOString(),
        stale: now - new Date(r.received_at).getTime() > staleMs,
      }));
    },
  };
}
export type HeartbeatService = ReturnType<typeof createHeartbeatService>;
