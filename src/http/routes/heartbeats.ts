import { Hono } from "hono";
import { parseBody } from "../body";
import { HeartbeatRequest } from "../../heartbeats/schemas";
import type { AppEnv, RouteDeps } from "../types";

export function heartbeatRoutes({ services }: RouteDeps) {
  const app = new Hono<AppEnv>();
  app.post("/trader/heartbeat", async (c) => c.json(await services.heartbeats.record(c.get("principal"), await parseBody(c, HeartbeatRequest)), 200));
  app.get("/trader/heartbeats", async (c) => c.json({ traders: await services.heartbeats.list(c.get("principal")) }, 200));
  return app;
}
