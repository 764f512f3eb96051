import { Hono } from "hono";
import type { AppEnv, RouteDeps } from "../types";

export function creditsRoutes({ services }: RouteDeps) {
  const app = new Hono<AppEnv>();
  app.get("/credits", async (c) => c.json(await services.credits.get(c.get("principal")), 200));
  return app;
}
