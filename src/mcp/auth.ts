import type { Context } from "hono";
import type { AccountsService } from "../accounts/service";
import type { Principal } from "../accounts/principal";
import { presentedKey } from "../http/auth";

/**
 * MCP authentication (SPEC 5). The SDK's bearer-auth middleware and OAuth routers are Express-only, so the
 * ~30 lines they would give us live here: who is calling, the 401 with its `WWW-Authenticate` pointer, and
 * the RFC 9728 protected-resource metadata document that MCP clients follow from it.
 */

export const MCP_PATH = "/api/mcp";
export const RESOURCE_METADATA_PATH = "/.well-known/oauth-protected-resource";

/**
 * The credential is the `x-api-key` header, else `Authorization: Bearer`; an API key is tried first, then an
 * OAuth token, which must have been issued for this endpoint (RFC 8707 resource `{publicUrl}/api/mcp`).
 */
export async function authenticateMcp(c: Context, accounts: AccountsService, publicUrl: string): Promise<{ principal: Principal } | { presented: boolean }> {
  const credential = presentedKey(c);
  if (!credential) return { presented: false };
  const principal = (await accounts.authenticateApiKey(credential)) ?? (await accounts.authenticateOAuthToken(credential, { resource: `${publicUrl}${MCP_PATH}` }));
  return principal ? { principal } : { presented: true };
}

/** 401 for a missing or invalid credential, pointing MCP clients at the metadata that starts OAuth. */
export function unauthorized(c: Context, publicUrl: string, presented: boolean): Response {
  const metadata = `resource_metadata="${publicUrl}${RESOURCE_METADATA_PATH}"`;
  // RFC 6750 3.1: error="invalid_token" only when a token was sent; a bare challenge when none was.
  c.header("WWW-Authenticate", presented ? `Bearer ${metadata}, error="invalid_token"` : `Bearer ${metadata}`);
  return presented
    ? c.json({ error: "invalid_token", message: "the API key or access token is unknown, expired or revoked" }, 401)
    : c.json({ error: "unauthorized", message: "send an API key (x-api-key or Authorization: Bearer) or an OAuth access token" }, 401);
}

/** RFC 9728 protected-resource metadata for the MCP endpoint. */
export function protectedResourceMetadata(publicUrl: string) {
  return {
    resource: `${publicUrl}${MCP_PATH}`,
    authorization_servers: [publicUrl],
    scopes_supported: ["mcp", "wallet"],
    bearer_methods_supported: ["header"],
    resource_name: "Arbiter MCP server",
  };
}
