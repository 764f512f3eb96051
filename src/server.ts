import type { Server } from "node:http";
import { serve } from "@hono/node-server";
import type { Runtime } from "./deps";

/**
 * Serves a runtime over HTTP and returns a stop function that drains: stop accepting, let in-flight
 * requests finish (up to the grace period), then close the database.
 */
export function listen(runtime: Runtime, opts: { host: string; port: number }): Promise<{ port: number; stop: () => Promise<void> }> {
  return new Promise((resolve) => {
    const { HEADERS_TIMEOUT_MS: headersTimeout, REQUEST_TIMEOUT_MS: requestTimeout } = runtime.config;
    // Slow clients must not hold the server: bound the time to send the headers and the whole request.
    // Node enforces both from a periodic sweep (default every 30 s, so a slow-header client could stay up to
    // 45 s); sweeping every second keeps the bound close to the configured value (test/resilience/slow-clients).
    const serverOptions = { headersTimeout, requestTimeout, keepAliveTimeout: 5_000, connectionsCheckingInterval: Math.min(1_000, headersTimeout) };
    const server = serve({ fetch: runtime.app.fetch, hostname: opts.host, port: opts.port, serverOptions }, (info) => {
      const http = server as Server;
      let stopping: Promise<void> | null = null;
      const stop = () => {
        stopping ??= (async () => {
          runtime.ready = false;
          await new Promise<void>((done) => {
            const force = setTimeout(() => {
              http.closeAllConnections();
              done();
            }, runtime.config.SHUTDOWN_GRACE_MS);
            force.unref();
            http.close(() => {
              clearTimeout(force);
              done();
            });
            http.closeIdleConnections();
          });
          await runtime.close();
        })();
        return stopping;
      };
      resolve({ port: info.port, stop });
    });
  });
}
