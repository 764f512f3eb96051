/**
 * The baselines every scenario is compared with, served by a separate process like the service:
 *   GET  /const   constant JSON (Hono on @hono/node-server: the framework's floor)
 *   POST /insert  parse a small JSON body, one INSERT ... RETURNING through the service's own database
 *                 layer (Kysely over PGlite or pg, src/db/client.ts), answer 201
 * Environment: DATABASE_URL + DATABASE_SCHEMA (PostgreSQL) or DATA_DIR (PGlite); PGLITE_WORKER as for the
 * service, with the same default.
 * Prints `listening <port>` when ready.
 */
import { randomUUID } from "node:crypto";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { sql } from "kysely";
import { openDatabase } from "../src/db/client";
import { loadConfig } from "../src/config";

const url = process.env.DATABASE_URL;
const handle = await openDatabase({ url, schema: process.env.DATABASE_SCHEMA, dataDir: url ? null : `${process.env.DATA_DIR}/pglite`, pgliteWorker: loadConfig({ PGLITE_WORKER: process.env.PGLITE_WORKER }).PGLITE_WORKER });
const db = handle.db;
await sql`create table if not exists bench_rows (id text primary key, payload jsonb not null, created_at timestamptz not null default now())`.execute(db);

const app = new Hono();
const constant = { ok: true, service: "arbiter-baseline", version: "1.0.0" };
app.get("/const", (c) => c.json(constant));
app.post("/insert", async (c) => {
  const body = await c.req.json();
  const r = await sql<{ id: string }>`insert into bench_rows (id, payload) values (${randomUUID()}, ${JSON.stringify(body)}) returning id`.execute(db);
  return c.json({ id: r.rows[0].id }, 201);
});

const server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, (info) => console.log(`listening ${info.port}`));
process.on("SIGTERM", () => {
  server.close();
  void handle.close().then(() => process.exit(0));
});
