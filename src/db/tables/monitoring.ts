/** Trader heartbeats and the sampled series the dashboard charts. Kept in step with migrations/ (see ../schema.ts). */
import type { Generated } from "kysely";
import type { Timestamp } from "./columns";

export interface HeartbeatsTable {
  account_id: string;
  instance_id: string;
  name: string;
  version: string;
  state: string | null;
  mode: string | null;
  dry_run: boolean;
  venue: string;
  wallet_address: string;
  started_at: Timestamp;
  last_tick_at: Timestamp;
  open_positions: number;
  total_exposure_usd: number;
  daily_realized_pnl_usd: number;
  credits_remaining: number;
  note: string | null;
  received_at: Timestamp;
  stale_notified_at: Generated<Date | null>;
}

export interface HeartbeatSamplesTable {
  account_id: string;
  instance_id: string;
  sampled_at: Timestamp;
  total_exposure_usd: number;
  daily_realized_pnl_usd: number;
  open_positions: number;
}

export interface WalletBalanceSamplesTable {
  wallet_id: string;
  account_id: string;
  sampled_at: Timestamp;
  balance_usd: number;
}
