import { Hono } from "hono";
import type { Logger } from "pino";
import type { Metrics } from "../observability/metrics";
import type { Services } from "../services";
import { errorResponse } from "./errors";
import { requireApiKey } from "./auth";
import { deferredRateLimit, rateLimit } from "./rate-limit";
import type { RateLimiter } from "../rate-limits/types";
import { clientAddress, type TrustedProxies } from "../lib/client-ip";
import { bodyLimit, proofBodyPath, STRK20_PROOF_BODY_BYTES } from "./body-limit";
import { admission, type AdmissionOptions } from "./admission";
import { verificationRoutes } from "./routes/verification";
import { creditsRoutes } from "./routes/credits";
import { heartbeatRoutes } from "./routes/heartbeats";
import { adminRoutes } from "./routes/admin";
import { buildOpenApiDocument } from "./openapi";
import type { AppEnv, RouteDeps } from "./types";

export interface AppOptions {
  services: Services;
  logger: Logger;
  metrics: Metrics;
  publicUrl: string;
  adminToken: string;
  bodyLimitBytes: number;
  /** Per-credential limit on /api/v1 and /api/mcp (src/http/rate-limit.ts); perMinute 0 or absent = off. */
  rateLimit?: { perMinute: number; burst?: number; limiter: RateLimiter };
  isReady: () => boolean;
  /** The change feed is live: caches serve from memory (else they read through); reported by /healthz. */
  cachesLive?: () => boolean;
  /** Proxies whose X-Forwarded-For gives the client address (TRUSTED_PROXIES); null = the socket's peer. */
  trustedProxies?: TrustedProxies;
  /** Load shedding on /api/v1 and /api/mcp (src/http/admission.ts); absent = admit everything. */
  admission?: Omit<AdmissionOptions, "chunkedBodyBytes">;
  /** Extra mounts from later capabilities (top-ups, MCP, wallets, dashboard), applied in order. */
  mounts?: ((app: Hono<AppEnv>, deps: RouteDeps) => void)[];
  adminMounts?: ((app: Hono<AppEnv>) => void)[];
}

export function createApp(opts: AppOptions): Hono<AppEnv> {
  const { services, logger, metrics } = opts;
  const deps: RouteDeps = { services, logger, publicUrl: opts.publicUrl, bodyLimitBytes: opts.bodyLimitBytes };
  const app = new Hono<AppEnv>();

  if (opts.trustedProxies) app.use("*", clientAddress(opts.trustedProxies));
  app.use("*", async (c, next) => {
    const start = performance.now();
    await next();
    const route = c.req.matchedRoutes.filter((r) => r.method !== "ALL").at(-1)?.path ?? "unmatched";
    const labels = { method: c.req.method, route, status: String(c.res.status) };
    metrics.httpRequests.inc(labels);
    metrics.httpDuration.observe(labels, (performance.now() - start) / 1000);
  });
  // PostgreSQL refuses a NUL character in text (SQLSTATE 22021): one in a path parameter or a search query
  // was a 500 on every route that looks it up (found by test/resilience/hostile-routes.test.ts). No id
  // contains one (404) and no query value may (400); answered here, before any query runs.
  app.use("*", async (c, next) => {
    const url = c.req.url;
    const hasNul = (s: string) => s.includes("\u0000") || /%00/i.test(s);
    if (hasNul(url)) {
      const q = url.indexOf("?");
      const inPath = hasNul(q < 0 ? url : url.slice(0, q));
      return inPath ? c.json({ error: "not_found" }, 404) : c.json({ error: "invalid_input", message: "query parameters must not contain NUL characters (U+0000)" }, 400);
    }
    await next();
  });
  if (opts.rateLimit?.perMinute) {
    const limit = { ...opts.rateLimit, logger, onStoreError: () => metrics.rateLimitStoreErrors.inc() };
    app.use("/api/v1/*", rateLimit(limit));
    // GET/DELETE on /api/mcp (405) count one token; a POST counts one per JSON-RPC call, in the route.
    app.use("/api/mcp", async (c, next) => (c.req.method === "POST" ? deferredRateLimit(limit)(c, next) : rateLimit(limit)(c, next)));
  }
  const limitOf = (maxSize: number) => bodyLimit({ maxSize, onError: (c) => c.json({ error: "payload_too_large", message: `request bodies are limited to ${maxSize} bytes` }, 413) });
  const defaultLimit = limitOf(opts.bodyLimitBytes);
  // SPEC 8 lets a STRK20 proof be up to 4 MB of base64: the two routes that may carry one (MCP, propose) read
  // bodies up to the proof limit, since only the parsed body says whether it carries one; the route then holds
  // everything but the proof to the ordinary limit (body-limit.ts holdToLimit).
  const proofLimit = limitOf(Math.max(opts.bodyLimitBytes, STRK20_PROOF_BODY_BYTES));
  app.use("*", (c, next) => (proofBodyPath(c.req.path) ? proofLimit(c, next) : defaultLimit(c, next)));

  if (opts.admission) {
    // A chunked body reserves all it may grow to on its path: the proof limit where a proof may come.
    const admit = admission({ ...opts.admission, chunkedBodyBytes: (path) => (proofBodyPath(path) ? Math.max(opts.bodyLimitBytes, STRK20_PROOF_BODY_BYTES) : opts.bodyLimitBytes) });
    app.use("/api/v1/*", admit);
    app.use("/api/mcp", admit);
  }

  // Ready whether or not caches are live (reads go through to the database, correct but slower); the answer
  // says which, for operators and load balancers that want to prefer fully live processes.
  app.get("/healthz", (c) => {
    const caches = !opts.cachesLive || opts.cachesLive() ? "live" : "read-through";
    return opts.isReady() ? c.json({ ok: true, caches }, 200) : c.json({ ok: false, error: "starting", caches }, 503);
  });
  app.get("/metrics", async (c) => c.text(await metrics.registry.metrics(), 200, { "content-type": metrics.registry.contentType }));
  app.get("/api/v1/openapi.json", (c) => c.json(buildOpenApiDocument(opts.publicUrl)));

  for (const mount of opts.mounts ?? []) mount(app, deps);

  const api = new Hono<AppEnv>();
  api.use("*", requireApiKey(services.accounts));
  api.route("/", verificationRoutes(deps));
  api.route("/", creditsRoutes(deps));
  api.route("/", heartbeatRoutes(deps));
  app.route("/api/v1", api);

  app.route("/admin/v1", adminRoutes({ ...deps, adminToken: opts.adminToken }, opts.adminMounts));

  app.notFound((c) => {
    const allow = allowedMethods(app, c.req.path);
    if (allow.length === 0) return c.json({ error: "not_found" }, 404);
    c.header("Allow", allow.join(", "));
    return c.json({ error: "method_not_allowed", message: `${c.req.method} is not allowed on ${c.req.path}; use ${allow.join(" or ")}` }, 405);
  });
  app.onError((err, c) => errorResponse(c, err, logger));
  return app;
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** The methods some route (not middleware) answers on this path: a wrong method is 405 with `Allow`, not 404. */
function allowedMethods(app: Hono<AppEnv>, path: string): string[] {
  return METHODS.filter((m) => {
    const [matches] = app.router.match(m, path);
    return matches.some(([[, route]]) => route.method !== "ALL");
  });
}
