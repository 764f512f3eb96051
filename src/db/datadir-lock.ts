import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";

/**
 * One process owns a DATA_DIR. PGlite has no cross-process lock, and a second process on the same files
 * silently loses writes, so start-up takes an exclusive lock file and refuses loudly when a live process
 * holds it. A lock left by a dead process (kill -9) is taken over.
 */
export class DataDirLockedError extends Error {
  constructor(dir: string, pid: number) {
    super(`DATA_DIR ${dir} is in use by another Arbiter process (pid ${pid}); stop it or choose another DATA_DIR`);
    this.name = "DataDirLockedError";
  }
}

export function lockDataDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "arbiter.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, "wx", 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          if (readFileSync(file, "utf8").trim() === String(process.pid)) unlinkSync(file);
        } catch {
          /* already gone */
        }
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const pid = Number.parseInt(readFileSync(file, "utf8").trim(), 10);
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) throw new DataDirLockedError(dir, pid);
      unlinkSync(file); // stale: its owner is gone
    }
  }
  throw new Error(`could not lock DATA_DIR ${dir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}
