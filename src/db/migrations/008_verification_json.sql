-- Stored runs keep their JSON as `json` (validated text), not `jsonb`: nothing queries inside these
-- documents (search casts them to text), they are written on every verification and read back whole, and
-- parsing a transcript into jsonb was the largest part of the insert (measured: docs/performance.md).
-- `json` also keeps each document exactly as it was written.
ALTER TABLE verifications
  ALTER COLUMN action TYPE json USING action::json,
  ALTER COLUMN context TYPE json USING context::json,
  ALTER COLUMN facts TYPE json USING facts::json,
  ALTER COLUMN transcript TYPE json USING transcript::json;
