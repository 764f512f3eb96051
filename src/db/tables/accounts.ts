/** Accounts and their credentials and credits: API keys, the credit ledger, x402 top-ups. Kept in step with migrations/ (see ../schema.ts). */
import type { Generated } from "kysely";
import type { WhoMayLoosen } from "./escrow";
import type { Json } from "./columns";

export type TopupStatus = "pending" | "credited";

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
