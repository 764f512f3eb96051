/**
 * Kysely table types. The SQL in migrations/ is the source of truth; keep these in step with it:
 * test/db/schema-matches-migrations.test.ts applies every migration to a real database and checks that each
 * table and column exists here, with the same nullability, and that each `CHECK (col IN (...))` list is
 * exactly the column's literal union. Columns holding one of a closed set of values are literal unions
 * (no `as` casts after a select); the list lives with the code that owns the values.
 *
 * The tables are declared per capability in ./tables/; this file gathers them into `DB` and re-exports
 * them, so `import ... from "../db/schema"` keeps working.
 */
import type { AccountsTable, ApiKeysTable, CreditEntriesTable, TopupPaymentsTable } from "./tables/accounts";
import type { VerificationsTable, AnchorStateTable, AnchorBatchesTable } from "./tables/verifications";
import type { HeartbeatsTable, HeartbeatSamplesTable, WalletBalanceSamplesTable } from "./tables/monitoring";
import type { UsersTable, SessionsTable, ClaimTokensTable, AuthFailuresTable } from "./tables/dashboard";
import type { WalletsTable, WalletRuleChangesTable, ProposalsTable, SiweChallengesTable, EmbeddedConfirmationsTable, Strk20SigningsTable } from "./tables/escrow";
import type { OauthTokensTable, OauthClientsTable, OauthGrantsTable, OauthCodesTable, OauthRefreshTokensTable } from "./tables/oauth";
import type { WebhookEndpointsTable, WebhookEventsTable, WebhookDeliveriesTable } from "./tables/webhooks";

export type { TopupStatus, AccountsTable, ApiKeysTable, CreditEntriesTable, TopupPaymentsTable } from "./tables/accounts";
export type { VerificationStatus, VerificationMode, VerificationsTable, AnchorStateTable, AnchorBatchesTable } from "./tables/verifications";
export type { HeartbeatsTable, HeartbeatSamplesTable, WalletBalanceSamplesTable } from "./tables/monitoring";
export type { UsersTable, SessionsTable, ClaimTokensTable, AuthFailuresTable } from "./tables/dashboard";
export type { WalletMode, WalletCustody, ProposalKind, ProposalOrigin, WhoMayLoosen, RuleChangeStatus, RuleChangeActorKind, WalletsTable, WalletRuleChangesTable, ProposalsTable, SiweChallengesTable, EmbeddedConfirmationsTable, Strk20SigningsTable } from "./tables/escrow";
export type { OauthTokensTable, OauthClientsTable, OauthGrantsTable, OauthCodesTable, OauthRefreshTokensTable } from "./tables/oauth";
export type { WebhookEndpointsTable, WebhookEventsTable, WebhookDeliveriesTable } from "./tables/webhooks";

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
  strk20_signings: Strk20SigningsTable;
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
