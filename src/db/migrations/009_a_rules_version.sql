-- Rules versions (issue 18): a proposal executes only under the rules it was judged against.
-- Invariants:
--  * wallets.rules_version grows by one with every change of the limits or the mandate, and
--    wallets.mandate_version with every change of the mandate; both change under the wallet's row lock;
--  * proposals.rules_version / mandate_version are the wallet's versions read under that lock when the
--    proposal was recorded (what the limits were checked and the judge ran against); null on rows from
--    before this migration and on the owner's withdrawals (neither limits nor mandate apply);
--  * signing re-reads the wallet under the same lock: archived, a different mandate_version, or limits
--    of a different rules_version the proposal no longer passes refuse the proposal (`blocked`).
ALTER TABLE wallets ADD COLUMN rules_version integer NOT NULL DEFAULT 1;
ALTER TABLE wallets ADD COLUMN mandate_version integer NOT NULL DEFAULT 1;
ALTER TABLE proposals ADD COLUMN rules_version integer;
ALTER TABLE proposals ADD COLUMN mandate_version integer;
