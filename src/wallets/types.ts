import type { Logger } from "pino";
import type { Transaction } from "kysely";
import type { Database } from "../db/client";
import type { DB } from "../db/schema";
import type { Clock } from "../lib/clock";
import type { EvmChain } from "../chains/evm/chain";
import type { WalletSigner } from "./custody/signer";
import type { WalletRow } from "./repo";

/** The chains escrow wallets can use on this deployment, by wallet `chain` value. */
export interface EscrowChains {
  /** The EVM client for a wallet chain ("base"); null when this deployment has none (e.g. legacy "ethereum"). */
  evm(chain: string): EvmChain | null;
}

export interface WalletsDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  chains: EscrowChains;
  signer: WalletSigner;
  publicUrl: string;
  /** Live (not archived) wallets one account may hold (SPEC 8: 25). */
  maxLiveWallets?: number;
  /**
   * Called inside the wallet's row lock after its rules changed: re-checks proposals still awaiting the
   * owner against the new limits and blocks those that no longer pass. Returns their ids.
   */
  onRulesChanged?: (tx: Transaction<DB>, wallet: WalletRow) => Promise<string[]>;
  /** Called inside the wallet's row lock when it is archived: held proposals can no longer execute. */
  onArchived?: (tx: Transaction<DB>, walletId: string) => Promise<string[]>;
}
