import type { MiddlewareHandler } from "hono";
import type { DashboardAuth } from "./service";
import { sessionPrincipal } from "./service";
import { clearSessionCookie, readSessionCookie } from "./cookies";
import type { DashboardEnv } from "../context";

/**
 * Every page and dashboard API after this point needs a live session: it sets `session` and the principal
 * (authMethod "session") that scopes every service call to the session's account. Without one, pages
 * redirect to sign-in and come back afterwards (`next`); `/dashboard/api/*` answers 401 JSON.
 */
export function requireSession(auth: DashboardAuth): MiddlewareHandler<DashboardEnv> {
  return async (c, next) => {
    const token = readSessionCookie(c);
    const session = token && token.length <= 100 ? await auth.authenticate(token) : null;
    if (!session) {
      if (token) clearSessionCookie(c);
      const url = new URL(c.req.url);
      if (url.pathname.startsWith("/dashboard/api/")) return c.json({ error: "unauthenticated", message: "sign in to the dashboard" }, 401);
      const back = c.req.method === "GET" ? `${url.pathname}${url.search}` : "/dashboard";
      return c.redirect(`/dashboard/login?next=${encodeURIComponent(back)}`, 303);
    }
    c.set("session", session);
    c.set("principal", sessionPrincipal(session));
    return next();
  };
}
