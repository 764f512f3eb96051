import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * Reads a secret kept in DATA_DIR, creating it once with `make()` (file mode 0600) when absent.
 * Used for the admin token, the judge key and the wallet master key when they are not given in env.
 */
export function loadOrCreateSecretFile(dir: string, name: string, make: () => string): string {
  const file = path.join(dir, name);
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dir, { recursive: true });
  const value = make();
  writeFileSync(file, `${value}\n`, { mode: 0o600, flag: "wx" });
  chmodSync(file, 0o600);
  return value;
}
