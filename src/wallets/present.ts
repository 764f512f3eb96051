/** Wire shapes of wallets (SPEC 2.5, 2.6 and the MCP additions). */
import type { ChainAdapter } from "../chains/port";
import { offlineChain } from "../chains/codecs";
import type { BalanceEntry } from "../chains/types";
import { enforcement, limitsFromRow, type Limits } from "./limits";
import type { WalletView } from "./repo";

export interface Wallet {
  id: string;
  name: string;
  chain: string;
  mode: "autonomous" | "safe";
  custody: "server" | "embedded";
  address: string;
  mandate: string | null;
  limits: Limits;
  balanceUsd: number | null;
  tokenCount: number;
  pendingCount: number;
  archivedAt: string | null;
  createdAt: string;
}

export interface WalletDetails {
  provider: string;
  /**
   * `whoMayLoosen`: `agent` (a loosening change sent by an agent applies, SPEC 4.12) or `owner` (it waits for
   * the owner's approval in the dashboard); set by the owner only.
   */
  rules: { limits: Limits; enforcement: Record<string, "signer" | "service" | "judge">; whoMayLoosen: "agent" | "owner" };
  explorerAddressUrl: string | null;
  /** The fee asset (ETH on Base, SOL on Solana, STRK on Starknet) and what to keep in mind about it. */
  gas: { asset: string; note: string };
}

export interface Balances {
  walletId: string;
  name: string;
  chain: string;
  address: string;
  balanceUsd: number | null;
  balances: BalanceEntry[];
  /** Present when balances could not be read or some assets have no price. */
  warnings?: string[];
}

export function walletWire(row: WalletView, live: { balanceUsd: number | null; tokenCount: number }, pendingCount: number): Wallet {
  return {
    id: row.id,
    name: row.name,
    chain: row.chain,
    mode: row.mode,
    custody: row.custody,
    address: row.address,
    mandate: row.mandate,
    limits: limitsFromRow(row.limits),
    balanceUsd: live.balanceUsd,
    tokenCount: live.tokenCount,
    pendingCount,
    archivedAt: row.archived_at ? new Date(row.archived_at).toISOString() : null,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/**
 * `chain`: the adapter serving the wallet's chain, null when this deployment does not serve it (then the
 * wallet is shown without explorer link, with the provider stored on its row).
 */
export function walletDetails(row: WalletView, chain: ChainAdapter | null): WalletDetails {
  const limits = limitsFromRow(row.limits);
  const custody = chain?.custody;
  const fees = chain?.fees() ?? offlineChain(row.chain)?.fees() ?? { asset: "unknown", note: `this deployment does not serve ${row.chain} wallets; the wallet cannot transact here` };
  return {
    // An embedded wallet's row names the owner's wallet as its signer (custody/embedded.ts), not the custodian.
    provider: row.custody === "embedded" ? row.signer : (custody?.provider ?? row.signer),
    rules: { limits, enforcement: enforcement(limits, custody?.enforcesLimits ?? false, !!row.mandate), whoMayLoosen: row.who_may_loosen === "owner" ? "owner" : "agent" },
    explorerAddressUrl: chain?.explorerAddressUrl(row.address) ?? null,
    gas: { asset: fees.asset, note: fees.note },
  };
}
