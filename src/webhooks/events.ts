import { z } from "zod";

/**
 * The events an owner can subscribe an endpoint to (docs/webhooks.md). Proposal, credit and rule-change
 * events are recorded by database triggers in the transaction of the change itself
 * (db/migrations/017_webhooks.sql); `trader.stale` by the stale-trader sweep.
 */
export const WEBHOOK_EVENT_TYPES = [
  "proposal.awaiting_user",
  "proposal.executed",
  "proposal.failed",
  "proposal.expired",
  "proposal.rejected",
  "wallet.rules_changed",
  "credits.low",
  "credits.topped_up",
  "trader.stale",
] as const;
export const WebhookEventType = z.enum(WEBHOOK_EVENT_TYPES);
export type WebhookEventType = z.infer<typeof WebhookEventType>;

export const EVENT_DESCRIPTIONS: Record<WebhookEventType, string> = {
  "proposal.awaiting_user": "a proposal waits for your approval (with the approval link and its expiry)",
  "proposal.executed": "a proposal's transaction landed on chain",
  "proposal.failed": "a proposal's transaction failed or could not be sent",
  "proposal.expired": "a held proposal's approval window passed",
  "proposal.rejected": "a held proposal was rejected",
  "wallet.rules_changed": "a wallet's mandate or limits changed (what loosened or tightened, and by whom)",
  "credits.low": "the credit balance fell to or below your threshold",
  "credits.topped_up": "credits were bought",
  "trader.stale": "a trader stopped reporting heartbeats",
};
