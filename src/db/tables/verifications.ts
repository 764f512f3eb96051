/** Judge runs (verifications) and the on-chain anchoring of their receipts (012_receipt_anchoring.sql). Kept in step with migrations/ (see ../schema.ts). */
import type { Generated } from "kysely";
import type { Json } from "./columns";

/** PENDING while the judge runs, COMPLETED after, FAILED when refunded. */
export type VerificationStatus = "PENDING" | "COMPLETED" | "FAILED";
/** structured: a venue adapter read the action into facts; semantic: the judge read it as text. */
export type VerificationMode = "structured" | "semantic";

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
