import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Hono } from "hono";
import type { Logger } from "pino";
import { sha256Hex } from "../lib/hashing";
import type { DashboardEnv } from "./context";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PUBLIC_DIR = path.join(HERE, "public");
const STATIC: Record<string, string> = {
  "app.css": "text/css; charset=utf-8",
  "app.js": "text/javascript; charset=utf-8",
  "favicon.svg": "image/svg+xml",
};

interface Asset {
  body: string;
  type: string;
  etag: string;
}

const asset = (body: string, type: string): Asset => ({ body, type, etag: `"${sha256Hex(body).slice(0, 16)}"` });

/**
 * The receipt check for the page: src/receipts/verify.ts (and the parts of viem it uses) bundled once, on
 * first request, with esbuild (present as tsx's bundler). No CDN, no build step to forget; the page falls back
 * to the server-side check when this fails.
 */
let receiptBundle: Promise<Asset> | null = null;
function buildReceiptBundle(logger: Logger): Promise<Asset> {
  receiptBundle ??= (async () => {
    const esbuild = await import("esbuild");
    const entry = path.join(HERE, "..", "receipts", "verify.ts");
    const out = await esbuild.build({
      stdin: {
        contents: `export { verifyReceipt } from ${JSON.stringify(entry)};\nexport { checkInclusion } from ${JSON.stringify(path.join(HERE, "..", "receipts", "batch-tree.ts"))};`,
        resolveDir: HERE,
        loader: "ts",
      },
      bundle: true,
      format: "esm",
      platform: "browser",
      target: "es2020",
      minify: true,
      write: false,
      legalComments: "none",
    });
    return asset(out.outputFiles[0].text, "text/javascript; charset=utf-8");
  })().catch((err) => {
    logger.warn({ err }, "dashboard: receipt bundle unavailable; pages fall back to the server-side check");
    receiptBundle = null;
    throw err;
  });
  return receiptBundle;
}

/** Local assets only (no CDN). Revalidated with an ETag on each load: small, fast 304s, never stale. */
export function assetRoutes(logger: Logger) {
  const files = new Map<string, Asset>(Object.entries(STATIC).map(([name, type]) => [name, asset(readFileSync(path.join(PUBLIC_DIR, name), "utf8"), type)]));
  const app = new Hono<DashboardEnv>();
  app.get("/:name", async (c) => {
    const name = c.req.param("name");
    let a = files.get(name);
    if (!a && name === "receipt.js") a = await buildReceiptBundle(logger).catch(() => undefined);
    if (!a) return c.text("not found", 404);
    c.header("cache-control", "no-cache");
    c.header("etag", a.etag);
    if (c.req.header("if-none-match") === a.etag) return c.body(null, 304);
    return c.body(a.body, 200, { "content-type": a.type });
  });
  return app;
}
