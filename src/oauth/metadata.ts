/** RFC 8414 authorization server metadata; the issuer is PUBLIC_URL, the MCP endpoint's own origin. */
export const OAUTH_PATHS = {
  metadata: "/.well-known/oauth-authorization-server",
  /** The consent page lives in the dashboard: the owner's session is what authorizes. */
  authorize: "/dashboard/oauth/authorize",
  token: "/oauth/token",
  register: "/oauth/register",
  revoke: "/oauth/revoke",
} as const;

export function authorizationServerMetadata(publicUrl: string) {
  return {
    issuer: publicUrl,
    authorization_endpoint: `${publicUrl}${OAUTH_PATHS.authorize}`,
    token_endpoint: `${publicUrl}${OAUTH_PATHS.token}`,
    registration_endpoint: `${publicUrl}${OAUTH_PATHS.register}`,
    revocation_endpoint: `${publicUrl}${OAUTH_PATHS.revoke}`,
    scopes_supported: ["mcp", "wallet"],
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    token_endpoint_auth_methods_supported: ["none"],
    revocation_endpoint_auth_methods_supported: ["none"],
    code_challenge_methods_supported: ["S256"],
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${publicUrl}/dashboard`,
  };
}
