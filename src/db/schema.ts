import type { ColumnType, Generated } from "kysely";

/** Kysely table types. The SQL in migrations/ is the source of truth; keep these in step with it. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T = unknown> = ColumnType<T, string, string>;

export interface AccountsTable {
  id: string;
  name: string;
  credits_remaining: number;
  topup_code: string;
  created_at: Generated<Date>;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  key_hash: string;
  prefix: string;
  created_at: Generated<Date>;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

export interface CreditEntriesTable {
  id: Generated<string>;
  account_id: string;
  delta: number;
  balance_after: number;
  reason: string;
  ref: string | null;
  created_at: Generated<Date>;
}

export interface VerificationsTable {
  id: string;
  account_id: string;
  request_hash: string;
  status: string; // PENDING while the judge runs, COMPLETED after, FAILED when refunded
  source: string; // api | mcp | dashboard | proposal
  verdict: string | null;
  reasoning: string | null;
  mode: string;
  venue: string | null;
  action_family: string | null;
  action_type: string | null;
  preset: string;
  provider: string | null;
  intent: string;
  action: Json;
  context: Json | null;
  facts: Json | null;
  transcript: Json | null;
  transcript_root: string | null;
  output_hash: string | null;
  signature: string | null;
  judge: string | null;
  attested: Generated<boolean>;
  anchor_tx: string | null;
  created_at: Generated<Date>;
  completed_at: Date | null;
}

export interface HeartbeatsTable {
  account_id: string;
  instance_id: string;
  name: string;
  version: string;
  state: string;
  mode: string;
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
}

export interface OauthTokensTable {
  id: string;
  account_id: string;
  token_hash: string;
  scope: string;
  client_id: string | null;
  expires_at: Date;
  revoked_at: Date | null;
  created_at: Generated<Date>;
}

export interface TopupPaymentsTable {
  id: string;
  account_id: string;
  payer: string;
  nonce: string;
  credits: number;
  usd: string;
  amount_atomic: string;
  status: string; // settling | credited
  tx_hash: string | null;
  payload: Json;
  created_at: Generated<Date>;
  credited_at: Date | null;
}

export interface DB {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  credit_entries: CreditEntriesTable;
  verifications: VerificationsTable;
  heartbeats: HeartbeatsTable;
  oauth_tokens: OauthTokensTable;
  topup_payments: TopupPaymentsTable;
}
