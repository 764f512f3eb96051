/**
 * The authorization server's HTTP endpoints (a createApp mount): RFC 8414 metadata, RFC 7591 registration,
 * the token endpoint (authorization_code, refresh_token) and RFC 7009 revocation. The authorization endpoint
 * itself is the dashboard's consent page (src/dashboard/pages/oauth-consent.tsx).
 *
 * These endpoints hold no cookies and answer any origin (CORS `*`), so browser-based MCP clients work; the
 * consent page, which does use the owner's session, is the dashboard's and stays same-origin.
 */
import type { Context, Hono } from "hono";
import { cors } from "hono/cors";
import type { AppEnv, RouteDeps } from "../types";
import { clientIp } from "../../lib/client-ip";
import { invalidClient, invalidRequest, OAuthError } from "../../oauth/errors";
import { OAUTH_PATHS } from "../../oauth/metadata";
import type { OAuthService } from "../../oauth/service";

const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" };

function oauthError(c: Context, err: unknown, deps: RouteDeps): Response {
  if (err instanceof OAuthError) {
    if (err.error === "invalid_client" && c.req.header("authorization")) c.header("www-authenticate", 'Basic realm="arbiter"');
    return c.json(err.body(), err.status, NO_STORE);
  }
  deps.logger.error({ err, path: c.req.path }, "oauth: unhandled error");
  return c.json({ error: "server_error", error_description: "unexpected failure; retry later" }, 500, NO_STORE);
}

/** An application/x-www-form-urlencoded body; a parameter sent twice is refused (RFC 6749 3.2). */
async function formParams(c: Context): Promise<Record<string, string>> {
  const type = c.req.header("content-type") ?? "";
  if (!type.toLowerCase().startsWith("application/x-www-form-urlencoded")) throw invalidRequest("send the parameters as application/x-www-form-urlencoded");
  const params = new URLSearchParams(await c.req.text());
  const out: Record<string, string> = {};
  for (const [k, v] of params) {
    if (k in out) throw invalidRequest(`parameter ${k} was sent more than once`);
    out[k] = v;
  }
  // Public clients may send `client_id:` with an empty secret in HTTP Basic (RFC 6749 2.3.1); a secret is
  // wrong by definition here (none was ever issued).
  const basic = c.req.header("authorization")?.match(/^Basic\s+([A-Za-z0-9+/=]+)$/i);
  if (basic) {
    const [id, secret] = Buffer.from(basic[1], "base64").toString("utf8").split(":");
    if (secret) throw invalidClient("this client is public: it has no client secret; authenticate with client_id and PKCE");
    const clientId = decodeURIComponent(id ?? "");
    if (out.client_id && out.client_id !== clientId) throw invalidRequest("client_id differs between the body and the Authorization header");
    out.client_id = clientId;
  } else if (c.req.header("authorization")) {
    throw invalidClient("unsupported client authentication; public clients send client_id only");
  }
  return out;
}

export function oauthMount(oauth: OAuthService) {
  return (app: Hono<AppEnv>, deps: RouteDeps) => {
    const open = cors({ origin: "*", allowMethods: ["GET", "POST", "OPTIONS"], allowHeaders: ["Content-Type", "Authorization", "MCP-Protocol-Version"], maxAge: 600 });
    for (const p of [OAUTH_PATHS.metadata, OAUTH_PATHS.token, OAUTH_PATHS.register, OAUTH_PATHS.revoke]) app.use(p, open);

    app.get(OAUTH_PATHS.metadata, (c) => c.json(oauth.metadata()));

    app.post(OAUTH_PATHS.register, async (c) => {
      try {
        let body: unknown;
        try {
          body = await c.req.json();
        } catch {
          throw new OAuthError("invalid_client_metadata", "the body must be a JSON object of client metadata");
        }
        return c.json(await oauth.register(body, clientIp(c)), 201, NO_STORE);
      } catch (err) {
        return oauthError(c, err, deps);
      }
    });

    app.post(OAUTH_PATHS.token, async (c) => {
      try {
        const p = await formParams(c);
        if (p.grant_type === "authorization_code") return c.json(await oauth.exchangeCode(p), 200, NO_STORE);
        if (p.grant_type === "refresh_token") return c.json(await oauth.refresh(p), 200, NO_STORE);
        if (!p.grant_type) throw invalidRequest("grant_type is required");
        throw new OAuthError("unsupported_grant_type", "supported grant types: authorization_code, refresh_token");
      } catch (err) {
        return oauthError(c, err, deps);
      }
    });

    app.post(OAUTH_PATHS.revoke, async (c) => {
      try {
        await oauth.revoke(await formParams(c));
        return c.body(null, 200, NO_STORE);
      } catch (err) {
        return oauthError(c, err, deps);
      }
    });
  };
}
