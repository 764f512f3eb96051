import type { ColumnType, Generated } from "kysely";
import type { WalletChain } from "../chains/types";
import type { ProposalStatus } from "../proposals/state";
import type { KNOWN_KINDS } from "../proposals/schemas";

/**
 * Kysely table types. The SQL in migrations/ is the source of truth; keep these in step with it:
 * test/db/schema-matches-migrations.test.ts applies every migration to a real database and checks that each
 * table and column exists here, with the same nullability, and that each `CHECK (col IN (...))` list is
 * exactly the column's literal union. Columns holding one of a closed set of values are literal unions
 * (no `as` casts after a select); the list lives with the code that owns the values.
 */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T = unknown> = ColumnType<T, string, string>;

/** PENDING while the judge runs, COMPLETED after, FAILED when refunded. */
export type VerificationStatus = "PENDING" | "COMPLETED" | "FAILED";
/** structured: a venue adapter read the action into facts; semantic: the judge read it as text. */
export type VerificationMode = "structured" | "semantic";
export type TopupStatus = "pending" | "credited";
export type WalletMode = "autonomous" | "safe";
/** server: the service holds the key (envelope-encrypted); embedded: the owner's browser wallet does. */
export type WalletCustody = "server" | "embedded";
/** What a proposal does: an agent's input kind (SPEC 2.7), or an owner's withdrawal. */
export type ProposalKind = (typeof KNOWN_KINDS)[number] | "withdrawal";
export type ProposalOrigin = "agent" | "owner";
/** 018_rule_changes.sql: who may loosen a wallet's rules, and the rule-change audit trail's closed sets. */
export type WhoMayLoosen = "agent" | "owner";
export type RuleChangeStatus = "applied" | "pending" | "approved" | "rejected" | "expired";
export type RuleChangeActorKind = "api_key" | "oauth" | "owner";

export interface AccountsTable {
  id: string;
  name: string;
  credits_remaining: number;
  topup_code: string;
  created_at: Generated<Date>;
  credits_low_threshold: Generated<number | null>;
  /** 018_rule_changes.sql: who_may_loosen of the account's new wallets. */
  default_who_may_loosen: Generated<WhoMayLoosen>;
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
  status: VerificationStatus;
  source: string; // api | mcp | dashboard | proposal
  verdict: string | null;
  reasoning: string | null;
  mode: VerificationMode;
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
  /** 012_receipt_anchoring.sql: the batch holding this run's receipt and its leaf index there. */
  anchor_batch_id: Generated<string | null>;
  anchor_leaf_index: Generated<number | null>;
}

/** 012_receipt_anchoring.sql */
export interface AnchorStateTable {
  id: number;
  next_batch_id: string;
}

export interface AnchorBatchesTable {
  id: string;
  status: "built" | "sent" | "mined" | "verified" | "conflict";
  root: string;
  leaf_count: number;
  leaves: string;
  chain_id: number;
  contract: string;
  anchorer: string;
  tx_hash: string | null;
  tx_raw: string | null;
  tx_nonce: number | null;
  sent_block: string | null;
  block_number: string | null;
  block_hash: string | null;
  gas_used: string | null;
  attempts: Generated<number>;
  last_error: string | null;
  lease_owner: string | null;
  lease_until: Date | null;
  created_at: Generated<Date>;
  verified_at: Date | null;
}

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

export interface OauthTokensTable {
  id: string;
  account_id: string;
  token_hash: string;
  scope: string;
  client_id: string | null;
  expires_at: Date;
  revoked_at: Date | null;
  created_at: Generated<Date>;
  /** 005_oauth.sql: the grant (and resource) of tokens issued by the token endpoint; null for admin-issued ones. */
  grant_id: Generated<string | null>;
  resource: Generated<string | null>;
}

export interface TopupPaymentsTable {
  id: string;
  account_id: string;
  payer: string;
  nonce: string;
  credits: number;
  usd: string;
  amount_atomic: string;
  status: TopupStatus;
  tx_hash: string | null;
  payload: Json;
  created_at: Generated<Date>;
  credited_at: Date | null;
  network: string | null;
  asset: string | null;
  pay_to: string | null;
  lease_token: string | null;
  lease_until: Date | null;
  settle_started_at: Date | null;
  settle_response: Json | null;
  source: string | null;
}

/** Dashboard owners (003_dashboard.sql). */
export interface UsersTable {
  id: string;
  account_id: string;
  email: string;
  password_hash: string;
  role: Generated<string>;
  created_at: Generated<Date>;
  password_changed_at: Generated<Date>;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  account_id: string;
  token_hash: string;
  csrf_token: string;
  user_agent: string | null;
  ip: string | null;
  created_at: Generated<Date>;
  last_seen_at: Generated<Date>;
  expires_at: Date;
  revoked_at: Date | null;
}

export interface ClaimTokensTable {
  id: string;
  account_id: string;
  token_hash: string;
  expires_at: Date;
  used_at: Date | null;
  created_at: Generated<Date>;
}

export interface AuthFailuresTable {
  id: Generated<string>;
  bucket: string;
  created_at: Generated<Date>;
}

/** Escrow wallets (002_wallets.sql). `key_ref` is the encrypted key envelope: never select it casually. */
export interface WalletsTable {
  id: string;
  account_id: string;
  name: string;
  chain: WalletChain;
  mode: WalletMode;
  custody: Generated<WalletCustody>;
  address: string;
  mandate: string | null;
  limits: Json;
  signer: string;
  key_ref: string;
  next_nonce: number | null;
  archived_at: Date | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  /** 005_oauth.sql: a safe wallet from before self-custodial safe mode that can no longer transact (SPEC 7). */
  legacy_safe: Generated<boolean>;
  /** 009_a_rules_version.sql: +1 on every change of the limits or the mandate / of the mandate. */
  rules_version: Generated<number>;
  mandate_version: Generated<number>;
  /** 018_rule_changes.sql: `agent` (a loosening change by an agent applies) or `owner` (it waits for the owner). */
  who_may_loosen: Generated<WhoMayLoosen>;
}

/** The audit trail of rule changes, and the pending ones (018_rule_changes.sql). */
export interface WalletRuleChangesTable {
  id: string;
  seq: Generated<string>;
  account_id: string;
  wallet_id: string;
  status: RuleChangeStatus;
  actor_kind: RuleChangeActorKind;
  actor_id: string | null;
  changes: Json;
  patch: Json | null;
  expires_at: Date | null;
  decided_by: string | null;
  decided_at: Date | null;
  rules_version: number | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** Proposals: one row per propose call or owner withdrawal (002_wallets.sql). */
export interface ProposalsTable {
  id: string;
  account_id: string;
  wallet_id: string;
  origin: ProposalOrigin;
  kind: ProposalKind;
  status: ProposalStatus;
  input: Json;
  note: string | null;
  summary: string;
  payload: Json;
  request_hash: string;
  simulation: Json | null;
  verdict: string | null;
  reasoning: string | null;
  scan_id: string | null;
  credits_remaining: number | null;
  proof: Json | null;
  reserved_usd: Generated<number>;
  cap_at: Timestamp;
  approval_expires_at: Date | null;
  nonce: number | null;
  signed_tx: string | null;
  tx_hash: string | null;
  signed_at: Date | null;
  error: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  /** 009_a_rules_version.sql: the wallet's versions the proposal was checked and judged under (null: owner's, or older). */
  rules_version: Generated<number | null>;
  mandate_version: Generated<number | null>;
}

/** OAuth 2.1 authorization server (005_oauth.sql, docs/oauth.md). */
export interface OauthClientsTable {
  id: string;
  client_name: string;
  redirect_uris: Json<string[]>;
  client_uri: string | null;
  software_id: string | null;
  software_version: string | null;
  scope: string;
  created_at: Generated<Date>;
}

export interface OauthGrantsTable {
  id: string;
  client_id: string;
  account_id: string;
  user_id: string;
  scope: string;
  resource: string;
  created_at: Generated<Date>;
  refreshed_at: Date | null;
  revoked_at: Date | null;
  revoked_reason: string | null;
}

export interface OauthCodesTable {
  id: string;
  code_hash: string;
  client_id: string;
  account_id: string;
  user_id: string;
  redirect_uri: string;
  code_challenge: string;
  resource: string;
  scope: string;
  expires_at: Date;
  used_at: Date | null;
  grant_id: string | null;
  created_at: Generated<Date>;
}

export interface OauthRefreshTokensTable {
  id: string;
  grant_id: string;
  token_hash: string;
  expires_at: Date;
  used_at: Date | null;
  revoked_at: Date | null;
  created_at: Generated<Date>;
}

/** Self-custodial wallets (005_oauth.sql): SIWE challenges and owner confirmations signed by the owner's wallet. */
export interface SiweChallengesTable {
  nonce: string;
  account_id: string;
  session_id: string;
  address: string;
  message: string;
  expires_at: Date;
  used_at: Date | null;
  created_at: Generated<Date>;
}

export interface EmbeddedConfirmationsTable {
  proposal_id: string;
  prepared_at: Date;
  min_nonce: number;
  submitted_at: Date | null;
  tx_hash: string | null;
}

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

export interface DB {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  credit_entries: CreditEntriesTable;
  verifications: VerificationsTable;
  heartbeats: HeartbeatsTable;
  oauth_tokens: OauthTokensTable;
  topup_payments: TopupPaymentsTable;
  wallets: WalletsTable;
  wallet_rule_changes: WalletRuleChangesTable;
  proposals: ProposalsTable;
  users: UsersTable;
  sessions: SessionsTable;
  claim_tokens: ClaimTokensTable;
  auth_failures: AuthFailuresTable;
  oauth_clients: OauthClientsTable;
  oauth_grants: OauthGrantsTable;
  oauth_codes: OauthCodesTable;
  oauth_refresh_tokens: OauthRefreshTokensTable;
  siwe_challenges: SiweChallengesTable;
  embedded_confirmations: EmbeddedConfirmationsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  heartbeat_samples: HeartbeatSamplesTable;
  wallet_balance_samples: WalletBalanceSamplesTable;
  anchor_state: AnchorStateTable;
  anchor_batches: AnchorBatchesTable;
}
