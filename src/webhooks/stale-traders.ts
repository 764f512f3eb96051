import { sql } from "kysely";
import type { Database } from "../db/client";

/**
 * Records `trader.stale` once per silence (by the service clock, as heartbeats' `received_at` and the
 * dashboard's stale flag are): for each trader whose last heartbeat is older than `staleMs` and
 * that has not been reported since, marks it and records the event in one statement. Rows are claimed
 * with SKIP LOCKED, so two processes sweeping at once report each silence once; the next heartbeat
 * (received_at after stale_notified_at) re-arms it.
 */
export async function sweepStaleTraders(db: Database, now: Date, staleMs: number): Promise<number> {
  const res = await sql<{ n: number }>`
    with stale as (
      select account_id, instance_id from heartbeats
      where received_at < ${new Date(now.getTime() - staleMs)}
        and (stale_notified_at is null or stale_notified_at <= received_at)
      limit 200
      for update skip locked
    ), marked as (
      update heartbeats h set stale_notified_at = ${now}
      from stale where h.account_id = stale.account_id and h.instance_id = stale.instance_id
      returning h.*
    )
    select count(webhook_emit(account_id, 'trader.stale', jsonb_build_object(
      'instanceId', instance_id, 'name', name, 'venue', venue, 'lastHeartbeatAt', received_at,
      'lastTickAt', last_tick_at, 'state', state, 'openPositions', open_positions,
      'totalExposureUsd', total_exposure_usd)))::int as n
    from marked`.execute(db);
  return res.rows[0]?.n ?? 0;
}
