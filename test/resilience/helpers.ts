/**
 * Shared by the process-level resilience tests: the real service (`src/main.ts`, helpers/process.ts) on
 * the database CI is testing (a fresh PostgreSQL schema when DATABASE_URL is set, else PGlite in DATA_DIR),
 * and direct access to that database from the test once the service has stopped (PGlite has one owner).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { dropSchema, openDatabase, type DatabaseHandle } from "../../src/db/client";
import { startService, type ServiceProcess } from "../helpers/process";
export { until } from "../helpers/process";

export const ADMIN = "resilience-admin-token-0123456789";
export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export function serviceDatabase(prefix: string) {
  const dataDir = mkdtempSync(path.join(tmpdir(), `arbiter-${prefix}-`));
  const url = process.env.DATABASE_URL;
  const schema = url ? `r_${prefix.replace(/\W/g, "_")}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}` : undefined;
  const env: Record<string, string> = { DATA_DIR: dataDir, ADMIN_TOKEN: ADMIN, ...(url && schema ? { DATABASE_URL: url, DATABASE_SCHEMA: schema } : {}) };
  return {
    env,
    dataDir,
    /** The database the service used; only while the service is stopped when it is PGlite. */
    open: (): Promise<DatabaseHandle> => (url ? openDatabase({ url, schema }) : openDatabase({ dataDir: `${dataDir}/pglite` })),
    async cleanup() {
      if (url && schema) await dropSchema(url, schema);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function stop(svc: ServiceProcess | null, signal: NodeJS.Signals = "SIGTERM") {
  if (!svc || svc.child.exitCode !== null || svc.child.signalCode !== null) return;
  svc.child.kill(signal);
  await svc.exited;
}


/** JSON request against a running service. */
export async function call(svc: ServiceProcess, method: string, route: string, opts: { key?: string; admin?: boolean; body?: unknown; headers?: Record<string, string> } = {}) {
  const res = await fetch(`${svc.url}${route}`, {
    method,
    headers: {
      ...(opts.body !== undefined ? { "content-type": "application/json" } : {}),
      ...(opts.key ? { "x-api-key": opts.key } : {}),
      ...(opts.admin ? { authorization: `Bearer ${ADMIN}` } : {}),
      ...opts.headers,
    },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  let body: Json;
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    body = { text };
  }
  return { status: res.status, body, headers: res.headers };
}

export { startService, type ServiceProcess };
