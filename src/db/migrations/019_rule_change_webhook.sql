-- `wallet.rules_changed` (docs/webhooks.md): one event per rule change recorded (applied or pending) and per
-- change of its status (approved, rejected, expired), written by the trigger in the transaction of the
-- change itself, like the other events of 017_webhooks.sql. `loosened` / `tightened` / `changed` are the
-- plain-language texts of the field-level `changes`; `actor` is the credential that sent the change.
CREATE FUNCTION wallet_rule_changes_webhook() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' OR OLD.status IS DISTINCT FROM NEW.status THEN
    PERFORM webhook_emit(NEW.account_id, 'wallet.rules_changed', jsonb_build_object(
      'walletId', NEW.wallet_id, 'changeId', NEW.id, 'status', NEW.status,
      'actor', jsonb_build_object('kind', NEW.actor_kind, 'id', NEW.actor_id),
      'changes', NEW.changes,
      'changed', (SELECT coalesce(jsonb_agg(c->'text'), '[]'::jsonb) FROM jsonb_array_elements(NEW.changes) c),
      'loosened', (SELECT coalesce(jsonb_agg(c->'text'), '[]'::jsonb) FROM jsonb_array_elements(NEW.changes) c WHERE c->>'effect' = 'loosened'),
      'tightened', (SELECT coalesce(jsonb_agg(c->'text'), '[]'::jsonb) FROM jsonb_array_elements(NEW.changes) c WHERE c->>'effect' = 'tightened'),
      'expiresAt', NEW.expires_at, 'decidedAt', NEW.decided_at, 'rulesVersion', NEW.rules_version));
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER wallet_rule_changes_webhook AFTER INSERT OR UPDATE OF status ON wallet_rule_changes FOR EACH ROW EXECUTE FUNCTION wallet_rule_changes_webhook();
