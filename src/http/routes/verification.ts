import { Hono } from "hono";
import { parseBody } from "../body";
import { VerifyRequest, verifyRequestIssue } from "../../verification/schemas";
import type { AppEnv, RouteDeps } from "../types";

const verifyIssue = verifyRequestIssue;

export function verificationRoutes({ services }: RouteDeps) {
  const app = new Hono<AppEnv>();

  app.post("/intent", async (c) => {
    const body = await parseBody(c, VerifyRequest, verifyIssue);
    return c.json(await services.verification.verify(c.get("principal"), body, "api"), 201);
  });

  app.get("/intent/:id", async (c) => {
    const { transcriptUri: _u, explorerTx: _e, ...stored } = await services.verification.get(c.get("principal"), c.req.param("id"));
    return c.json(stored, 200);
  });

  app.get("/intent/:id/transcript", async (c) => c.json(await services.verification.transcript(c.get("principal"), c.req.param("id")), 200));

  return app;
}
