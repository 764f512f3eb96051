import { sql } from "kysely";
import type { Database } from "../db/client";
import type { Principal } from "../accounts/principal";
import type { Clock } from "../lib/clock";
import { invalidInput, notFound } from "../lib/errors";
import { prefixedId } from "../lib/ids";
import { vetUrl } from "../net/ssrf-fetch";
import { checkAddress, type AddressPolicy } from "../net/ssrf";
import type { MasterKey } from "../wallets/custody/envelope";
import { CreditsLowThreshold, WebhookEndpointInput } from "./schemas";
import { newSecret, sealSecret } from "./signing";
import type { WebhookEventType } from "./events";

/** An old secret keeps signing this long after a rotation, so receivers can switch without losing events. */
export const ROTATION_OVERLAP_MS = 24 * 3600_000;

export interface EndpointView {
  id: string;
  url: string;
  description: string | null;
  events: WebhookEventType[];
  state: "active" | "paused" | "disabled";
  disabledReason: string | null;
  consecutiveFailures: number;
  createdAt: Date;
}

export interface DeliveryView {
  id: string;
  eventId: string;
  type: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  nextAttemptAt: Date;
  deliveredAt: Date | null;
  createdAt: Date;
}

export interface EndpointDeps {
  db: Database;
  clock: Clock;
  masterKey: MasterKey;
  /** Plain http and loopback receivers are for the sandbox and tests only. */
  fetchPolicy: AddressPolicy & { allowHttp: boolean };
}

function parseInput(deps: EndpointDeps, raw: unknown): WebhookEndpointInput {
  const parsed = WebhookEndpointInput.safeParse(raw);
  if (!parsed.success) throw invalidInput(parsed.error.issues.map((i) => i.message).join("; "));
  let url: URL;
  try {
    url = vetUrl(parsed.data.url, { allowHttp: deps.fetchPolicy.allowHttp });
  } catch (err) {
    throw invalidInput(`url: ${(err as Error).message}`);
  }
  // A literal private address is refused now; a name is resolved and checked at every delivery.
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (/^[\d.]+$|:/.test(host)) {
    const v = checkAddress(host, deps.fetchPolicy);
    if (!v.ok) throw invalidInput(`url: ${v.reason} is not allowed`);
  }
  return { ...parsed.data, url: url.toString(), events: [...new Set(parsed.data.events)] };
}

const view = (r: {
  id: string;
  url: string;
  description: string | null;
  events: string[];
  paused_at: Date | null;
  disabled_at: Date | null;
  disabled_reason: string | null;
  consecutive_failures: number;
  created_at: Date;
}): EndpointView => ({
  id: r.id,
  url: r.url,
  description: r.description,
  events: r.events as WebhookEventType[],
  state: r.disabled_at ? "disabled" : r.paused_at ? "paused" : "active",
  disabledReason: r.disabled_reason,
  consecutiveFailures: r.consecutive_failures,
  createdAt: new Date(r.created_at),
});

export function createEndpointService(deps: EndpointDeps) {
  const { db, clock, masterKey } = deps;
  const cols = ["id", "url", "description", "events", "paused_at", "disabled_at", "disabled_reason", "consecutive_failures", "created_at"] as const;

  async function own(principal: Principal, id: string) {
    const row = await db.selectFrom("webhook_endpoints").select(cols).where("id", "=", id).where("account_id", "=", principal.accountId).executeTakeFirst();
    if (!row) throw notFound();
    return row;
  }

  async function touch(principal: Principal, id: string, set: Record<string, unknown>) {
    await own(principal, id);
    await db
      .updateTable("webhook_endpoints")
      .set({ ...set, updated_at: clock.now() })
      .where("id", "=", id)
      .where("account_id", "=", principal.accountId)
      .execute();
  }

  return {
    async list(principal: Principal): Promise<EndpointView[]> {
      const rows = await db.selectFrom("webhook_endpoints").select(cols).where("account_id", "=", principal.accountId).orderBy("created_at").execute();
      return rows.map(view);
    },

    async get(principal: Principal, id: string): Promise<EndpointView> {
      return view(await own(principal, id));
    },

    /** The secret is returned here once and never again (it is stored sealed). */
    async create(principal: Principal, raw: unknown): Promise<{ endpoint: EndpointView; secret: string }> {
      const input = parseInput(deps, raw);
      const count = await db.selectFrom("webhook_endpoints").select((eb) => eb.fn.countAll<string>().as("n")).where("account_id", "=", principal.accountId).executeTakeFirstOrThrow();
      if (Number(count.n) >= 10) throw invalidInput("an account can have at most 10 webhook endpoints");
      const id = prefixedId("whep");
      const secret = newSecret();
      const row = await db
        .insertInto("webhook_endpoints")
        .values({
          id,
          account_id: principal.accountId,
          url: input.url,
          description: input.description || null,
          events: input.events,
          secret: JSON.stringify(sealSecret(masterKey, id, secret)),
          previous_secret: null,
          previous_secret_until: null,
          paused_at: null,
          disabled_at: null,
          disabled_reason: null,
        })
        .returning(cols)
        .executeTakeFirstOrThrow();
      return { endpoint: view(row), secret };
    },

    async update(principal: Principal, id: string, raw: unknown): Promise<EndpointView> {
      const input = parseInput(deps, raw);
      await touch(principal, id, { url: input.url, events: input.events, description: input.description || null });
      return view(await own(principal, id));
    },

    /** A new secret, shown once; the old one keeps signing (as a second signature) for a day. */
    async rotateSecret(principal: Principal, id: string): Promise<{ secret: string }> {
      await own(principal, id);
      const secret = newSecret();
      await db
        .updateTable("webhook_endpoints")
        .set({
          previous_secret: sql`secret`,
          previous_secret_until: sql<Date>`now() + make_interval(secs => ${ROTATION_OVERLAP_MS / 1000})`,
          secret: JSON.stringify(sealSecret(masterKey, id, secret)),
          updated_at: clock.now(),
        })
        .where("id", "=", id)
        .where("account_id", "=", principal.accountId)
        .execute();
      return { secret };
    },

    /** Paused: events are still recorded for it and delivered after resuming (within their 24 hours). */
    pause: (principal: Principal, id: string) => touch(principal, id, { paused_at: clock.now() }),
    resume: (principal: Principal, id: string) => touch(principal, id, { paused_at: null }),
    /** Turns a disabled endpoint back on; deliveries that gave up stay failed (resend them one by one). */
    enable: (principal: Principal, id: string) => touch(principal, id, { disabled_at: null, disabled_reason: null, consecutive_failures: 0 }),

    async remove(principal: Principal, id: string): Promise<void> {
      await own(principal, id);
      await db.deleteFrom("webhook_endpoints").where("id", "=", id).where("account_id", "=", principal.accountId).execute();
    },

    async deliveries(principal: Principal, endpointId: string, limit = 50): Promise<DeliveryView[]> {
      await own(principal, endpointId);
      const rows = await db
        .selectFrom("webhook_deliveries as d")
        .innerJoin("webhook_events as e", "e.id", "d.event_id")
        .select(["d.id", "d.event_id", "e.type", "d.status", "d.attempts", "d.last_status", "d.last_error", "d.next_attempt_at", "d.delivered_at", "d.created_at"])
        .where("d.endpoint_id", "=", endpointId)
        .where("d.account_id", "=", principal.accountId)
        .orderBy("d.id", "desc")
        .limit(limit)
        .execute();
      return rows.map((r) => ({
        id: String(r.id),
        eventId: r.event_id,
        type: r.type,
        status: r.status,
        attempts: r.attempts,
        lastStatus: r.last_status,
        lastError: r.last_error,
        nextAttemptAt: new Date(r.next_attempt_at),
        deliveredAt: r.delivered_at ? new Date(r.delivered_at) : null,
        createdAt: new Date(r.created_at),
      }));
    },

    /** Sends the same event (same webhook-id) again now, with a fresh 24 hours of retries. */
    async resend(principal: Principal, deliveryId: string): Promise<void> {
      if (!/^\d{1,18}$/.test(deliveryId)) throw notFound();
      // Database time, like the delivery worker's claims (several processes, one clock).
      const res = await db
        .updateTable("webhook_deliveries")
        .set({ status: "pending", next_attempt_at: sql<Date>`now()`, give_up_at: sql<Date>`now() + interval '24 hours'`, last_error: null })
        .where("id", "=", deliveryId)
        .where("account_id", "=", principal.accountId)
        .executeTakeFirst();
      if (!res.numUpdatedRows) throw notFound();
    },

    async creditsLowThreshold(principal: Principal): Promise<number | null> {
      const row = await db.selectFrom("accounts").select("credits_low_threshold").where("id", "=", principal.accountId).executeTakeFirstOrThrow();
      return row.credits_low_threshold;
    },

    async setCreditsLowThreshold(principal: Principal, threshold: number | null): Promise<void> {
      if (!CreditsLowThreshold.safeParse(threshold).success) throw invalidInput("threshold must be a whole number of credits from 0 to 1,000,000");
      await db.updateTable("accounts").set({ credits_low_threshold: threshold }).where("id", "=", principal.accountId).execute();
    },
  };
}
export type EndpointService = ReturnType<typeof createEndpointService>;
