import { z } from "zod";
import { WebhookEventType } from "./events";

/** An endpoint as the owner sets it (dashboard form). The URL is vetted again at every delivery. */
export const WebhookEndpointInput = z.object({
  url: z.string().trim().min(1, "url is required").max(2048, "url must be at most 2,048 characters"),
  events: z.array(WebhookEventType).min(1, "choose at least one event"),
  description: z.string().trim().max(200, "description must be at most 200 characters").optional(),
});
export type WebhookEndpointInput = z.infer<typeof WebhookEndpointInput>;

export const CreditsLowThreshold = z.number().int().min(0).max(1_000_000).nullable();
