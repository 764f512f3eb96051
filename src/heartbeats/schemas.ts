import { z } from "zod";
import { evmAddressSchema } from "../chains/evm/address";

/**
 * SPEC 2.11. Field names of the two enumerations (not shown in SPEC) are `state` (run state) and `mode`;
 * see docs/decisions.md for which fields are required.
 */
export const RUN_STATES = ["starting", "running", "paused_out_of_credits", "stopping", "error"] as const;
export const TRADER_MODES = ["sandbox", "production"] as const;

const isoTimestamp = z.iso.datetime({ offset: true, message: "must be an ISO 8601 timestamp" });
const usd = z.number().finite().min(-1e15).max(1e15);

export const HeartbeatRequest = z.object({
  instanceId: z.uuid({ message: "must be a UUID" }),
  name: z.string().min(1).max(64),
  version: z.string().min(1).max(64),
  state: z.enum(RUN_STATES),
  mode: z.enum(TRADER_MODES),
  dryRun: z.boolean(),
  venue: z.string().min(1).max(32),
  walletAddress: evmAddressSchema("must match ^0x[0-9a-fA-F]{40}$"),
  startedAt: isoTimestamp,
  lastTickAt: isoTimestamp,
  openPositions: z.number().int().min(0).max(1_000_000).default(0),
  totalExposureUsd: usd.default(0),
  dailyRealizedPnlUsd: usd.default(0),
  creditsRemaining: z.number().finite().min(0).max(1e15).default(0),
  note: z.string().max(280).optional(),
});
export type HeartbeatRequest = z.infer<typeof HeartbeatRequest>;

export const HeartbeatRecord = HeartbeatRequest.extend({
  receivedAt: z.string(),
  stale: z.boolean(),
});
export type HeartbeatRecord = z.infer<typeof HeartbeatRecord>;
