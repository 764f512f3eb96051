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
 * - PostgreSQL: one dedicated connection LISTENs (not a pool connection); it reconnects with backoff. It
 *   fails closed: the feed sends itself a heartbeat over the pool every second and stops being live when one
 *   has not come back over the listening connection for 3 s (a stalled connection, which TCP alone may not
 *   notice for hours); it then drops that connection and reconnects.
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
  /** Called when the feed goes live or stops being live (metrics, logs); feeds that never change need not call it. */
  onStatus?(listener: (live: boolean, reason: string) => void): void;
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

export interface PostgresFeedOptions {
  logger?: Logger;
  /**
   * Sends `payload` on CHANGE_CHANNEL over ANOTHER connection (the pool): the heartbeat. The feed is live only
   * while its own heartbeats come back over the listening connection, so a connection that is silently stalled
   * (a NAT or proxy that stopped forwarding, a half-open socket) is found within `staleMs`.
   */
  heartbeat?: (payload: string) => Promise<unknown>;
  heartbeatMs?: number;
  /** Without a returning heartbeat for this long the feed is declared down (default 3 x heartbeatMs). */
  staleMs?: number;
}

let feedSeq = 0;

export function postgresChangeFeed(url: string, o: PostgresFeedOptions = {}): ChangeFeed {
  const logger = o.logger;
  const d = createDispatcher();
  const heartbeatMs = o.heartbeatMs ?? 1_000;
  const staleMs = o.staleMs ?? 3 * heartbeatMs;
  // Heartbeats are told apart from other processes' (and other test schemas') by this feed's id.
  const id = `${process.pid}.${++feedSeq}.${Math.random().toString(36).slice(2, 8)}`;
  const statusListeners: ((live: boolean, reason: string) => void)[] = [];
  let live = false;
  let closed = false;
  let client: pg.Client | null = null;
  let delay = 100;
  let timer: NodeJS.Timeout | null = null;
  /** When the newest heartbeat that came back over the listening connection was sent. */
  let confirmedAt = 0;
  let everLive = false;

  const setLive = (v: boolean, reason: string) => {
    if (live === v) return;
    live = v;
    for (const l of statusListeners) l(v, reason);
  };
  const down = (reason: string) => {
    if (live) logger?.warn({ reason }, "change feed is not live: caches read through to the database until it is back");
    setLive(false, reason);
    d.reset();
  };
  const connect = async () => {
    timer = null;
    if (closed) return;
    // TCP keepalive finds a peer that vanished; the connect and query timeouts bound a reconnect through a
    // network that accepts but does not answer. The heartbeat below finds everything else.
    const c = new pg.Client({ connectionString: url, keepAlive: true, keepAliveInitialDelayMillis: 5_000, connectionTimeoutMillis: 5_000, query_timeout: 5_000 });
    client = c;
    c.on("error", () => {});
    c.on("end", () => {
      if (client !== c) return;
      client = null;
      down("connection ended");
      schedule();
    });
    c.on("notification", (n) => {
      if (n.channel !== CHANGE_CHANNEL) return;
      const p = n.payload;
      if (p?.startsWith("heartbeat:")) {
        const [, from, sentAt] = p.split(":");
        if (from === id) confirmedAt = Math.max(confirmedAt, Number(sentAt));
        return;
      }
      d.dispatch(p);
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${CHANGE_CHANNEL}`);
      if (closed) return void (await c.end().catch(() => {}));
      // Anything cached before this point may have missed a change while no one listened.
      d.reset();
      confirmedAt = Date.now();
      setLive(true, "listening");
      if (everLive) logger?.info("change feed is live again: caches serve from memory");
      everLive = true;
      delay = 100;
    } catch {
      if (client === c) client = null;
      abandon(c);
      down("could not listen");
      schedule();
    }
  };
  /** Ends a connection without waiting for a server that may never answer. */
  const abandon = (c: pg.Client) => {
    (c as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
    void c.end().catch(() => {});
  };
  const schedule = () => {
    if (closed || timer) return;
    timer = setTimeout(() => void connect(), delay);
    timer.unref();
    delay = Math.min(delay * 2, 5_000);
  };
  const beat = o.heartbeat
    ? setInterval(() => {
        if (closed) return;
        const now = Date.now();
        if (live && now - confirmedAt > staleMs) {
          const c = client;
          client = null;
          down(`no heartbeat for ${now - confirmedAt} ms`);
          if (c) abandon(c);
          schedule();
          return;
        }
        if (live) void o.heartbeat!(`heartbeat:${id}:${now}`).catch(() => {});
      }, heartbeatMs)
    : null;
  beat?.unref();
  void connect();
  return {
    get live() {
      return live;
    },
    subscribe: d.subscribe,
    onStatus(l) {
      statusListeners.push(l);
    },
    async close() {
      d.detach();
      closed = true;
      live = false;
      if (timer) clearTimeout(timer);
      if (beat) clearInterval(beat);
      const c = client;
      client = null;
      if (c) abandon(c);
    },
  };
}
