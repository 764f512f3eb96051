import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { secretToken } from "../../lib/ids";

/**
 * Cookies are `__Host-` prefixed, `Secure`, `HttpOnly`, `SameSite=Lax`, `Path=/`. Browsers treat
 * http://localhost and http://127.0.0.1 as secure contexts and accept Secure cookies there (checked in
 * Chromium), so local use over plain HTTP works; any other host must be served over HTTPS.
 * Lax (not Strict) so an approval link opened from a chat or an email arrives signed in; every
 * state-changing request is a POST guarded by the CSRF token and the Origin check, never a GET.
 */
export const SESSION_COOKIE = "__Host-arbiter_session";
/** Double-submit token for the forms shown before sign-in (sign-in, sign-up, claim). */
export const PRE_CSRF_COOKIE = "__Host-arbiter_csrf";

const BASE = { path: "/", secure: true, httpOnly: true, sameSite: "Lax" } as const;

export function setSessionCookie(c: Context, token: string, expires: Date): void {
  setCookie(c, SESSION_COOKIE, token, { ...BASE, expires });
}

export const readSessionCookie = (c: Context): string | undefined => getCookie(c, SESSION_COOKIE);

export function clearSessionCookie(c: Context): void {
  deleteCookie(c, SESSION_COOKIE, { path: "/", secure: true });
}

/** The pre-sign-in CSRF token: reuses the cookie's value, or sets a new one. */
export function preSessionToken(c: Context): string {
  const existing = getCookie(c, PRE_CSRF_COOKIE);
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const token = secretToken(256);
  setCookie(c, PRE_CSRF_COOKIE, token, { ...BASE, maxAge: 2 * 3600 });
  return token;
}

export const readPreSessionCookie = (c: Context): string | undefined => getCookie(c, PRE_CSRF_COOKIE);
