-- SPEC 2.11 lists 13 heartbeat fields; the run state and mode are not among them, so a trader may omit them
-- (shown as "unknown" until reported).
ALTER TABLE heartbeats ALTER COLUMN state DROP NOT NULL;
ALTER TABLE heartbeats ALTER COLUMN mode DROP NOT NULL;
