import type { Logger } from "pino";
import type { Transaction } from "kysely";
import type { Database } from "../db/client";
import type { DB } from "../db/schema";
import type { Clock } from "../lib/clock";
import type { ChainRegistry } from "../chains/port";
import { offlineChain } from "../chains/codecs";
import { LimitsError, type LimitsChain } from "./limits";
import type { WalletRow } from "./repo";

/** The chains escrow wallets can use on this deployment: one adapter per wallet `chain` value (src/chains/port.ts). */
export type EscrowChains = ChainRegistry;

export interface WalletsDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  chains: EscrowChains;
  publicUrl: string;
  /** How long a rule change held for the owner waits (APPROVAL_WINDOW_MINUTES, as a held proposal). */
  ruleChangeWindowMs?: number;
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

export const DEFAULT_RULE_CHANGE_WINDOW_MS = 60 * 60_000;

/**
 * The codec and tokens limits are normalised with for a wallet chain: its adapter when served, else the
 * family's offline codec (rules of a wallet whose chain is not served stay editable).
 */
export function limitsChainOf(deps: { chains: EscrowChains }, chain: string): LimitsChain {
  const c = deps.chains.forWallet(chain) ?? offlineChain(chain);
  if (!c) throw new LimitsError(`limits: ${chain} wallets are not known to this deployment`);
  return c;
}
