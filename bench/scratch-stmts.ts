import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pino from "pino";
import { Kysely } from "kysely";
import { PGlite } from "@electric-sql/pglite";
import { loadConfig } from "../src/config";
import { createRuntime } from "../src/deps";
import { PGliteDialect } from "../src/db/pglite-dialect";
import { VERIFY_SMALL } from "./lib/fixtures";

const dataDir = mkdtempSync(path.join(tmpdir(), "arbiter-scratch-"));
const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent", SANDBOX: "false", PUBLIC_URL: "http://x.test" });
const pg = new PGlite(); await pg.waitReady;
const stats = new Map<string, { n: number; ms: number }>();
let on = false;
const db = new Kysely<any>({ dialect: new PGliteDialect(pg), log: (e) => { if (!on) return; const k = e.query.sql.slice(0, 70); const s = stats.get(k) ?? { n: 0, ms: 0 }; s.n++; s.ms += e.queryDurationMillis; stats.set(k, s); } });
const rt = await createRuntime(config, { database: { db, kind: "pglite", close: async () => {} }, lockDataDir: false, logger: pino({ level: "silent" }) });
const acct = await rt.services.accounts.createAccount({ name: "x", credits: 1_000_000 });
const principal = (await rt.services.accounts.authenticateApiKey(acct.apiKey))!;
for (let i = 0; i < 100; i++) await rt.services.verification.verify(principal, VERIFY_SMALL as never);
on = true;
const N = 300;
const t0 = performance.now();
for (let i = 0; i < N; i++) { await rt.services.accounts.authenticateApiKey(acct.apiKey); await rt.services.verification.verify(principal, VERIFY_SMALL as never); }
const total = performance.now() - t0;
let dbms = 0;
for (const [k, s] of [...stats.entries()].sort((a, b) => b[1].ms - a[1].ms)) { dbms += s.ms; console.log(`${(s.ms / N).toFixed(3).padStart(7)} ms/verif  n/verif ${(s.n / N).toFixed(2)}  ${k}`); }
console.log(`total ${(total / N).toFixed(2)} ms/verif, db ${(dbms / N).toFixed(2)} ms`);
await rt.close();
