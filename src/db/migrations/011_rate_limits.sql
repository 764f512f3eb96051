-- Shared rate-limit buckets (RATE_LIMIT_STORE=postgres, src/rate-limits/postgres.ts): one row per
-- credential hash, updated by one INSERT ... ON CONFLICT statement per request (the row lock serialises
-- concurrent takes across processes). Unlogged: losing the buckets in a crash only refills them.
CREATE UNLOGGED TABLE rate_limit_buckets (
  key text PRIMARY KEY,
  tokens double precision NOT NULL,
  at_ms double precision NOT NULL,
  granted boolean NOT NULL
);
