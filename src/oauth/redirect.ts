/**
 * Redirect URIs: what registration accepts and how an authorization request's `redirect_uri` is matched.
 *
 * - Registration (RFC 7591, OAuth 2.1 2.3.1, RFC 8252): `https` URIs, or `http` URIs on a loopback host
 *   (127.0.0.1, [::1], localhost) for native clients. No fragment, no userinfo, at most 2,000 characters.
 *   Custom schemes are refused (a scheme any app can claim is a code-theft channel), and so is plain http
 *   to any other host.
 * - Matching is exact string comparison, with one exception from RFC 8252 7.3: for a loopback URI the port
 *   may differ (native apps take an ephemeral port at run time). Scheme, host, path and query must still be
 *   identical; `localhost` and `127.0.0.1` are different hosts.
 */
import { OAuthError } from "./errors";

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);
export const MAX_REDIRECT_URIS = 10;
const MAX_URI_LENGTH = 2000;

export function isLoopback(u: URL): boolean {
  return u.protocol === "http:" && LOOPBACK_HOSTS.has(u.hostname);
}

/** Why a redirect URI may not be registered, or null when it may. */
export function redirectUriProblem(raw: unknown): string | null {
  if (typeof raw !== "string" || raw.length === 0) return "each redirect URI must be a non-empty string";
  if (raw.length > MAX_URI_LENGTH) return `a redirect URI is limited to ${MAX_URI_LENGTH} characters`;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return `${raw} is not an absolute URI`;
  }
  if (u.hash || raw.includes("#")) return `${raw}: a redirect URI must not contain a fragment`;
  if (u.username || u.password) return `${raw}: a redirect URI must not contain user information`;
  if (u.protocol === "https:") return null;
  if (isLoopback(u)) return null;
  if (u.protocol === "http:") return `${raw}: plain http is accepted only for loopback redirects (127.0.0.1, [::1], localhost)`;
  return `${raw}: only https redirect URIs, or http on a loopback host, are accepted`;
}

export function validateRedirectUris(uris: unknown): string[] {
  if (!Array.isArray(uris) || uris.length === 0) throw new OAuthError("invalid_redirect_uri", "redirect_uris must be a non-empty array");
  if (uris.length > MAX_REDIRECT_URIS) throw new OAuthError("invalid_redirect_uri", `at most ${MAX_REDIRECT_URIS} redirect URIs`);
  for (const u of uris) {
    const problem = redirectUriProblem(u);
    if (problem) throw new OAuthError("invalid_redirect_uri", problem);
  }
  return [...new Set(uris as string[])];
}

/** The registered URI the requested one matches, or null (exact match; loopback ports may differ). */
export function matchRedirectUri(registered: readonly string[], requested: string): string | null {
  if (registered.includes(requested)) return requested;
  let req: URL;
  try {
    req = new URL(requested);
  } catch {
    return null;
  }
  if (!isLoopback(req) || requested.includes("#") || req.username || req.password) return null;
  for (const r of registered) {
    const reg = new URL(r);
    if (!isLoopback(reg)) continue;
    // Compare everything but the port, as written (URL normalises only what both sides share).
    const same = reg.protocol === req.protocol && reg.hostname === req.hostname && reg.pathname === req.pathname && reg.search === req.search;
    if (same) return requested;
  }
  return null;
}
