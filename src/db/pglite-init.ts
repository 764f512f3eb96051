import { execFile } from "node:child_process";
import { existsSync, readdirSync, renameSync, rmSync, rmdirSync } from "node:fs";
import { createRequire } from "node:module";

/**
 * Creates a fresh PGlite data directory in a short-lived child process. PGlite's initdb grows its
 * WebAssembly memory to ~630 MiB and WebAssembly memory never shrinks, so a process that ran initdb keeps
 * ~880 MiB resident for its lifetime, while one that opens an existing directory needs ~370 MiB (measured,
 * docs/performance.md). The child initialises a sibling directory that is renamed into place, so a crash
 * during initdb never leaves a half-made data directory behind.
 */
const INIT_SOURCE = `
const { PGlite } = require(process.argv[1]);
const db = new PGlite(process.argv[2]);
db.waitReady.then(() => db.close()).then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });`;

export const isPGliteDataDir = (dir: string) => existsSync(`${dir}/PG_VERSION`);

export async function initPGliteDataDir(dir: string): Promise<void> {
  if (isPGliteDataDir(dir)) return;
  if (existsSync(dir) && readdirSync(dir).length > 0) throw new Error(`${dir} exists, is not empty and holds no database; move it aside`);
  const staging = `${dir}.init-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  const module = createRequire(import.meta.url).resolve("@electric-sql/pglite");
  await new Promise<void>((resolve, reject) =>
    execFile(process.execPath, ["-e", INIT_SOURCE, module, staging], { env: { PATH: process.env.PATH ?? "" } }, (err, _out, stderr) =>
      err ? reject(new Error(`could not initialise the database in ${dir}: ${stderr || err.message}`)) : resolve(),
    ),
  );
  if (existsSync(dir)) rmdirSync(dir);
  renameSync(staging, dir);
}
