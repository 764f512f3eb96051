import type { Logger } from "pino";
import type { Database } from "../db/client";
import type { Clock } from "../lib/clock";
import type { VerificationService } from "../verification/service";
import type { WalletSigner } from "../wallets/custody/signer";
import type { EscrowChains } from "../wallets/types";

export interface ProposalsDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  chains: EscrowChains;
  signer: WalletSigner;
  verification: VerificationService;
  publicUrl: string;
  /** APPROVAL_WINDOW_MINUTES in ms: how long a held proposal waits for the owner. */
  approvalWindowMs: number;
  /** A proposal still `verifying` after this long was interrupted (crash during the judge run). */
  staleVerifyingMs: number;
}
