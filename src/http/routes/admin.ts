import { Hono, type MiddlewareHandler } from "hono";
import { safeEqual } from "../../lib/hashing";
import { ServiceError } from "../../lib/errors";
import { AdjustCreditsRequest, CreateAccountRequest, IssueOAuthTokenRequest } from "../../admin/schemas";
import type { Scope } from "../../accounts/principal";
import { parseBody } from "../body";
import type { AppEnv, RouteDeps } from "../types";

function requireAdmin(adminToken: string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const m = c.req.header("authorization")?.match(/^Bearer\s+(.+)$/i);
    if (!m) throw new ServiceError("unauthenticated", "unauthorized", "send Authorization: Bearer <ADMIN_TOKEN>");
    if (!safeEqual(m[1].trim(), adminToken)) throw new ServiceError("unauthenticated", "unauthorized", "invalid admin token");
    await next();
  };
}

/** Operator routes under /admin/v1. Extra areas (sandbox, proposals, wallets) mount their own here. */
export function adminRoutes(deps: RouteDeps & { adminToken: string }, extra: ((app: Hono<AppEnv>) => void)[] = []) {
  const { services } = deps;
  const app = new Hono<AppEnv>();
  app.use("*", requireAdmin(deps.adminToken));

  app.post("/accounts", async (c) => {
    const body = await parseBody(c, CreateAccountRequest);
    const { keyId: _k, ...created } = await services.accounts.createAccount(body);
    return c.json(created, 201);
  });
  app.post("/accounts/:accountId/keys", async (c) => {
    const { keyId, apiKey } = await services.accounts.createKey(c.req.param("accountId"));
    return c.json({ keyId, apiKey }, 201);
  });
  app.delete("/keys/:keyId", async (c) => {
    await services.accounts.revokeKey(c.req.param("keyId"));
    return c.body(null, 204);
  });
  app.post("/accounts/:accountId/credits", async (c) => {
    const body = await parseBody(c, AdjustCreditsRequest);
    return c.json(await services.credits.adjust(c.req.param("accountId"), body.credits, body.reason), 200);
  });
  app.post("/accounts/:accountId/oauth-tokens", async (c) => {
    const body = await parseBody(c, IssueOAuthTokenRequest);
    const scopes = body.scope.split(" ") as Scope[];
    const t = await services.accounts.issueOAuthToken(c.req.param("accountId"), scopes, body.ttlSeconds ?? 3600);
    return c.json({ accessToken: t.accessToken, tokenId: t.tokenId, expiresIn: t.expiresIn, scope: t.scope }, 201);
  });
  app.delete("/oauth-tokens/:tokenId", async (c) => {
    await services.accounts.revokeOAuthToken(c.req.param("tokenId"));
    return c.body(null, 204);
  });
  for (const mount of extra) mount(app);
  return app;
}
