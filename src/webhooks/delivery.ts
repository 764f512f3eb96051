import { sql } from "kysely";
import type { Logger } from "pino";
import type { Database } from "../db/client";
import { guardedFetch, type GuardedFetchOptions } from "../net/ssrf-fetch";
import type { Envelope, MasterKey } from "../wallets/custody/envelope";
import { openSecret, signatureHeaders } from "./signing";
import { approvalUrlOf } from "../proposals/present";
import { ruleChangeUrl } from "../wallets/rule-changes";

export interface DeliverySettings {
  /** Retries back off from this delay, doubling (with jitter) up to two hours, for 24 hours. */
  retryBaseMs: number;
  /** An endpoint whose deliveries failed this many times in a row is disabled; the owner sees why. */
  disableAfterFailures: number;
  /** A claimed delivery is invisible to other processes this long; past it (a crash), it is retried. */
  leaseMs: number;
  timeoutMs: number;
  batch: number;
  fetch: Pick<GuardedFetchOptions, "allowHttp" | "allowLoopback" | "resolve">;
}

export interface DeliveryDeps {
  db: Database;
  masterKey: MasterKey;
  logger: Logger;
  publicUrl: string;
  settings: DeliverySettings;
}

const MAX_BACKOFF_MS = 2 * 3600_000;

export function backoffMs(attempts: number, baseMs: number, random = Math.random): number {
  const exp = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(exp * (0.8 + 0.4 * random()));
}

/** What the receiver gets: `{type, timestamp, data}` as Standard Webhooks suggests; links are added here. */
export function eventBody(publicUrl: string, ev: { type: string; payload: unknown; created_at: Date }): string {
  const data = { ...(ev.payload as Record<string, unknown>) };
  if (typeof data.proposalId === "string") {
    data.proposalUrl = approvalUrlOf(publicUrl, data.proposalId);
    if (ev.type === "proposal.awaiting_user") data.approvalUrl = data.proposalUrl;
  }
  if (typeof data.walletId === "string") data.walletUrl = `${publicUrl}/dashboard/wallets/${data.walletId}`;
  // A rule change waiting for the owner links to where it is approved (the agent's error gives the same link).
  if (ev.type === "wallet.rules_changed" && data.status === "pending" && typeof data.changeId === "string" && typeof data.walletId === "string") {
    data.approvalUrl = ruleChangeUrl(publicUrl, data.walletId, data.changeId);
  }
  return JSON.stringify({ type: ev.type, timestamp: new Date(ev.created_at).toISOString(), data });
}

interface Claimed {
  id: string;
  event_id: string;
  endpoint_id: string;
  attempts: number;
  give_up_at: Date;
}

/**
 * One pass of the delivery worker: claims due deliveries (FOR UPDATE SKIP LOCKED, then a lease written in
 * next_attempt_at, committed before any request is sent), sends each, and records the outcome. At least
 * once: a process killed after sending and before recording sends again after the lease; receivers
 * de-duplicate by `webhook-id` (the event id, the same on every attempt and every endpoint).
 */
export async function deliverDue(deps: DeliveryDeps): Promise<number> {
  const { db, settings } = deps;
  const claimed = (
    await sql<Claimed>`
      with due as (
        select d.id from webhook_deliveries d
        join webhook_endpoints e on e.id = d.endpoint_id
        where d.status = 'pending' and d.next_attempt_at <= now() and e.paused_at is null and e.disabled_at is null
        order by d.next_attempt_at
        limit ${settings.batch}
        for update of d skip locked
      )
      update webhook_deliveries d
      set next_attempt_at = now() + make_interval(secs => ${settings.leaseMs / 1000}), attempts = d.attempts + 1, last_attempt_at = now()
      from due where d.id = due.id
      returning d.id, d.event_id, d.endpoint_id, d.attempts, d.give_up_at`.execute(db)
  ).rows;
  await Promise.all(claimed.map((c) => deliverOne(deps, c).catch((err) => deps.logger.error({ err, delivery: String(c.id) }, "webhooks: delivery bookkeeping failed"))));
  return claimed.length;
}

async function deliverOne(deps: DeliveryDeps, c: Claimed): Promise<void> {
  const { db, settings, masterKey } = deps;
  const [ev, ep] = await Promise.all([
    db.selectFrom("webhook_events").select(["id", "type", "payload", "created_at"]).where("id", "=", c.event_id).executeTakeFirstOrThrow(),
    db
      .selectFrom("webhook_endpoints")
      .select(["id", "url", "secret", sql<Envelope | null>`case when previous_secret_until > now() then previous_secret end`.as("previous_secret")])
      .where("id", "=", c.endpoint_id)
      .executeTakeFirst(),
  ]);
  if (!ep) return; // deleted meanwhile: its deliveries went with it
  const secrets = [openSecret(masterKey, ep.id, ep.secret as Envelope)];
  if (ep.previous_secret) secrets.push(openSecret(masterKey, ep.id, ep.previous_secret));
  const body = eventBody(deps.publicUrl, ev);
  let status: number | null = null;
  let error: string | null = null;
  try {
    const res = await guardedFetch(
      ep.url,
      { method: "POST", headers: { "content-type": "application/json", "user-agent": "Arbiter-Webhooks/1", ...signatureHeaders(ev.id, new Date(), body, secrets) }, body },
      { ...settings.fetch, timeoutMs: settings.timeoutMs, maxBytes: 4096, onOversize: "truncate" },
    );
    status = res.status;
    if (res.status < 200 || res.status > 299) error = res.redirectTo ? `redirect to ${res.redirectTo} (not followed)` : `HTTP ${res.status}`;
  } catch (err) {
    error = (err as Error).message.slice(0, 300);
  }

  if (!error) {
    await db.transaction().execute(async (tx) => {
      await tx.updateTable("webhook_deliveries").set({ status: "delivered", delivered_at: sql`now()`, last_status: status, last_error: null }).where("id", "=", c.id).execute();
      await tx.updateTable("webhook_endpoints").set({ consecutive_failures: 0 }).where("id", "=", ep.id).where("consecutive_failures", ">", 0).execute();
    });
    return;
  }

  // Database time, as in the claim: every process schedules on one clock.
  const retryIn = sql`make_interval(secs => ${backoffMs(c.attempts, settings.retryBaseMs) / 1000})`;
  let givesUp = false;
  await db.transaction().execute(async (tx) => {
    const d = await tx
      .updateTable("webhook_deliveries")
      .set({
        status: sql<"pending" | "failed">`case when now() + ${retryIn} >= give_up_at then 'failed' else 'pending' end`,
        next_attempt_at: sql<Date>`now() + ${retryIn}`,
        last_status: status,
        last_error: error,
      })
      .where("id", "=", c.id)
      .returning("status")
      .executeTakeFirstOrThrow();
    givesUp = d.status === "failed";
    const endpoint = await tx
      .updateTable("webhook_endpoints")
      .set((eb) => ({ consecutive_failures: eb("consecutive_failures", "+", 1) }))
      .where("id", "=", ep.id)
      .returning(["consecutive_failures", "disabled_at"])
      .executeTakeFirst();
    if (endpoint && !endpoint.disabled_at && (givesUp || endpoint.consecutive_failures >= settings.disableAfterFailures)) {
      const reason = givesUp
        ? `an event could not be delivered for 24 hours (last: ${error})`
        : `${endpoint.consecutive_failures} deliveries failed in a row (last: ${error})`;
      await tx.updateTable("webhook_endpoints").set({ disabled_at: sql`now()`, disabled_reason: reason }).where("id", "=", ep.id).execute();
      deps.logger.warn({ endpoint: ep.id, reason }, "webhooks: endpoint disabled");
    }
  });
  deps.logger.info({ endpoint: ep.id, event: ev.id, attempts: c.attempts, status, error, givesUp }, "webhooks: delivery failed");
}
