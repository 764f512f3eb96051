/**
 * OAuth error responses (RFC 6749 5.2, RFC 7591 3.2.2, RFC 8707 2): `{error, error_description}` JSON with
 * the status the RFCs give. Thrown by the OAuth verbs, turned into a response once in routes.ts.
 */
export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "invalid_scope"
  | "invalid_target"
  | "invalid_redirect_uri"
  | "invalid_client_metadata"
  | "unsupported_response_type"
  | "access_denied"
  | "temporarily_unavailable"
  | "server_error";

export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    readonly status: 400 | 401 | 429 | 503 = error === "invalid_client" ? 401 : 400,
  ) {
    super(`${error}: ${description}`);
    this.name = "OAuthError";
  }

  body(): { error: OAuthErrorCode; error_description: string } {
    return { error: this.error, error_description: this.description };
  }
}

export const invalidRequest = (d: string) => new OAuthError("invalid_request", d);
export const invalidGrant = (d: string) => new OAuthError("invalid_grant", d);
export const invalidClient = (d: string) => new OAuthError("invalid_client", d);
