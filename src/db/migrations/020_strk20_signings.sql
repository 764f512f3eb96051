-- STRK20 ungated signings counted against the wallet's rolling 24-hour USD cap (docs/strk20.md "Limits").
--
-- Invariants:
--  * one row per proof invocation the service signed for a wallet on the ungated path
--    (strk20_sign_proof_invocation), written under the wallet's row lock in the transaction that checked the
--    wallet's USD limits, BEFORE anything is signed; deleted again only when the signing or proving failed
--    (nothing usable left the service);
--  * `usd` is what the decoded actions move out of the wallet, priced when signed: notes to other recipients
--    and withdrawals to other addresses, the relayer's fee included;
--  * the cap counts a row while `cap_at` is inside the window, whether or not its proof was ever relayed
--    (the proof can be relayed by anyone holding it, with no further word from this service);
--  * every row carries its account_id.
CREATE TABLE strk20_signings (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  wallet_id text NOT NULL REFERENCES wallets(id),
  usd double precision NOT NULL CHECK (usd >= 0),
  cap_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX strk20_signings_wallet_window ON strk20_signings(wallet_id, cap_at);
