import type { MiddlewareHandler } from "hono";
import { safeEqual } from "../lib/hashing";
import type { DashboardEnv } from "./context";
import { readPreSessionCookie } from "./auth/cookies";

/**
 * Headers on every dashboard response. Scripts and styles come only from this origin (no inline script,
 * no inline style); pages are never framed or cached, and their URLs (claim links carry a secret) never leave as a referrer to another site. Not `no-referrer`: with it browsers send `Origin: null` on the dashboard's own POSTs.
 */
export const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "object-src 'none'",
].join("; ");

export const securityHeaders: MiddlewareHandler<DashboardEnv> = async (c, next) => {
  await next();
  c.header("content-security-policy", CSP);
  c.header("x-content-type-options", "nosniff");
  c.header("x-frame-options", "DENY");
  c.header("referrer-policy", "same-origin");
  c.header("cross-origin-opener-policy", "same-origin");
  c.header("permissions-policy", "camera=(), microphone=(), geolocation=(), payment=()");
  if (!c.res.headers.has("cache-control")) c.header("cache-control", "no-store");
};

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export class CsrfRefused extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/**
 * The Origin check for every state-changing request: the browser's Origin (or, when a browser omits it, the
 * Referer's origin) must be the dashboard's own origin (PUBLIC_URL, or the origin the request was addressed
 * to). Requests with neither header are refused.
 */
export function originGuard(publicUrl: string): MiddlewareHandler<DashboardEnv> {
  const publicOrigin = new URL(publicUrl).origin;
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    const own = new URL(c.req.url).origin;
    let origin = c.req.header("origin");
    if (!origin || origin === "null") {
      const referer = c.req.header("referer");
      try {
        origin = referer ? new URL(referer).origin : undefined;
      } catch {
        origin = undefined;
      }
    }
    if (!origin || (origin !== publicOrigin && origin !== own)) throw new CsrfRefused("origin");
    return next();
  };
}

/** The synchronizer token a state-changing request carries: form field `_csrf` or header `x-csrf-token`. */
async function presentedToken(c: Parameters<MiddlewareHandler<DashboardEnv>>[0]): Promise<string> {
  const header = c.req.header("x-csrf-token");
  if (header) return header;
  const type = c.req.header("content-type") ?? "";
  if (type.startsWith("application/x-www-form-urlencoded") || type.startsWith("multipart/form-data")) {
    const body = await c.req.parseBody();
    const v = body._csrf;
    return typeof v === "string" ? v : "";
  }
  return "";
}

/** Signed-in requests: the token must be the session's. */
export const sessionCsrf: MiddlewareHandler<DashboardEnv> = async (c, next) => {
  if (SAFE_METHODS.has(c.req.method)) return next();
  const token = await presentedToken(c);
  if (!token || !safeEqual(token, c.get("session").csrfToken)) throw new CsrfRefused("token");
  return next();
};

/** Sign-in, sign-up and claim forms: the token must match the pre-session cookie (double submit). */
export const preSessionCsrf: MiddlewareHandler<DashboardEnv> = async (c, next) => {
  if (SAFE_METHODS.has(c.req.method)) return next();
  const token = await presentedToken(c);
  const cookie = readPreSessionCookie(c);
  if (!token || !cookie || !safeEqual(token, cookie)) throw new CsrfRefused("token");
  return next();
};
