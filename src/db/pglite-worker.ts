import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/**
 * PGlite on a worker thread. PGlite executes every statement synchronously in WebAssembly on the thread
 * that owns it; on the main thread that blocks HTTP parsing, judging and receipt signing for the length of
 * each query. Here the database owns a thread of its own and the main thread only posts the SQL and
 * awaits the rows (measured: docs/performance.md "Embedded database on a worker thread").
 *
 * The proxy implements the part of PGlite's API the Kysely dialect and the change feed use (query, exec,
 * close, closed, listen).
 * Isolation is unchanged: the dialect still hands out the single session under its FIFO lock.
 */
export interface PGliteLike {
  query<R>(sql: string, params?: unknown[]): Promise<{ rows: R[]; affectedRows?: number }>;
  exec(sql: string): Promise<{ rows: unknown[]; affectedRows?: number }[]>;
  close(): Promise<void>;
  readonly closed: boolean;
  /**
   * True when each call is posted synchronously and statements execute strictly in call order (the worker
   * proxy); PGlite in process makes no such promise about calls that have not yet reached its mutex.
   */
  readonly ordered?: boolean;
  /**
   * Runs `sql` as the named prepared statement `name`, prepared on first use: later calls skip parsing,
   * analysis and description, and reuse PostgreSQL's cached plan. One name must always carry one text.
   */
  preparedQuery?<R>(name: string, sql: string, params: unknown[]): Promise<{ rows: R[]; affectedRows?: number }>;
  /** As PGlite's: `cb` runs for each notification on `channel`, before the notifying statement resolves. */
  listen(channel: string, cb: (payload: string) => void): Promise<() => Promise<void>>;
}

// CommonJS source evaluated in the worker (no TypeScript loader is needed there); it loads PGlite from the
// path resolved here. Errors keep their PostgreSQL fields (code, detail, constraint, ...) across the boundary.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const v8 = require("node:v8");
// PostgreSQL's WebAssembly is compiled by V8's baseline compiler only (docs/performance.md "Memory"):
// optimising it costs ~90 MiB of resident memory for no measurable throughput. The flag is process-wide,
// so it is set just for this compilation and cleared once the database is ready (the service's own
// WebAssembly, secp256k1 and keccak, is compiled at import, before, and keeps optimising).
v8.setFlagsFromString("--liftoff-only");
const { PGlite, protocol, parse: pgParse } = require(workerData.module);
const params = { startParams: [...PGlite.defaultStartParams, ...workerData.extraParams] };
const db = workerData.dataDir ? new PGlite(workerData.dataDir, params) : new PGlite(params);
const optimiseAgain = () => v8.setFlagsFromString("--no-liftoff-only");
db.waitReady.then(optimiseAgain, optimiseAgain);
const shape = (r) => (r ? { rows: r.rows, affectedRows: r.affectedRows } : { rows: [], affectedRows: 0 });
// Notifications raised while an operation runs travel back in that operation's reply, so the main thread
// sees a statement's notifications before the statement's promise resolves, as with PGlite in process.
let notes = [];
const listening = new Set();
let chain = Promise.resolve();
// Named prepared statements (see PGliteLike.preparedQuery): parsed, analysed and described once; each call
// binds and executes. The extended-protocol steps are PGlite.query's, with the statement named.
const prepared = new Map();
const step = async (bytes) => (await db.execProtocol(bytes, { syncToFs: false })).messages;
const preparedQuery = async (name, text, params) => {
  const S = protocol.serialize;
  const messages = [];
  try {
    let types = prepared.get(name);
    if (!types) {
      messages.push(...(await step(S.parse({ name, text }))));
      types = pgParse.parseDescribeStatementResults(await step(S.describe({ type: "S", name })));
      prepared.set(name, types);
    }
    const values = params.map((v, i) => (v === null || v === undefined ? null : db.serializers[types[i]] ? db.serializers[types[i]](v) : v.toString()));
    messages.push(...(await step(S.bind({ statement: name, values }))));
    messages.push(...(await step(S.describe({ type: "P" }))));
    messages.push(...(await step(S.execute({}))));
  } finally {
    messages.push(...(await step(S.sync())));
  }
  await db.syncToFs();
  return pgParse.parseResults(messages, db.parsers)[0];
};
const handle = async (m) => {
  try {
    await db.waitReady;
    let out = null;
    if (m.op === "query") out = shape(await db.query(m.sql, m.params));
    else if (m.op === "prepared") out = shape(await preparedQuery(m.name, m.sql, m.params));
    else if (m.op === "exec") out = shape((await db.exec(m.sql)).at(-1));
    else if (m.op === "listen") {
      if (!listening.has(m.channel)) {
        listening.add(m.channel);
        await db.listen(m.channel, (payload) => notes.push([m.channel, payload]));
      }
    } else if (m.op === "close") { if (!db.closed) await db.close(); }
    const raised = notes;
    notes = [];
    parentPort.postMessage({ id: m.id, ok: true, out, notes: raised });
  } catch (e) {
    const err = { message: String((e && e.message) || e), name: (e && e.name) || "Error" };
    if (e && typeof e === "object") for (const [k, v] of Object.entries(e)) if (v === null || ["string", "number", "boolean"].includes(typeof v)) err[k] = v;
    const raised = notes;
    notes = [];
    parentPort.postMessage({ id: m.id, ok: false, err, notes: raised });
  }
};
// One operation at a time, in arrival order: a reply carries exactly its own operation's notifications.
parentPort.on("message", (m) => { chain = chain.then(() => handle(m)); });`;

type Notes = [channel: string, payload: string][];
type Reply = ({ id: number; ok: true; out: { rows: unknown[]; affectedRows?: number } | null } | { id: number; ok: false; err: Record<string, unknown> & { message: string } }) & { notes: Notes };

export async function startPGliteWorker(dataDir: string | null, extraParams: string[] = []): Promise<PGliteLike> {
  const module = createRequire(import.meta.url).resolve("@electric-sql/pglite");
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { module, dataDir, extraParams } });
  const pending = new Map<number, { resolve: (v: Reply) => void; reject: (e: Error) => void }>();
  let next = 0;
  let closed = false;
  let failure: Error | null = null;

  const listeners = new Map<string, Set<(payload: string) => void>>();
  worker.on("message", (r: Reply) => {
    for (const [channel, payload] of r.notes) for (const cb of listeners.get(channel) ?? []) cb(payload);
    const p = pending.get(r.id);
    pending.delete(r.id);
    p?.resolve(r);
  });
  const fail = (e: Error) => {
    failure = e;
    for (const p of pending.values()) p.reject(e);
    pending.clear();
  };
  worker.on("error", fail);
  worker.on("exit", (code) => {
    if (!closed) fail(new Error(`the PGlite worker thread exited (code ${code})`));
  });

  const call = (msg: { op: "query" | "exec" | "close" | "listen" | "prepared"; sql?: string; params?: unknown[]; channel?: string; name?: string }) =>
    new Promise<Reply>((resolve, reject) => {
      if (failure) return reject(failure);
      const id = next++;
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, ...msg });
    }).then((r) => {
      if (r.ok) return r.out;
      throw Object.assign(new Error(r.err.message), r.err);
    });

  const proxy: PGliteLike = {
    async query<R>(sql: string, params: unknown[] = []) {
      return (await call({ op: "query", sql, params })) as { rows: R[]; affectedRows?: number };
    },
    async exec(sql: string) {
      return [(await call({ op: "exec", sql }))!];
    },
    async preparedQuery<R>(name: string, sql: string, params: unknown[]) {
      return (await call({ op: "prepared", name, sql, params })) as { rows: R[]; affectedRows?: number };
    },
    async close() {
      if (closed) return;
      await call({ op: "close" }).catch(() => {});
      closed = true;
      await worker.terminate();
    },
    get closed() {
      return closed;
    },
    ordered: true,
    async listen(channel, cb) {
      let set = listeners.get(channel);
      if (!set) listeners.set(channel, (set = new Set()));
      set.add(cb);
      await call({ op: "listen", channel });
      return async () => void set.delete(cb);
    },
  };
  await call({ op: "exec", sql: "select 1" }); // surfaces start-up errors (a damaged data directory) here
  return proxy;
}
