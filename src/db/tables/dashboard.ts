/** Dashboard owners, their sessions, claim links and the sign-in failure buckets (003_dashboard.sql). Kept in step with migrations/ (see ../schema.ts). */
import type { Generated } from "kysely";

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
