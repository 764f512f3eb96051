-- x402 credit top-ups (src/credits/topup). One topup_payments row per EIP-3009 authorization; the
-- existing UNIQUE (payer, nonce) is the idempotency key: the row is inserted (claimed) BEFORE settlement,
-- so an authorization is bound to one account before any money moves, and is credited at most once
-- (status 'pending' -> 'credited' in the same transaction as the ledger entry).
--
-- network/asset/pay_to: the terms the payment was checked against (crash recovery re-checks the on-chain
--   Transfer against them).
-- lease_token/lease_until: which request currently works on a pending claim; an expired lease can be
--   taken over (a retry, or the recovery sweep) after a crash.
-- settle_started_at: set just before the facilitator is asked to settle; a pending row with it set may
--   have moved money, so it is never simply deleted without looking at the chain.
-- settle_response: the x402 SettleResponse, returned again (PAYMENT-RESPONSE) on replays.
ALTER TABLE topup_payments
  ADD COLUMN network text,
  ADD COLUMN asset text,
  ADD COLUMN pay_to text,
  ADD COLUMN lease_token text,
  ADD COLUMN lease_until timestamptz,
  ADD COLUMN settle_started_at timestamptz,
  ADD COLUMN settle_response jsonb,
  ADD COLUMN source text;

CREATE INDEX topup_payments_pending ON topup_payments (lease_until) WHERE status = 'pending';
CREATE INDEX topup_payments_account ON topup_payments (account_id, created_at DESC);
