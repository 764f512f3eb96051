-- Accounts, API keys, the credit ledger, verifications and trader heartbeats.
-- Invariant: for every account, sum(credit_entries.delta) = accounts.credits_remaining >= 0.

CREATE TABLE accounts (
  id text PRIMARY KEY,
  name text NOT NULL,
  credits_remaining integer NOT NULL DEFAULT 0 CHECK (credits_remaining >= 0),
  topup_code text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  key_hash text NOT NULL UNIQUE,
  prefix text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX api_keys_account ON api_keys(account_id);

CREATE TABLE credit_entries (
  id bigserial PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  delta integer NOT NULL,
  balance_after integer NOT NULL CHECK (balance_after >= 0),
  reason text NOT NULL,
  ref text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX credit_entries_account ON credit_entries(account_id, id);

CREATE TABLE verifications (
  id uuid PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  request_hash text NOT NULL UNIQUE,
  status text NOT NULL,
  source text NOT NULL,
  verdict text,
  reasoning text,
  mode text NOT NULL,
  venue text,
  action_family text,
  action_type text,
  preset text NOT NULL,
  provider text,
  intent text NOT NULL,
  action jsonb NOT NULL,
  context jsonb,
  facts jsonb,
  transcript jsonb,
  transcript_root text,
  output_hash text,
  signature text,
  judge text,
  attested boolean NOT NULL DEFAULT false,
  anchor_tx text,
  created_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz
);
CREATE INDEX verifications_account ON verifications(account_id, created_at DESC);
CREATE INDEX verifications_pending ON verifications(status) WHERE status = 'PENDING';

CREATE TABLE heartbeats (
  account_id text NOT NULL REFERENCES accounts(id),
  instance_id uuid NOT NULL,
  name text NOT NULL,
  version text NOT NULL,
  state text NOT NULL,
  mode text NOT NULL,
  dry_run boolean NOT NULL,
  venue text NOT NULL,
  wallet_address text NOT NULL,
  started_at timestamptz NOT NULL,
  last_tick_at timestamptz NOT NULL,
  open_positions integer NOT NULL,
  total_exposure_usd double precision NOT NULL,
  daily_realized_pnl_usd double precision NOT NULL,
  credits_remaining double precision NOT NULL,
  note text,
  received_at timestamptz NOT NULL,
  PRIMARY KEY (account_id, instance_id)
);

CREATE TABLE oauth_tokens (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  token_hash text NOT NULL UNIQUE,
  scope text NOT NULL,
  client_id text,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- One row per x402 authorization (payer + nonce): the idempotency key for top-ups.
CREATE TABLE topup_payments (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  payer text NOT NULL,
  nonce text NOT NULL,
  credits integer NOT NULL,
  usd text NOT NULL,
  amount_atomic text NOT NULL,
  status text NOT NULL,
  tx_hash text,
  payload jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  credited_at timestamptz,
  UNIQUE (payer, nonce)
);
