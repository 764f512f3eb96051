-- Who may loosen a wallet's rules, and the audit trail of every rule change (issue 18, attack 1).
--
-- Invariants:
--  * wallets.who_may_loosen is `agent` (a loosening change sent by an agent's credential is applied, SPEC 4.12)
--    or `owner` (it is held as a `pending` rule change until the owner approves it in the dashboard);
--    accounts.default_who_may_loosen is what a new wallet of the account starts with;
--  * one wallet_rule_changes row per rule change, written in the transaction that changes the wallet (under
--    its row lock) or records the pending change: applied, pending, then approved, rejected or expired;
--  * `changes` is the field-level diff (field, from, to, effect loosened/tightened/changed, text) that the
--    row applied (applied, approved) or would apply (pending, rejected, expired); `patch` is what a pending
--    change sets on approval, applied field by field on top of the rules as they are then;
--  * every row carries its account_id; every read is scoped by it.
ALTER TABLE wallets ADD COLUMN who_may_loosen text NOT NULL DEFAULT 'agent' CHECK (who_may_loosen IN ('agent', 'owner'));
ALTER TABLE accounts ADD COLUMN default_who_may_loosen text NOT NULL DEFAULT 'agent' CHECK (default_who_may_loosen IN ('agent', 'owner'));

CREATE TABLE wallet_rule_changes (
  id text PRIMARY KEY,
  -- Insertion order (the trail's order; timestamps of one transaction are equal).
  seq bigserial NOT NULL,
  account_id text NOT NULL REFERENCES accounts(id),
  wallet_id text NOT NULL REFERENCES wallets(id),
  status text NOT NULL CHECK (status IN ('applied', 'pending', 'approved', 'rejected', 'expired')),
  -- Who sent the change: an API key (its id), an OAuth client (its client id, else the token id), or the owner (user id).
  actor_kind text NOT NULL CHECK (actor_kind IN ('api_key', 'oauth', 'owner')),
  actor_id text,
  changes jsonb NOT NULL,
  patch jsonb,
  expires_at timestamptz,
  decided_by text,
  decided_at timestamptz,
  -- The wallet's rules_version once this change was applied (applied, approved).
  rules_version integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX wallet_rule_changes_wallet ON wallet_rule_changes(account_id, wallet_id, seq DESC);
CREATE INDEX wallet_rule_changes_due ON wallet_rule_changes(expires_at) WHERE status = 'pending';
