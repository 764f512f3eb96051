import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase } from "../src/db/client";
const mb = () => Object.fromEntries(Object.entries(process.memoryUsage()).map(([k, v]) => [k, Math.round(v / 1048576)]));
console.log("start", mb());
const dir = process.argv[2] ?? mkdtempSync(path.join(tmpdir(), "mem-"));
const h = await openDatabase({ dataDir: `${dir}/pglite`, pgliteWorker: process.env.WORKER === "1" });
console.log("opened", dir, mb());
global.gc?.();
await new Promise((r) => setTimeout(r, 1000));
console.log("after 1s", mb());
await h.close();
if (process.env.REOPEN) {
  const dir2 = mkdtempSync(path.join(tmpdir(), "mem2-"));
  const a = await openDatabase({ dataDir: `${dir2}/pglite`, pgliteWorker: process.env.WORKER === "1" });
  await a.close();
  global.gc?.();
  await new Promise((r) => setTimeout(r, 500));
  global.gc?.();
  console.log("fresh closed", mb());
  const b = await openDatabase({ dataDir: `${dir2}/pglite`, pgliteWorker: process.env.WORKER === "1" });
  global.gc?.();
  console.log("reopened", mb());
  await b.close();
}
