/** Escrow wallets, their rule changes and proposals, self-custodial confirmations and STRK20 ungated signings. Kept in step with migrations/ (see ../schema.ts). */
import type { Generated } from "kysely";
import type { WalletChain } from "../../chains/types";
import type { ProposalStatus } from "../../proposals/state";
import type { KNOWN_KINDS } from "../../proposals/schemas";
import type { Timestamp, Json } from "./columns";

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

/** STRK20 ungated signings counted against the wallet's daily cap (migration 020, src/strk20/service.ts). */
export interface Strk20SigningsTable {
  id: string;
  account_id: string;
  wallet_id: string;
  usd: number;
  cap_at: Timestamp;
  created_at: Generated<Date>;
}
