-- Webhooks to the owner's systems (docs/webhooks.md), and the history the dashboard's charts draw.
--
-- Invariants:
--  * an event is recorded by a trigger in the same transaction as the change it reports (the proposal's
--    status, the ledger row, the balance crossing the owner's threshold, the rule change): it cannot be
--    lost after the change commits, nor sent for a change that rolled back;
--  * one delivery row per (event, endpoint), fanned out when the event is recorded to the endpoints that
--    subscribe to its type; a delivery is claimed by one process at a time (FOR UPDATE SKIP LOCKED with
--    a lease in next_attempt_at), so delivery is at-least-once and receivers de-duplicate by the event id;
--  * an account with no endpoint for an event type records nothing for it (the trigger's one indexed
--    probe is all an event costs there);
--  * every row carries its account_id; every read is scoped by it.

CREATE TABLE webhook_endpoints (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  url text NOT NULL,
  description text,
  events text[] NOT NULL,
  -- The signing secret, sealed with the master key (AES-256-GCM envelope, AAD = endpoint id); shown once.
  secret jsonb NOT NULL,
  -- After a rotation the old secret also signs until this time (Standard Webhooks allows several signatures).
  previous_secret jsonb,
  previous_secret_until timestamptz,
  paused_at timestamptz,
  disabled_at timestamptz,
  disabled_reason text,
  consecutive_failures integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_endpoints_account ON webhook_endpoints(account_id) WHERE disabled_at IS NULL;

CREATE TABLE webhook_events (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  type text NOT NULL,
  payload jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_events_account ON webhook_events(account_id, created_at DESC);

CREATE TABLE webhook_deliveries (
  id bigserial PRIMARY KEY,
  event_id text NOT NULL REFERENCES webhook_events(id),
  endpoint_id text NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
  account_id text NOT NULL REFERENCES accounts(id),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_attempt_at timestamptz,
  last_status integer,
  last_error text,
  delivered_at timestamptz,
  -- Automatic retries stop here (24 hours after the event, or after the owner's "resend").
  give_up_at timestamptz NOT NULL DEFAULT now() + interval '24 hours',
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (event_id, endpoint_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries(endpoint_id, id DESC);

-- The owner's low-credit threshold (credits.low fires when the balance falls to or below it).
ALTER TABLE accounts ADD COLUMN credits_low_threshold integer CHECK (credits_low_threshold >= 0);
-- trader.stale fires once per silence: set when sent, cleared by the next heartbeat.
ALTER TABLE heartbeats ADD COLUMN stale_notified_at timestamptz;

CREATE FUNCTION webhook_emit(p_account text, p_type text, p_payload jsonb) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  ev text;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM webhook_endpoints WHERE account_id = p_account AND disabled_at IS NULL AND p_type = ANY (events)) THEN
    RETURN;
  END IF;
  ev := 'msg_' || replace(gen_random_uuid()::text, '-', '');
  INSERT INTO webhook_events (id, account_id, type, payload) VALUES (ev, p_account, p_type, p_payload);
  INSERT INTO webhook_deliveries (event_id, endpoint_id, account_id)
    SELECT ev, id, p_account FROM webhook_endpoints WHERE account_id = p_account AND disabled_at IS NULL AND p_type = ANY (events);
END
$$;

CREATE FUNCTION proposals_webhook() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status IN ('awaiting_user', 'executed', 'failed', 'expired', 'rejected') AND (TG_OP = 'INSERT' OR OLD.status IS DISTINCT FROM NEW.status) THEN
    PERFORM webhook_emit(NEW.account_id, 'proposal.' || NEW.status, jsonb_build_object(
      'proposalId', NEW.id, 'walletId', NEW.wallet_id, 'origin', NEW.origin, 'kind', NEW.kind, 'status', NEW.status,
      'summary', NEW.summary, 'verdict', NEW.verdict, 'reasoning', NEW.reasoning, 'txHash', NEW.tx_hash,
      'error', NEW.error, 'approvalExpiresAt', NEW.approval_expires_at, 'scanId', NEW.scan_id));
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER proposals_webhook AFTER INSERT OR UPDATE OF status ON proposals FOR EACH ROW EXECUTE FUNCTION proposals_webhook();

CREATE FUNCTION credit_entries_webhook() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM webhook_emit(NEW.account_id, 'credits.topped_up', jsonb_build_object(
    'credited', NEW.delta, 'creditsRemaining', NEW.balance_after, 'reason', NEW.reason, 'reference', NEW.ref));
  RETURN NULL;
END
$$;
CREATE TRIGGER credit_entries_webhook AFTER INSERT ON credit_entries FOR EACH ROW
  WHEN (NEW.delta > 0 AND NEW.reason LIKE 'topup:%') EXECUTE FUNCTION credit_entries_webhook();

-- Evaluated per balance change, but the function runs only when the balance crosses the threshold.
CREATE FUNCTION accounts_low_credit_webhook() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM webhook_emit(NEW.id, 'credits.low', jsonb_build_object(
    'creditsRemaining', NEW.credits_remaining, 'threshold', NEW.credits_low_threshold));
  RETURN NULL;
END
$$;
CREATE TRIGGER accounts_low_credit_webhook AFTER UPDATE OF credits_remaining ON accounts FOR EACH ROW
  WHEN (NEW.credits_low_threshold IS NOT NULL AND OLD.credits_remaining > NEW.credits_low_threshold AND NEW.credits_remaining <= NEW.credits_low_threshold)
  EXECUTE FUNCTION accounts_low_credit_webhook();

-- Bounded history of heartbeat numbers for the traders' charts: at most one sample a minute per instance,
-- 30 days kept.
CREATE TABLE heartbeat_samples (
  account_id text NOT NULL REFERENCES accounts(id),
  instance_id uuid NOT NULL,
  sampled_at timestamptz NOT NULL,
  total_exposure_usd double precision NOT NULL,
  daily_realized_pnl_usd double precision NOT NULL,
  open_positions integer NOT NULL,
  PRIMARY KEY (account_id, instance_id, sampled_at)
);

CREATE FUNCTION heartbeats_sample() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM heartbeat_samples WHERE account_id = NEW.account_id AND instance_id = NEW.instance_id AND sampled_at > NEW.received_at - interval '1 minute') THEN
    INSERT INTO heartbeat_samples VALUES (NEW.account_id, NEW.instance_id, NEW.received_at, NEW.total_exposure_usd, NEW.daily_realized_pnl_usd, NEW.open_positions)
      ON CONFLICT DO NOTHING;
    DELETE FROM heartbeat_samples WHERE account_id = NEW.account_id AND instance_id = NEW.instance_id AND sampled_at < NEW.received_at - interval '30 days';
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER heartbeats_sample AFTER INSERT OR UPDATE ON heartbeats FOR EACH ROW EXECUTE FUNCTION heartbeats_sample();

-- Wallet balances over time for the wallet page's chart: sampled by the service (at most one per wallet
-- per five minutes), 90 days kept.
CREATE TABLE wallet_balance_samples (
  wallet_id text NOT NULL REFERENCES wallets(id),
  account_id text NOT NULL REFERENCES accounts(id),
  sampled_at timestamptz NOT NULL,
  balance_usd double precision NOT NULL,
  PRIMARY KEY (wallet_id, sampled_at)
);
