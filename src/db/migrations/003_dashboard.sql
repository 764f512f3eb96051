-- Dashboard owners: users (email + scrypt password), server-side sessions, one-time claim links and the
-- failed-attempt log that rate-limits sign-in, sign-up and claims.

CREATE TABLE users (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  email text NOT NULL UNIQUE,
  password_hash text NOT NULL,
  role text NOT NULL DEFAULT 'owner',
  created_at timestamptz NOT NULL DEFAULT now(),
  password_changed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX users_account ON users(account_id);

-- The cookie holds a 256-bit secret; only its SHA-256 is stored. csrf_token is the synchronizer token
-- rendered into this session's forms.
CREATE TABLE sessions (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id),
  account_id text NOT NULL REFERENCES accounts(id),
  token_hash text NOT NULL UNIQUE,
  csrf_token text NOT NULL,
  user_agent text,
  ip text,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX sessions_user ON sessions(user_id);

-- One-time links that let the holder set the owner's password of an account (printed by the CLI).
CREATE TABLE claim_tokens (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  token_hash text NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE auth_failures (
  id bigserial PRIMARY KEY,
  bucket text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX auth_failures_bucket ON auth_failures(bucket, created_at);
