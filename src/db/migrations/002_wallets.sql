-- Escrow wallets and their proposals (SPEC 2.5-2.10, 3).
-- Invariants:
--  * a wallet's key is stored only as an encrypted envelope (key_ref); the plain key never reaches the database;
--  * every proposal belongs to the wallet's account (account_id is copied so every query can scope by it);
--  * a signed transaction is written (signed_tx, tx_hash, nonce) before it is broadcast, and tx_hash is unique:
--    a restart rebroadcasts the same bytes, never a new transaction;
--  * next_nonce is assigned under a row lock on the wallet, so two proposals never sign with one nonce.

CREATE TABLE wallets (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  name text NOT NULL,
  chain text NOT NULL,
  mode text NOT NULL CHECK (mode IN ('autonomous', 'safe')),
  custody text NOT NULL DEFAULT 'server',
  address text NOT NULL UNIQUE,
  mandate text,
  limits jsonb NOT NULL DEFAULT '{}',
  signer text NOT NULL,
  key_ref text NOT NULL,
  next_nonce integer,
  archived_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (account_id, name)
);
CREATE INDEX wallets_account ON wallets(account_id, created_at);

CREATE TABLE proposals (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  wallet_id text NOT NULL REFERENCES wallets(id),
  -- agent: propose/MCP tools (limits and judge apply); owner: withdrawals (neither applies).
  origin text NOT NULL,
  kind text NOT NULL,
  status text NOT NULL,
  input jsonb NOT NULL,
  note text,
  summary text NOT NULL,
  -- The canonical payload the wallet signs (chainId, from, to, value, data, delegation); request_hash is
  -- keccak256 of its canonical JSON and is recomputed before signing.
  payload jsonb NOT NULL,
  request_hash text NOT NULL,
  simulation jsonb,
  verdict text,
  reasoning text,
  scan_id uuid,
  credits_remaining integer,
  proof jsonb,
  -- USD this proposal holds against the wallet's rolling 24-hour cap while its status counts (see
  -- proposals/reserve.ts), at cap_at.
  reserved_usd double precision NOT NULL DEFAULT 0,
  cap_at timestamptz NOT NULL,
  approval_expires_at timestamptz,
  nonce integer,
  signed_tx text,
  tx_hash text UNIQUE,
  signed_at timestamptz,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX proposals_account ON proposals(account_id, created_at DESC);
CREATE INDEX proposals_wallet ON proposals(wallet_id, created_at DESC);
CREATE INDEX proposals_open ON proposals(status, updated_at) WHERE status IN ('verifying', 'awaiting_user', 'executing');
