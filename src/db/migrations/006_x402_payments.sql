-- x402 payments from escrow wallets (MCP escrow_pay_x402; src/x402/pay). One row per x402_payment proposal.
-- Invariants:
--  * the row is written in the same transaction as its proposal, so execution always finds the terms;
--  * `accepted` and `resource` are the terms the payment answers: fetched at proposal time, refreshed (and
--    required to name the same amount, asset and payTo) when the owner confirms a held payment;
--  * the EIP-3009 authorization's nonce and validBefore are stored when it is signed, in the same
--    transaction that moves the proposal to `executing`; the signature itself is never stored. The token
--    contract's authorizationState(from, nonce) is then the truth about whether money moved, and after
--    validBefore an unused authorization can never move it;
--  * response_* hold what the resource answered to the paid request (text cut at 8,000 characters).
CREATE TABLE x402_payments (
  proposal_id text PRIMARY KEY REFERENCES proposals(id),
  url text NOT NULL,
  method text NOT NULL,
  accepted jsonb NOT NULL,
  resource jsonb,
  terms_fetched_at timestamptz NOT NULL,
  auth_nonce text UNIQUE,
  valid_before timestamptz,
  signed_at timestamptz,
  response_status integer,
  response_text text,
  response_truncated boolean,
  response_content_type text,
  settlement jsonb,
  completed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX x402_payments_open ON x402_payments (valid_before) WHERE completed_at IS NULL AND auth_nonce IS NOT NULL;
