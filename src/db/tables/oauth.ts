/** OAuth: admin-issued and token-endpoint access tokens, and the authorization server's tables (005_oauth.sql). Kept in step with migrations/ (see ../schema.ts). */
import type { Generated } from "kysely";
import type { Json } from "./columns";

export interface OauthTokensTable {
  id: string;
  account_id: string;
  token_hash: string;
  scope: string;
  client_id: string | null;
  expires_at: Date;
  revoked_at: Date | null;
  created_at: Generated<Date>;
  /** 005_oauth.sql: the grant (and resource) of tokens issued by the token endpoint; null for admin-issued ones. */
  grant_id: Generated<string | null>;
  resource: Generated<string | null>;
}

/** OAuth 2.1 authorization server (005_oauth.sql, docs/oauth.md). */
export interface OauthClientsTable {
  id: string;
  client_name: string;
  redirect_uris: Json<string[]>;
  client_uri: string | null;
  software_id: string | null;
  software_version: string | null;
  scope: string;
  created_at: Generated<Date>;
}

export interface OauthGrantsTable {
  id: string;
  client_id: string;
  account_id: string;
  user_id: string;
  scope: string;
  resource: string;
  created_at: Generated<Date>;
  refreshed_at: Date | null;
  revoked_at: Date | null;
  revoked_reason: string | null;
}

export interface OauthCodesTable {
  id: string;
  code_hash: string;
  client_id: string;
  account_id: string;
  user_id: string;
  redirect_uri: string;
  code_challenge: string;
  resource: string;
  scope: string;
  expires_at: Date;
  used_at: Date | null;
  grant_id: string | null;
  created_at: Generated<Date>;
}

export interface OauthRefreshTokensTable {
  id: string;
  grant_id: string;
  token_hash: string;
  expires_at: Date;
  used_at: Date | null;
  revoked_at: Date | null;
  created_at: Generated<Date>;
}
