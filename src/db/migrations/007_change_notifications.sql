-- Change notifications for in-memory read caches (src/db/change-feed.ts, src/lib/invalidating-cache.ts).
-- Every committed change to a balance or an API key sends `<topic>:<key>` on channel `arbiter_cache`;
-- PostgreSQL delivers notifications only after commit and in commit order, to every process that listens,
-- so a process drops its cached copy of anything another process (or an operator's SQL) changed.
-- Triggers, not application code, send them: no writer can forget.
CREATE FUNCTION arbiter_notify_balance() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('arbiter_cache', 'balance:' || NEW.id);
  RETURN NULL;
END $$;

CREATE TRIGGER accounts_balance_changed AFTER UPDATE OF credits_remaining ON accounts
  FOR EACH ROW EXECUTE FUNCTION arbiter_notify_balance();

CREATE FUNCTION arbiter_notify_api_key() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('arbiter_cache', 'api_key:' || OLD.key_hash);
  RETURN NULL;
END $$;

-- last_used_at is informational and written at most once a minute: it does not invalidate.
CREATE TRIGGER api_keys_changed AFTER UPDATE OF key_hash, account_id, revoked_at OR DELETE ON api_keys
  FOR EACH ROW EXECUTE FUNCTION arbiter_notify_api_key();
