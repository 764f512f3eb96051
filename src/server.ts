import type { Server } from "node:http";
import { serve } from "@hono/node-server";
import type { Runtime } from "./deps";

/**
 * Serves a runtime over HTTP and returns a stop function that drains: stop accepting, let in-flight
 * requests finish (up to the grace period), then close the database.
 */
export function listen(runtime: Runtime, opts: { host: string; port: number }): Promise<{ port: number; stop: () => Promise<void> }> {
  return new Promise((resolve) => {
    const server = serve({ fetch: runtime.app.fetch, hostname: opts.host, port: opts.port }, (info) => {
      const http = server as Server;
      // Slow clients must not hold the server: bound header and whole-request time.
      http.headersTimeout = 15_000;
      http.requestTimeout = 60_000;
      http.keepAliveTimeout = 5_000;
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
