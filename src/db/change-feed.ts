/**
 * Committed-change notifications from the database (migration 007: `<topic>:<key>` on channel
 * `arbiter_cache`), for in-memory read caches.
 *
 * Invariant the caches rely on: while `live` is true, every change committed after the feed went live is
 * delivered to subscribers. When the feed cannot promise that (the listening connection dropped), `live` is
 * false and subscribers' `reset` has been called: caches then read through to the database until the feed
 * is live again, and nothing cached before the gap survives it.
 *
 * - PGlite (in process, or on its worker thread, which returns a statement's notifications in the
 *   statement's reply): notifications are delivered when the committing statement completes, before its
 *   promise resolves, so a process sees its own writes at once.
 * - PostgreSQL: one dedicated connection LISTENs (not a pool connection); it reconnects with backoff.
 *   Delivery follows commit by the notification round trip (well under a millisecond on loopback), so
 *   writers in this process also announce their changes in process (announceWrite/announceCommitted).
 */
import pg from "pg";
import type { Logger } from "pino";

export const CHANGE_CHANNEL = "arbiter_cache";

export interface ChangeSubscriber {
  change(topic: string, key: string): void;
  /** A write to `key` is under way in this process and not yet committed (see announceWrite). */
  pending?(topic: string, key: string): void;
  reset(): void;
}

export interface ChangeFeed {
  readonly live: boolean;
  subscribe(s: ChangeSubscriber): void;
  close(): Promise<void>;
}

/** Subscribers of every open feed in this process, for in-process announcements. */
const inProcess = new Set<ChangeSubscriber>();

/**
 * Called by a writer BEFORE it changes `key` inside a transaction (the ledger does, src/credits/ledger.ts):
 * caches stop serving and storing that key until the commit's notification arrives (or a rollback's
 * silence times out), so no reader can cache the value from just before the commit.
 */
export function announceWrite(topic: string, key: string): void {
  for (const s of inProcess) s.pending?.(topic, key);
}

/** Called by a writer AFTER its autocommit statement changed `key`: caches drop it at once. */
export function announceCommitted(topic: string, key: string): void {
  for (const s of inProcess) s.change(topic, key);
}

function createDispatcher() {
  const subs: ChangeSubscriber[] = [];
  return {
    subscribe(s: ChangeSubscriber) {
      subs.push(s);
      inProcess.add(s);
    },
    /** On close: this feed's subscribers stop receiving in-process announcements. */
    detach() {
      for (const s of subs) inProcess.delete(s);
    },
    dispatch(payload: string | undefined) {
      const i = payload?.indexOf(":") ?? -1;
      if (!payload || i <= 0) return;
      const topic = payload.slice(0, i);
      const key = payload.slice(i + 1);
      for (const s of subs) s.change(topic, key);
    },
    reset() {
      for (const s of subs) s.reset();
    },
  };
}

/** A feed that never goes live: caches always read through (a service built without a database feed). */
export function offlineChangeFeed(): ChangeFeed {
  return { live: false, subscribe() {}, close: async () => {} };
}

interface Listenable {
  listen(channel: string, cb: (payload: string) => void): Promise<() => Promise<void>>;
}

export async function pgliteChangeFeed(pglite: Listenable): Promise<ChangeFeed> {
  const d = createDispatcher();
  const unlisten = await pglite.listen(CHANGE_CHANNEL, (payload) => d.dispatch(payload));
  return {
    live: true,
    subscribe: d.subscribe,
    close: async () => {
      d.detach();
      await unlisten();
    },
  };
}

export function postgresChangeFeed(url: string, logger?: Logger): ChangeFeed {
  const d = createDispatcher();
  let live = false;
  let closed = false;
  let client: pg.Client | null = null;
  let delay = 100;
  let timer: NodeJS.Timeout | null = null;

  const down = () => {
    if (live) logger?.warn("change feed lost its connection; caches read through until it is back");
    live = false;
    d.reset();
  };
  const connect = async () => {
    timer = null;
    if (closed) return;
    const c = new pg.Client({ connectionString: url });
    client = c;
    c.on("error", () => {});
    c.on("end", () => {
      if (client !== c) return;
      client = null;
      down();
      schedule();
    });
    c.on("notification", (n) => {
      if (n.channel === CHANGE_CHANNEL) d.dispatch(n.payload);
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${CHANGE_CHANNEL}`);
      if (closed) return void (await c.end().catch(() => {}));
      // Anything cached before this point may have missed a change while no one listened.
      d.reset();
      live = true;
      delay = 100;
    } catch {
      if (client === c) client = null;
      await c.end().catch(() => {});
      down();
      schedule();
    }
  };
  const schedule = () => {
    if (closed || timer) return;
    timer = setTimeout(() => void connect(), delay);
    timer.unref();
    delay = Math.min(delay * 2, 5_000);
  };
  void connect();
  return {
    get live() {
      return live;
    },
    subscribe: d.subscribe,
    async close() {
      d.detach();
      closed = true;
      live = false;
      if (timer) clearTimeout(timer);
      const c = client;
      client = null;
      await c?.end().catch(() => {});
    },
  };
}
