/** Webhook endpoints, the events they subscribe to and the delivery queue. Kept in step with migrations/ (see ../schema.ts). */
import type { Generated } from "kysely";
import type { Json } from "./columns";

export interface WebhookEndpointsTable {
  id: string;
  account_id: string;
  url: string;
  description: string | null;
  events: string[];
  secret: Json;
  previous_secret: Json | null;
  previous_secret_until: Date | null;
  paused_at: Date | null;
  disabled_at: Date | null;
  disabled_reason: string | null;
  consecutive_failures: Generated<number>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface WebhookEventsTable {
  id: string;
  account_id: string;
  type: string;
  payload: Json;
  created_at: Generated<Date>;
}

export interface WebhookDeliveriesTable {
  id: Generated<string>;
  event_id: string;
  endpoint_id: string;
  account_id: string;
  status: Generated<"pending" | "delivered" | "failed">;
  attempts: Generated<number>;
  next_attempt_at: Generated<Date>;
  last_attempt_at: Date | null;
  last_status: number | null;
  last_error: string | null;
  delivered_at: Date | null;
  give_up_at: Generated<Date>;
  created_at: Generated<Date>;
}
