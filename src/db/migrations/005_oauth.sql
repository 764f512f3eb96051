-- OAuth 2.1 authorization server for the MCP endpoint (SPEC 5; docs/oauth.md) and self-custodial
-- ("embedded") safe wallets (SPEC 2.5; docs/oauth.md "Embedded wallets").
-- Invariants:
--  * no secret is stored in plain text: authorization codes, access tokens and refresh tokens are kept as
--    SHA-256 hashes only (the client holds the secret);
--  * a grant is one authorization of one client by one owner; every token carries its grant, so revoking the
--    grant (dashboard, RFC 7009, or reuse of a code or a rotated refresh token) revokes the whole family;
--  * a SIWE challenge is single-use: consumed by a guarded UPDATE before its signature is even checked.

-- Dynamically registered public clients (RFC 7591). No client secrets: PKCE S256 is the client's proof.
CREATE TABLE oauth_clients (
  id text PRIMARY KEY,
  client_name text NOT NULL,
  redirect_uris jsonb NOT NULL,
  client_uri text,
  software_id text,
  software_version text,
  scope text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- One owner's authorization of one client: the "connected client" the dashboard lists and revokes.
CREATE TABLE oauth_grants (
  id text PRIMARY KEY,
  client_id text NOT NULL REFERENCES oauth_clients(id),
  account_id text NOT NULL REFERENCES accounts(id),
  user_id text NOT NULL REFERENCES users(id),
  scope text NOT NULL,
  resource text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  refreshed_at timestamptz,
  revoked_at timestamptz,
  revoked_reason text
);
CREATE INDEX oauth_grants_account ON oauth_grants(account_id, created_at DESC);

-- Authorization codes: single use, 60 s, bound to client, redirect_uri, PKCE challenge, resource, scope, owner.
CREATE TABLE oauth_codes (
  id text PRIMARY KEY,
  code_hash text NOT NULL UNIQUE,
  client_id text NOT NULL REFERENCES oauth_clients(id),
  account_id text NOT NULL REFERENCES accounts(id),
  user_id text NOT NULL REFERENCES users(id),
  redirect_uri text NOT NULL,
  code_challenge text NOT NULL,
  resource text NOT NULL,
  scope text NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  -- The grant its redemption created: a second redemption revokes it (OAuth 2.1 4.1.3).
  grant_id text REFERENCES oauth_grants(id),
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Refresh tokens rotate: each use marks the row used and issues a new one in the same grant. A used (or
-- revoked) refresh token presented again revokes the grant.
CREATE TABLE oauth_refresh_tokens (
  id text PRIMARY KEY,
  grant_id text NOT NULL REFERENCES oauth_grants(id),
  token_hash text NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX oauth_refresh_grant ON oauth_refresh_tokens(grant_id);

-- Access tokens stay in oauth_tokens (001_core.sql); those issued by the token endpoint name their grant and
-- the resource (RFC 8707) they are valid for. Tokens the operator issues (admin API) have neither.
ALTER TABLE oauth_tokens ADD COLUMN grant_id text REFERENCES oauth_grants(id);
ALTER TABLE oauth_tokens ADD COLUMN resource text;
CREATE INDEX oauth_tokens_grant ON oauth_tokens(grant_id) WHERE grant_id IS NOT NULL;

-- Sign-In with Ethereum challenges (EIP-4361) for connecting a self-custodial wallet: the exact message the
-- server issued, bound to the dashboard session and the address that asked; single use, short-lived.
CREATE TABLE siwe_challenges (
  nonce text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  session_id text NOT NULL REFERENCES sessions(id),
  address text NOT NULL,
  message text NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- The owner's confirmation of a held proposal on an embedded wallet: prepared (re-simulated, re-checked,
-- the exact transaction handed to the browser wallet) and then the transaction hash the wallet returned.
CREATE TABLE embedded_confirmations (
  proposal_id text PRIMARY KEY REFERENCES proposals(id),
  prepared_at timestamptz NOT NULL,
  -- The wallet's pending nonce when prepared: a transaction older than this cannot be this confirmation.
  min_nonce integer NOT NULL,
  submitted_at timestamptz,
  tx_hash text
);

-- SPEC 7: "a safe wallet from before self-custodial safe mode that can no longer transact". Set by the
-- operator on such server-custody safe wallets; propose answers 409 propose_failed, held proposals cannot be
-- confirmed. Reads, balances and owner withdrawals still work.
ALTER TABLE wallets ADD COLUMN legacy_safe boolean NOT NULL DEFAULT false;
