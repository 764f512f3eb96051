import { z } from "zod";
import { evmAddressSchema } from "../chains/evm/address";

/**
 * SPEC 2.11: the 13 documented fields. The two enumerations the SPEC names without field names are carried as
 * `state` (alias `status`) for the run state and `mode`; both are optional, and a trader that never reported
 * one is listed as `unknown` (docs/decisions.md, "Trader heartbeat").
 */
export const RUN_STATES = ["starting", "running", "paused_out_of_credits", "stopping", "error"] as const;
export const TRADER_MODES = ["sandbox", "production"] as const;
export const UNKNOWN = "unknown" as const;

const isoTimestamp = z.iso.datetime({ offset: true, message: "must be an ISO 8601 timestamp" });
const usd = z.number().finite().min(-1e15).max(1e15);

export const HeartbeatRequest = z
  .object({
    instanceId: z.uuid({ message: "must be a UUID" }),
    name: z.string().min(1).max(64),
    version: z.string().min(1).max(64),
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
    state: z.enum(RUN_STATES).optional().describe("The run state (optional; `status` is accepted as another name for it)"),
    status: z.enum(RUN_STATES).optional().describe("Another name for `state`; if both are sent they must agree"),
    mode: z.enum(TRADER_MODES).optional(),
  })
  .refine((b) => b.state === undefined || b.status === undefined || b.state === b.status, {
    message: "state and status are the same field and must agree when both are sent",
    path: ["status"],
  });
export type HeartbeatRequest = z.infer<typeof HeartbeatRequest>;

export const HeartbeatRecord = z.object({
  instanceId: z.string(),
  name: z.string(),
  version: z.string(),
  state: z.enum([...RUN_STATES, UNKNOWN]).describe("`unknown` until the trader reports one"),
  mode: z.enum([...TRADER_MODES, UNKNOWN]).describe("`unknown` until the trader reports one"),
  dryRun: z.boolean(),
  venue: z.string(),
  walletAddress: z.string(),
  startedAt: z.string(),
  lastTickAt: z.string(),
  openPositions: z.number().int(),
  totalExposureUsd: z.number(),
  dailyRealizedPnlUsd: z.number(),
  creditsRemaining: z.number(),
  note: z.string().optional(),
  receivedAt: z.string(),
  stale: z.boolean(),
});
export type HeartbeatRecord = z.infer<typeof HeartbeatRecord>;
