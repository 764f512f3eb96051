import type { Logger } from "pino";
import type { Database } from "../db/client";
import type { Clock } from "../lib/clock";
import type { MasterKey } from "../wallets/custody/envelope";
import { createEndpointService } from "./endpoints";
import { deliverDue, type DeliverySettings } from "./delivery";
import { sweepStaleTraders } from "./stale-traders";

export interface WebhookServiceDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  masterKey: MasterKey;
  publicUrl: string;
  delivery: DeliverySettings;
  pollMs: number;
  traderStaleMs: number;
}

/**
 * Webhooks to the owner's systems: endpoints (the owner's verbs) and the background work that delivers
 * recorded events and notices stale traders. Both loops claim their rows in the database, so any number
 * of processes may run them.
 */
export function createWebhookService(deps: WebhookServiceDeps) {
  const { logger } = deps;
  const log = logger.child({ component: "webhooks" });
  const endpoints = createEndpointService({ db: deps.db, clock: deps.clock, masterKey: deps.masterKey, fetchPolicy: { allowHttp: !!deps.delivery.fetch.allowHttp, allowLoopback: deps.delivery.fetch.allowLoopback } });
  const timers: NodeJS.Timeout[] = [];
  let running: Promise<unknown> | null = null;
  let stopped = false;

  const deliverNow = async () => {
    while (!stopped && (await deliverDue({ db: deps.db, masterKey: deps.masterKey, logger: log, publicUrl: deps.publicUrl, settings: deps.delivery })) === deps.delivery.batch);
  };

  function loop(ms: number, work: () => Promise<unknown>, what: string) {
    const t = setInterval(() => {
      if (running || stopped) return;
      running = work()
        .catch((err) => log.error({ err }, `webhooks: ${what} failed`))
        .finally(() => (running = null));
    }, ms);
    t.unref();
    timers.push(t);
  }

  return {
    endpoints,
    /** One delivery pass now (tests, and right after the owner's "resend"). */
    deliverNow,
    sweepStaleTraders: () => sweepStaleTraders(deps.db, deps.clock.now(), deps.traderStaleMs),
    start() {
      loop(deps.pollMs, deliverNow, "delivery");
      loop(Math.max(deps.pollMs, Math.min(30_000, deps.traderStaleMs / 4)), () => sweepStaleTraders(deps.db, deps.clock.now(), deps.traderStaleMs), "stale-trader sweep");
    },
    async stop() {
      stopped = true;
      for (const t of timers) clearInterval(t);
      await running;
    },
  };
}
export type WebhookService = ReturnType<typeof createWebhookService>;
