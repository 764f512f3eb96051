-- Receipt anchoring (docs/receipts.md). Completed runs are gathered into batches; each batch's Merkle root
-- is written once to the anchor contract. `id` is the on-chain batch id (uint64), handed out from
-- anchor_state so ids never repeat, even across processes.
CREATE TABLE anchor_state (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  next_batch_id BIGINT NOT NULL
);
INSERT INTO anchor_state (id, next_batch_id) VALUES (1, 1);

CREATE TABLE anchor_batches (
  id BIGINT PRIMARY KEY,
  -- built: root fixed, no transaction yet; sent: signed transaction stored (then broadcast);
  -- mined: the transaction's receipt seen; verified: confirmed and the root re-read from the contract;
  -- conflict: the contract already holds another root for this (anchorer, id): never anchored, logged.
  status TEXT NOT NULL CHECK (status IN ('built', 'sent', 'mined', 'verified', 'conflict')),
  root TEXT NOT NULL,
  leaf_count INTEGER NOT NULL,
  -- The leaves (receipt digests) in leaf order: 0x + 64 hex each, concatenated without separators or 0x.
  leaves TEXT NOT NULL,
  chain_id INTEGER NOT NULL,
  contract TEXT NOT NULL,
  anchorer TEXT NOT NULL,
  -- The signed transaction is stored BEFORE it is broadcast, so a crash in between re-sends the same bytes.
  tx_hash TEXT,
  tx_raw TEXT,
  tx_nonce INTEGER,
  -- The head when the transaction was signed: where to start looking for the Anchored event.
  sent_block BIGINT,
  block_number BIGINT,
  block_hash TEXT,
  gas_used BIGINT,
  attempts INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  lease_owner TEXT,
  lease_until TIMESTAMPTZ,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  verified_at TIMESTAMPTZ
);
CREATE INDEX anchor_batches_open ON anchor_batches (id) WHERE status IN ('built', 'sent', 'mined');

ALTER TABLE verifications ADD COLUMN anchor_batch_id BIGINT;
ALTER TABLE verifications ADD COLUMN anchor_leaf_index INTEGER;
-- Small by construction: only completed runs not yet in a batch.
CREATE INDEX verifications_unanchored ON verifications (completed_at) WHERE status = 'COMPLETED' AND anchor_batch_id IS NULL;
CREATE INDEX verifications_anchor_batch ON verifications (anchor_batch_id, anchor_leaf_index) WHERE anchor_batch_id IS NOT NULL;
